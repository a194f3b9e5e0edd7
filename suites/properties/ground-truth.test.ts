/**
 * Every generated envelope gets the verdict it was built to get (its plan says where each answer sits
 * and what finality it has), and every corpus case the verdict it records.
 */
import { describe, expect, it } from 'vitest';
import { groundTruthProperty } from '#src/properties/index.ts';
import { againstFault, holds, PROPERTY_TIMEOUT_MS } from './_shared.ts';
import { faultyEnv, ignoresFences } from './_faults.ts';

describe('ground-truth', () => {
  it(groundTruthProperty.summary, () => {
    holds(groundTruthProperty);
  }, PROPERTY_TIMEOUT_MS);

  it('catches a decoder that never sees fenced JSON, and says how to replay it', async () => {
    const run = againstFault(groundTruthProperty, await faultyEnv('ignores fences', ignoresFences));
    expect(run.failed).toBe(true);
    expect(run.report).toContain(`Replay: npx routecert fuzz --property ground-truth --seed ${run.seed} --path ${run.path}`);
    expect(run.error).toMatch(/^Error: expected verdict [a-z-]+, got [a-z-]+/);
  }, PROPERTY_TIMEOUT_MS);
});
