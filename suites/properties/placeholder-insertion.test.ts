/**
 * A final answer is never displaced by a non-final placeholder inserted anywhere: before or after it
 * in the same text, in another stream event, or in the empty structured field.
 */
import { describe, expect, it } from 'vitest';
import { placeholderInsertionProperty } from '#src/properties/index.ts';
import { againstFault, holds, PROPERTY_TIMEOUT_MS } from './_shared.ts';
import { faultyEnv, firstCandidateWins } from './_faults.ts';

describe('placeholder-insertion', () => {
  it(placeholderInsertionProperty.summary, () => {
    holds(placeholderInsertionProperty);
  }, PROPERTY_TIMEOUT_MS);

  it('catches a decoder where the first object bearing position wins', async () => {
    const run = againstFault(placeholderInsertionProperty, await faultyEnv('first wins', firstCandidateWins));
    expect(run.failed).toBe(true);
    expect(run.error).toMatch(/the final answer was displaced|another value was accepted/);
  }, PROPERTY_TIMEOUT_MS);
});
