/**
 * The pov preset (cross-model point of view), DESIGN.md "Contracts in the mission" item 1, as
 * schemas/contracts/pov.contract.json defines it: anchor `position`, finality `final` (missing or
 * non-boolean is non-final: fail closed), selection `score` (2 = schema-valid and final, 1 =
 * schema-valid but not final, 0 = anchor only; the structured field wins early at 2; ties go to the
 * later), one retry on the same route with the final-answer paragraph when at least 60 s of the 600 s
 * window remain, else `dropped-nonfinal` with `peer skip evidence: non-final position: <200 chars>`.
 * Finality is never read from prose: a settled "Blocked — ..." with `final: true` is accepted.
 *
 * Source: EveryInc/compound-engineering-plugin PR #1402/#1403 (`run_fixed_route`, `recover_pov_json`),
 * shared/research/ce-plugin.md sections 1.4, 1.8, 1.9 and 4. The rules are ./define.ts's.
 */
import { defineContract, type DefinedContract } from './define.ts';
import { presetDefinition } from './presets.ts';

const POV = presetDefinition('pov');

/**
 * Time policy of the pov preset in seconds, as the reference worker's windows are given.
 * - `hardWindowS`: the route's hard window (600 s); `retryMinS`: the least time that must remain for
 *   the retry (60 s); `maxAttempts`: attempts on one route, the retry included (2).
 */
export interface PovPolicy {
  hardWindowS: number;
  retryMinS: number;
  maxAttempts: number;
}

/** The pov preset's windows (ce-pov: `CROSS_MODEL_HARD_SECS=600`, `CROSS_MODEL_RETRY_MIN_SECS=60`), from pov.contract.json. */
export const DEFAULT_POV_POLICY: PovPolicy = { hardWindowS: POV.retry!.hardWindowMs / 1000, retryMinS: POV.retry!.retryMinMs / 1000, maxAttempts: 2 };

/** The paragraph appended to the prompt for the one retry after a non-final answer (pov.contract.json `retry.paragraph`). */
export const FINAL_ANSWER_ADDENDUM: string = POV.retry!.paragraph;

/** A pov contract: see {@link DefinedContract}. */
export type PovContract = DefinedContract;

/**
 * The pov preset over another production schema and windows (the reference worker's, a test's).
 *
 * @param schema the production schema (schemas/contracts/pov.schema.json or a team's variant).
 * @param options `policy`: windows in seconds; `maxAttempts` 1 means no retry.
 * @throws ContractDefinitionError when the schema does not compile.
 */
export function povContract(schema: Record<string, unknown>, options: { policy?: Partial<PovPolicy> } = {}): PovContract {
  const policy = { ...DEFAULT_POV_POLICY, ...options.policy };
  const { retry: _retry, ...rest } = POV;
  return defineContract({
    ...rest,
    schema,
    ...(policy.maxAttempts >= 2 ? { retry: { hardWindowMs: policy.hardWindowS * 1000, retryMinMs: policy.retryMinS * 1000, paragraph: POV.retry!.paragraph } } : {}),
  });
}
