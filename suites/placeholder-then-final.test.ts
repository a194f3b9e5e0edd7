/**
 * A placeholder (schema-valid, `final: false`) beside the final answer never displaces it, in either
 * order; the accepted value is always final.
 */
import { describe, expect, it } from 'vitest';
import { casesTagged, judge } from './_helpers/corpus.ts';

describe('placeholder-then-final', () => {
  const rows = casesTagged('placeholder-then-final');
  it('has recorded and documented cases', () => {
    const sources = new Set(rows.map(([, c]) => c.case.provenance.source));
    expect(sources.has('recorded')).toBe(true);
    expect(sources.has('documented')).toBe(true);
  });

  it.each(rows)('%s', async (_label, c) => {
    const verdict = await judge(c);
    expect(verdict.verdict).toBe('accepted');
    if (verdict.verdict !== 'accepted') return;
    expect((verdict.value as Record<string, unknown>).final).toBe(true);
    expect(verdict.value).toEqual(c.case.expect.value);
  });
});
