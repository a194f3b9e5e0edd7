/**
 * Property `ground-truth`: every generated envelope gets the verdict it was built to get, and every
 * corpus case the verdict it records.
 */
import { routeEnvelope } from '#src/arbitraries/routeEnvelope.ts';
import { compareVerdict } from '#src/harness/compare.ts';
import { describeSample, judgeAttempts, sampleFromCase, sampleOf, usableCases } from './samples.ts';
import type { RoutecertProperty, Sample } from './types.ts';

/** See the file comment. Input: a {@link Sample}. */
export const groundTruthProperty: RoutecertProperty<Sample> = {
  name: 'ground-truth',
  summary: 'every generated envelope gets the verdict (and accepted value) it was built to get',
  numRuns: 150,
  arbitrary: () => routeEnvelope().map(sampleOf),
  examples: (cases) => usableCases(cases).map(sampleFromCase),
  check(sample, env) {
    const verdict = judgeAttempts(sample.route, sample.attempts, env);
    const problems = compareVerdict(sample.expected, verdict);
    if (problems.length > 0) throw new Error(`${problems.join('; ')} (evidence: ${JSON.stringify(verdict.evidence).slice(0, 400)})`);
  },
  regression: (sample) => ({
    route: sample.route,
    description: `a generated ${sample.route} envelope must get ${sample.expected.verdict}`,
    attempts: sample.attempts,
    expect: sample.expected,
    tags: [],
  }),
  describe: describeSample,
};
