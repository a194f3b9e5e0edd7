/**
 * Finality fails closed: with the final member removed from every answer, nothing is accepted.
 */
import { describe, expect, it } from 'vitest';
import { finalRemovalProperty } from '#src/properties/index.ts';
import { againstFault, holds, PROPERTY_TIMEOUT_MS } from './_shared.ts';
import { faultyEnv, missingFinalIsFinal } from './_faults.ts';

describe('final-removal', () => {
  it(finalRemovalProperty.summary, () => {
    holds(finalRemovalProperty);
  }, PROPERTY_TIMEOUT_MS);

  it('catches a decoder that reads a missing final as true', async () => {
    const run = againstFault(finalRemovalProperty, await faultyEnv('missing final is final', missingFinalIsFinal));
    expect(run.failed).toBe(true);
    expect(run.error).toContain('accepted without any final member');
  }, PROPERTY_TIMEOUT_MS);
});
