/**
 * No input makes a decoder throw: arbitrary bytes decoded as UTF-8, lone surrogates, NUL, BOM, CRLF,
 * nesting deep enough to overflow JSON.stringify, slices of envelopes. Every route returns a verdict.
 */
import { describe, expect, it } from 'vitest';
import { buildLargeEnvelope, LARGE_SHAPES, neverThrowsLargeProperty, neverThrowsProperty } from '#src/properties/index.ts';
import { againstFault, holds, PROPERTY_TIMEOUT_MS } from './_shared.ts';
import { faultyEnv, rawDedupe, spreadCandidates } from './_faults.ts';

describe('never-throws', () => {
  it(neverThrowsProperty.summary, () => {
    holds(neverThrowsProperty);
  }, PROPERTY_TIMEOUT_MS);

  it('catches a decoder that overflows the stack on a deeply nested structured field', async () => {
    const run = againstFault(neverThrowsProperty, await faultyEnv('raw dedupe', rawDedupe), { cases: [] });
    expect(run.failed).toBe(true);
    expect(run.error).toContain('RangeError');
  }, PROPERTY_TIMEOUT_MS);
});

describe('never-throws-large (issue 15)', () => {
  it(neverThrowsLargeProperty.summary, () => {
    holds(neverThrowsLargeProperty);
  }, PROPERTY_TIMEOUT_MS);

  it('builds what it says: 10^5 candidates, 10^4 levels, megabyte strings', () => {
    const base = { count: 100_000, depth: 10_000, megabytes: 2, final: true, routeSlot: 0 };
    const sizes = Object.fromEntries(LARGE_SHAPES.map((shape) => [shape, buildLargeEnvelope({ ...base, shape }).stdout]));
    expect(sizes['result-candidates']!.match(/position/g)!.length).toBeGreaterThanOrEqual(25_000);
    expect(sizes['result-candidates']!.length).toBeGreaterThan(1_000_000);
    expect(sizes['jsonl-events']!.split('\n').length).toBe(100_001);
    expect(sizes['deep-nesting']!.startsWith('{"a":'.repeat(10_000))).toBe(true);
    expect(sizes['big-string']!.length).toBeGreaterThan(2 * 2 ** 20);
    expect(sizes['cut-long-line']!.endsWith('}')).toBe(false);
  });

  it('catches a decoder that spreads 10^5 candidates into push()', async () => {
    const run = againstFault(neverThrowsLargeProperty, await faultyEnv('spread candidates', spreadCandidates), { cases: [] });
    expect(run.failed).toBe(true);
    expect(run.error).toContain('RangeError');
  }, PROPERTY_TIMEOUT_MS);
});
