/**
 * No input makes a decoder throw: arbitrary bytes decoded as UTF-8, lone surrogates, NUL, BOM, CRLF,
 * nesting deep enough to overflow JSON.stringify, slices of envelopes. Every route returns a verdict.
 */
import { describe, expect, it } from 'vitest';
import { neverThrowsProperty } from '#src/properties/index.ts';
import { againstFault, holds, PROPERTY_TIMEOUT_MS } from './_shared.ts';
import { faultyEnv, rawDedupe } from './_faults.ts';

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
