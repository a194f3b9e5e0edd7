import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { boundReport, boundString, MAX_STRING_CHARS, measureValue, sha256OfText, streamJson } from './bound.ts';

function nested(depth: number): unknown {
  let v: unknown = [];
  for (let i = 0; i < depth; i += 1) v = [v];
  return v;
}

describe('streamJson: iterative JSON', () => {
  it('writes what JSON.stringify writes, compact and indented', () => {
    const value = { a: [1, 'x', null, true, { b: [] }, {}], c: undefined, d: 'q"\n', e: [undefined] };
    for (const indent of [0, 2]) {
      let out = '';
      streamJson(value, (t) => (out += t), (s) => s, indent);
      expect(out).toBe(JSON.stringify(value, null, indent || undefined));
    }
  });

  it('serialises a 100,000-deep array without recursion', () => {
    let bytes = 0;
    const depth = streamJson(nested(100_000), (t) => (bytes += t.length));
    expect(depth).toBe(100_001);
    expect(bytes).toBe(2 * 100_001);
  });
});

describe('boundReport', () => {
  it('replaces a deep answer value by a typed preview with its size and digest, keeps a small one', () => {
    const report = { cases: [{ verdict: { verdict: 'accepted', value: { deep: nested(6000) } } }, { verdict: { verdict: 'accepted', value: { small: 1 } } }] };
    const shown = boundReport(report);
    expect(shown.cases[0]!.verdict.value).toMatchObject({ $clipped: 'value', type: 'object', depth: 6002, bytes: measureValue(report.cases[0]!.verdict.value).bytes });
    expect(shown.cases[1]!.verdict.value).toEqual({ small: 1 });
    // The report itself is not changed.
    expect(report.cases[0]!.verdict.value).toHaveProperty('deep');
    expect(boundReport(report, { fullValues: true }).cases[0]!.verdict.value).toHaveProperty('deep');
  });

  it('clips a long string, says how long it was and gives its digest', () => {
    const s = `${'a '.repeat(MAX_STRING_CHARS)}end`;
    const out = boundString(s);
    expect(out.length).toBeLessThan(MAX_STRING_CHARS + 200);
    expect(out).toMatch(new RegExp(`clipped: ${s.length} chars, sha256 [0-9a-f]{16}`));
    expect(out.endsWith('end')).toBe(true);
  });

  it('digests a long string a slice at a time, to the same SHA-256 as the whole, a pair cut at no slice end', () => {
    const s = `${'x'.repeat((1 << 20) - 1)}\u{1F600}${'é'.repeat(1000)}`;
    expect(sha256OfText(s)).toBe(createHash('sha256').update(s).digest('hex'));
    expect(sha256OfText('')).toBe(createHash('sha256').update('').digest('hex'));
  });

  it('redacts every string and key it passes on', () => {
    const jwt = ['eyJ', 'hbGciOiJIUzI1NiJ9', '.', 'eyJzdWIiOiIxIn0', '.', 'c2ln'].join('');
    const shown = boundReport({ problems: [`token ${jwt}`], [`k ${jwt}`]: 1 });
    expect(JSON.stringify(shown)).not.toContain('eyJ');
  });
});
