/**
 * A failing run keeps its stderr visible: whole when it is at most 300 characters (after folding line
 * breaks), clipped to the bound when longer. Generated stderr covers short, exactly 300, long,
 * multi-line, ANSI colour codes and unicode.
 */
import { describe, expect, it } from 'vitest';
import { checkProperty, stderrEvidenceProperty } from '#src/properties/index.ts';
import { againstFault, env, holds, PROPERTY_TIMEOUT_MS } from './_shared.ts';
import { tailCutStderr } from './_faults.ts';

describe('stderr-evidence', () => {
  it(stderrEvidenceProperty.summary, () => {
    holds(stderrEvidenceProperty);
  }, PROPERTY_TIMEOUT_MS);

  it('holds on seed 846370098, where its ground truth once disagreed with the decoder (issue 24: stdout `[warn] I`, no newline)', () => {
    const path = '68:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:1:1:2:6:5:5:5:5:5:5';
    const run = checkProperty(stderrEvidenceProperty, { env, seed: 846370098, path });
    expect(run.error).toBeNull();
    expect(run.failed).toBe(false);
  }, PROPERTY_TIMEOUT_MS);

  it('catches a contract that loses a stderr shorter than 300 characters (the bash ${x: -300} bug)', () => {
    const run = againstFault(stderrEvidenceProperty, { ...env, contract: tailCutStderr(env.contract) });
    expect(run.failed).toBe(true);
    expect(run.error).toContain('is not in the evidence');
  }, PROPERTY_TIMEOUT_MS);
});
