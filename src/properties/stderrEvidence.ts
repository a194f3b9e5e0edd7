/**
 * Property `stderr-evidence`: when a run fails, any stderr of at most 300 characters appears verbatim
 * in the evidence, and no `peer skip evidence` line carries more than 300 characters of output
 * (src/diagnostics/evidence.ts; rule source EveryInc/compound-engineering-plugin PR #1175, which fixed
 * a tail cut that erased messages shorter than 300 characters, PR #1153).
 *
 * "Verbatim" is after the documented folding: trimmed, each CR, LF or CRLF as one space. The bound is
 * checked on the `peer skip evidence` lines; the `startup rejected: <message>` line quotes the CLI's
 * message whole and is not bounded (see the issue 6 report).
 */
import fc from 'fast-check';
import { routeEnvelope } from '#src/arbitraries/routeEnvelope.ts';
import { evidenceForm, STDERR_KINDS, stderrText } from '#src/arbitraries/stderrText.ts';
import { renderPlan } from '#src/arbitraries/_internals/render.ts';
import { withStderr } from '#src/arbitraries/_internals/transform.ts';
import { expectedOf } from '#src/arbitraries/_internals/truth.ts';
import { EVIDENCE_LIMIT_CHARS } from '#src/diagnostics/evidence.ts';
import type { Envelope } from '#src/envelope/types.ts';
import type { CaseExpectation } from '#src/envelope/caseTypes.ts';
import { describeSample, judgeAttempts, sampleFromCase, sampleOf, usableCases } from './samples.ts';
import type { RoutecertProperty, Sample } from './types.ts';

/** Input: a failing sample and the stderr to give it. */
export interface StderrEvidence {
  sample: Sample;
  stderr: string;
}

const FAILING = new Set(['dropped-unusable', 'startup-rejected', 'provider-error', 'timeout', 'crashed']);
const PREFIX = /^peer skip evidence(?: \(stderr\))?: /;
const HEAD_TAIL_PART = 147;

function withIt(input: StderrEvidence): { attempts: Envelope[]; verdict: string | null } {
  const { sample, stderr } = input;
  if (sample.plan) {
    const plan = withStderr(sample.plan, stderr);
    return { attempts: [renderPlan(plan)], verdict: expectedOf(plan).verdict };
  }
  return { attempts: sample.attempts.map((a) => ({ ...a, stderr })), verdict: null };
}

/** The evidence fragment the documented clip rule keeps of a stderr (whole up to 300, else head 147 + ` ... ` + tail 147). */
export function expectedStderrFragment(stderr: string): string {
  const form = evidenceForm(stderr);
  return form.length <= EVIDENCE_LIMIT_CHARS ? form : `${form.slice(0, HEAD_TAIL_PART)} ... ${form.slice(form.length - HEAD_TAIL_PART)}`;
}

/** See the file comment. */
export const stderrEvidenceProperty: RoutecertProperty<StderrEvidence> = {
  name: 'stderr-evidence',
  summary: 'a stderr of at most 300 characters appears verbatim in the evidence of a failure; longer evidence never exceeds the bound',
  numRuns: 100,
  arbitrary: () => fc.record({ sample: routeEnvelope({ outcome: 'failing' }).map(sampleOf), stderr: stderrText({ kinds: STDERR_KINDS }) }),
  examples: (cases) =>
    usableCases(cases)
      .filter((c) => FAILING.has(c.case.expect.verdict))
      .map(sampleFromCase)
      .flatMap((sample) => ['schema invalid', 'E'.repeat(150) + 'x'.repeat(1000) + 'Z'.repeat(150)].map((stderr) => ({ sample, stderr }))),
  check(input, env) {
    const { attempts, verdict: expected } = withIt(input);
    const v = judgeAttempts(input.sample.route, attempts, env);
    if (expected !== null && v.verdict !== expected) throw new Error(`expected verdict ${expected}, got ${v.verdict}`);
    if (!FAILING.has(v.verdict)) throw new Error(`expected a failing verdict, got ${v.verdict}`);
    const stderr = attempts[v.attempt]?.stderr ?? '';
    const form = evidenceForm(stderr);
    if (form !== '' && form.length <= EVIDENCE_LIMIT_CHARS && !v.evidence.some((line) => line.includes(form))) {
      throw new Error(`the ${form.length}-character stderr ${JSON.stringify(form)} is not in the evidence: ${JSON.stringify(v.evidence)}`);
    }
    for (const line of v.evidence) {
      const m = PREFIX.exec(line);
      if (m && line.length - m[0].length > EVIDENCE_LIMIT_CHARS) {
        throw new Error(`an evidence line carries ${line.length - m[0].length} characters of output (bound ${EVIDENCE_LIMIT_CHARS}): ${JSON.stringify(line.slice(0, 200))}...`);
      }
    }
  },
  regression(input) {
    const { attempts, verdict } = withIt(input);
    if (verdict === null) return { refused: `${input.sample.source} with another stderr: fix the diagnostics, the case already runs with the corpus` };
    const fragment = expectedStderrFragment(attempts[0]!.stderr);
    const expect: CaseExpectation = { verdict: verdict as CaseExpectation['verdict'] };
    if (fragment !== '') expect.evidence = [fragment];
    return { route: input.sample.route, description: 'a failing run must keep its stderr visible and bounded in the evidence', attempts, expect, tags: ['short-stderr'] };
  },
  describe: (input) => `${describeSample(input.sample)}; stderr ${JSON.stringify(input.stderr).slice(0, 400)} (${evidenceForm(input.stderr).length} characters as evidence)`,
};
