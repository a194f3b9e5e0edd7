/**
 * Property `key-spelling`: `structured_output`, `structuredOutput`, `StructuredOutput`,
 * `structured-output` and `STRUCTURED_OUTPUT` are one field; respelling it never changes the verdict
 * nor the accepted value (grok 1.0.4 writes camelCase: EveryInc/compound-engineering-plugin PR #1325).
 */
import { routeEnvelope } from '#src/arbitraries/routeEnvelope.ts';
import { STRUCTURED_SPELLINGS } from '#src/arbitraries/_internals/material.ts';
import { renderPlan } from '#src/arbitraries/_internals/render.ts';
import { respell } from '#src/arbitraries/_internals/transform.ts';
import { canonicalJson } from '#src/envelope/candidates.ts';
import type { Envelope } from '#src/envelope/types.ts';
import { describeSample, judgeAttempts, sampleFromCase, sampleOf, usableCases } from './samples.ts';
import type { PropertyEnv, RoutecertProperty, Sample } from './types.ts';

const FIELD = /"(structured_output|structuredOutput|StructuredOutput|structured-output|STRUCTURED_OUTPUT)":/g;

/** The sample's attempts with the structured field spelled `key` (from its plan, or by renaming the field in the text). */
function spelled(sample: Sample, key: string): Envelope[] {
  if (sample.plan) return [renderPlan(respell(sample.plan, key))];
  const rename = (text: string) => text.replace(FIELD, `"${key}":`);
  return sample.attempts.map((a) => ({ ...a, stdout: rename(a.stdout), ...(a.files ? { files: Object.fromEntries(Object.entries(a.files).map(([k, v]) => [k, rename(v)])) } : {}) }));
}

interface Outcome {
  key: string;
  verdict: string;
  value: string | undefined;
}

function outcomes(sample: Sample, env: PropertyEnv): Outcome[] {
  return STRUCTURED_SPELLINGS.map((key) => {
    const v = judgeAttempts(sample.route, spelled(sample, key), env);
    return { key, verdict: v.verdict, value: v.verdict === 'accepted' ? canonicalJson(v.value) : undefined };
  });
}

function expectedValue(sample: Sample): string | undefined {
  return sample.expected.verdict === 'accepted' && sample.expected.value !== undefined ? canonicalJson(sample.expected.value) : undefined;
}

/** The first spelling whose verdict differs from the expectation, if any. */
function deviant(sample: Sample, env: PropertyEnv): Outcome | undefined {
  const want = expectedValue(sample);
  return outcomes(sample, env).find((o) => o.verdict !== sample.expected.verdict || (want !== undefined && o.value !== want));
}

/** See the file comment. Input: a {@link Sample} whose envelope has a structured field. */
export const keySpellingProperty: RoutecertProperty<Sample> = {
  name: 'key-spelling',
  summary: 'a change of key spelling of the structured field never changes the verdict',
  numRuns: 60,
  arbitrary: () => routeEnvelope({ structured: 'always' }).map(sampleOf),
  examples: (cases) => usableCases(cases).filter((c) => c.case.attempts.some((a) => a.stdout.search(FIELD) >= 0)).map(sampleFromCase),
  check(sample, env) {
    const all = outcomes(sample, env);
    const names = new Set(all.map((o) => `${o.verdict} ${o.value ?? ''}`));
    const bad = deviant(sample, env);
    if (names.size > 1 || bad) {
      const table = all.map((o) => `${o.key} -> ${o.verdict}`).join(', ');
      throw new Error(`the verdict depends on the spelling of the structured field (expected ${sample.expected.verdict} for every spelling): ${table}`);
    }
  },
  regression(sample, env) {
    const bad = deviant(sample, env) ?? { key: STRUCTURED_SPELLINGS[1] };
    return {
      route: sample.route,
      description: `the structured field spelled ${bad.key} must still give ${sample.expected.verdict}`,
      attempts: spelled(sample, bad.key),
      expect: { verdict: sample.expected.verdict, ...(sample.expected.value !== undefined ? { value: sample.expected.value } : {}) },
      tags: ['key-case'],
    };
  },
  describe: describeSample,
};
