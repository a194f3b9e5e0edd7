/**
 * Short stderr stays visible: a message of up to 300 characters appears verbatim in the evidence of a
 * failing verdict, a longer one is bounded. Tagged cases (the recorded `_meta` startup rejection, the
 * 14-character "schema invalid") pass, and every failing corpus case keeps any short stderr whole.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { corpus, casesTagged, judge } from './_helpers/corpus.ts';

const FAILING = new Set(['dropped-unusable', 'startup-rejected', 'provider-error', 'timeout', 'crashed']);

describe('short-stderr: tagged cases', () => {
  it.each(casesTagged('short-stderr'))('%s', async (_label, c) => {
    const verdict = await judge(c);
    const stderr = c.case.attempts.at(-1)!.stderr.trim();
    expect(stderr.length).toBeLessThanOrEqual(300);
    expect(verdict.evidence.join('\n')).toContain(stderr);
  });
});

describe('short-stderr: any short stderr of a failing case appears verbatim, any long one is bounded', () => {
  const failing = corpus.cases.filter((c) => FAILING.has(c.case.expect.verdict));
  it('finds failing cases', () => expect(failing.length).toBeGreaterThanOrEqual(8));
  it.each(failing.map((c) => [`${c.case.id} ${c.case.route}: ${c.case.description}`, c] as const))('%s', async (_label, c) => {
    const line = fc.string({ minLength: 1, maxLength: 300, unit: 'grapheme-ascii' }).filter((s) => s.trim() === s && s.trim() !== '' && !/[\r\n]/.test(s));
    await fc.assert(
      fc.asyncProperty(line, async (stderr) => {
        const attempts = c.case.attempts.map((a) => ({ ...a, stderr }));
        const verdict = await judge(c, attempts);
        expect(verdict.evidence.join('\n')).toContain(stderr);
      }),
      { numRuns: 25 },
    );
    const long = `${'E'.repeat(200)}${'x'.repeat(5000)}${'Z'.repeat(200)}`;
    const verdict = await judge(c, c.case.attempts.map((a) => ({ ...a, stderr: long })));
    const line2 = verdict.evidence.find((e) => e.startsWith('peer skip evidence (stderr): '));
    expect(line2).toBeDefined();
    expect(line2!.length - 'peer skip evidence (stderr): '.length).toBeLessThanOrEqual(300);
    expect(line2).toContain('EEEE');
    expect(line2).toContain('ZZZZ');
  });
});
