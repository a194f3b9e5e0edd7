/**
 * Property `final-removal`: finality fails closed. Removing the `final` member from every answer of an
 * envelope never leaves it `accepted` (DESIGN.md: missing or non-boolean `final` is non-final).
 */
import { routeEnvelope } from '#src/arbitraries/routeEnvelope.ts';
import { renderPlan } from '#src/arbitraries/_internals/render.ts';
import { withoutFinality } from '#src/arbitraries/_internals/transform.ts';
import { stripFinal } from '#src/arbitraries/stripFinal.ts';
import { expectedOf } from '#src/arbitraries/_internals/truth.ts';
import { compareVerdict } from '#src/harness/compare.ts';
import type { Envelope } from '#src/envelope/types.ts';
import { describeSample, judgeAttempts, sampleFromCase, sampleOf, usableCases } from './samples.ts';
import type { RoutecertProperty, Sample } from './types.ts';

export { stripFinal };

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
