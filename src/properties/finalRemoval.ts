/**
 * Property `final-removal`: finality fails closed. Removing the `final` member from every answer of an
 * envelope never leaves it `accepted` (DESIGN.md: missing or non-boolean `final` is non-final).
 */
import { routeEnvelope } from '#src/arbitraries/routeEnvelope.ts';
import { renderPlan } from '#src/arbitraries/_internals/render.ts';
import { withoutFinality } from '#src/arbitraries/_internals/transform.ts';
import { expectedOf } from '#src/arbitraries/_internals/truth.ts';
import { compareVerdict } from '#src/harness/compare.ts';
import type { Envelope } from '#src/envelope/types.ts';
import { describeSample, judgeAttempts, sampleFromCase, sampleOf, usableCases } from './samples.ts';
import type { RoutecertProperty, Sample } from './types.ts';

/**
 * Remove `"final": true` members from JSON text, raw or escaped once or twice inside strings (the
 * corpus form of the change; generated samples change their plan instead): with the comma before or
 * after it, or, when the answer streams as text chunks (grok streaming-json, one ACP message chunk
 * per line), alone in its chunk before the closing `}` whose comma sits in an earlier chunk (case
 * 3787d941088f5687: the route assembles the chunks, so the member must go from the chunk too).
 */
export function stripFinal(text: string): string {
  let out = text;
  for (const q of ['"', '\\"', '\\\\\\"']) {
    const key = `${q}final${q}`;
    const esc = key.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
    out = out.replace(new RegExp(`,(?:\\s|\\\\n)*${esc}\\s*:\\s*true`, 'g'), '');
    out = out.replace(new RegExp(`${esc}\\s*:\\s*true\\s*,(?:\\s|\\\\n)*`, 'g'), '');
    out = out.replace(new RegExp(`${esc}\\s*:\\s*true(?=\\s*})`, 'g'), '');
  }
  return out;
}

function mapValues(files: Record<string, string>, f: (text: string) => string): Record<string, string> {
  return Object.fromEntries(Object.entries(files).map(([k, v]) => [k, f(v)]));
}

/** The sample's attempts with `final` removed: from its plan, or from the text of stdout and side files. */
function stripped(sample: Sample): Envelope[] {
  if (sample.plan) return [renderPlan(withoutFinality(sample.plan))];
  return sample.attempts.map((a) => ({ ...a, stdout: stripFinal(a.stdout), ...(a.files ? { files: mapValues(a.files, stripFinal) } : {}) }));
}

/** See the file comment. Input: a {@link Sample} (generated ones mostly hold a final answer). */
export const finalRemovalProperty: RoutecertProperty<Sample> = {
  name: 'final-removal',
  summary: 'removing final from every answer never yields accepted',
  numRuns: 80,
  arbitrary: () => routeEnvelope({ outcome: 'final' }).map(sampleOf),
  examples: (cases) => usableCases(cases).filter((c) => c.case.expect.verdict === 'accepted').map(sampleFromCase),
  check(sample, env) {
    const v = judgeAttempts(sample.route, stripped(sample), env);
    if (v.verdict === 'accepted') throw new Error(`accepted without any final member, from ${v.origin}: ${JSON.stringify(v.value).slice(0, 300)}`);
    if (sample.plan) {
      const problems = compareVerdict(expectedOf(withoutFinality(sample.plan)), v);
      if (problems.length > 0) throw new Error(`without final: ${problems.join('; ')}`);
    }
  },
  regression(sample) {
    if (!sample.plan) return { refused: `${sample.source} with final removed has no stated verdict; fix the decoder, the case already runs with the corpus` };
    return {
      route: sample.route,
      description: 'every answer lacks final, so the envelope must not be accepted',
      attempts: stripped(sample),
      expect: expectedOf(withoutFinality(sample.plan)),
      tags: ['missing-final'],
    };
  },
  describe: describeSample,
};
