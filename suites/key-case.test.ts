/**
 * Key spelling: `structured_output`, `structuredOutput`, `StructuredOutput` and `structured-output`
 * are one field. Tagged cases pass, and renaming the structured field of any corpus case to another
 * spelling never changes its verdict (grok 1.0.4 writes camelCase; PR #1325).
 */
import { describe, expect, it } from 'vitest';
import { corpus, casesTagged, judge } from './_helpers/corpus.ts';

const SPELLINGS = ['structured_output', 'structuredOutput', 'StructuredOutput', 'structured-output'];
/** Every spelling of the field (`/g`: for `replace`; never `.test()` with it, its lastIndex carries over). */
const FIELD = /"(structured_output|structuredOutput|StructuredOutput|structured-output)":/g;
const HAS_FIELD = new RegExp(FIELD.source);

describe('key-case: tagged cases', () => {
  it('has tagged cases', () => expect(casesTagged('key-case').length).toBeGreaterThanOrEqual(5));
  it.each(casesTagged('key-case'))('%s', async (_label, c) => {
    const verdict = await judge(c);
    expect(verdict.verdict).toBe(c.case.expect.verdict);
  });
});

describe('key-case: renaming the structured field never changes the verdict', () => {
  const withField = corpus.cases.filter((c) => c.case.attempts.some((a) => HAS_FIELD.test(a.stdout)));
  it('finds corpus cases with a structured field, every one of them', () => {
    // Counted again without a regex: a stateful (`/g`) `.test()` once dropped 7 of 50 cases here.
    const counted = corpus.cases.filter((c) => c.case.attempts.some((a) => SPELLINGS.some((s) => a.stdout.includes(`"${s}":`))));
    expect(withField.length).toBeGreaterThanOrEqual(10);
    expect(withField.map((c) => c.case.id)).toEqual(counted.map((c) => c.case.id));
  });
  it.each(withField.map((c) => [`${c.case.id} ${c.case.route}: ${c.case.description}`, c] as const))('%s', async (_label, c) => {
    const original = await judge(c);
    for (const spelling of SPELLINGS) {
      const attempts = c.case.attempts.map((a) => ({ ...a, stdout: a.stdout.replace(FIELD, `"${spelling}":`) }));
      const renamed = await judge(c, attempts);
      expect(renamed.verdict, `spelled ${spelling}`).toBe(original.verdict);
      if (original.verdict === 'accepted' && renamed.verdict === 'accepted') expect(renamed.value).toEqual(original.value);
    }
  });
});
