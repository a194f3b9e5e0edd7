/**
 * What certification reads of a contract: its definition, in the shape of `defineContract()`
 * (issue 10 part 1, built in src/contract/define.ts by the contracts work). Certification derives
 * its checks from these rules: retry checks only for a contract with `retry`, correction checks
 * only for one with `corrections`, finality checks only where `finality` is a key, the tie check only
 * for `selection: 'score'`.
 *
 * INTEGRATION NOTE: {@link ContractDefinition} is a local copy of the interface `defineContract`
 * takes, written before src/contract/define.ts existed; once it lands, import the type from there
 * and build {@link POV_DEFINITION} with the shipped pov preset instead.
 */
import { FINAL_ANSWER_ADDENDUM, DEFAULT_POV_POLICY } from '#src/contract/pov.ts';
import { isPlainObject } from '#src/envelope/keys.ts';

/** A contract as data (see the file comment). Times in ms. */
export interface ContractDefinition {
  name: string;
  schema: string | object;
  anchor: string;
  finality: { key: string } | 'none';
  selection: 'score' | 'last-shaped';
  emptyIsAnswer?: boolean;
  retry?: { hardWindowMs: number; retryMinMs: number; paragraph: string };
  corrections?: { budget: number; message?: string };
  textFallback?: 'any' | 'fenced' | 'off';
  clip?: { head: number; tail: number };
}

/** The bundled pov contract as a definition (DESIGN.md "The shipped contracts" item 1). */
export const POV_DEFINITION: ContractDefinition = {
  name: 'pov',
  schema: 'schemas/contracts/pov.schema.json',
  anchor: 'position',
  finality: { key: 'final' },
  selection: 'score',
  retry: { hardWindowMs: DEFAULT_POV_POLICY.hardWindowS * 1000, retryMinMs: DEFAULT_POV_POLICY.retryMinS * 1000, paragraph: FINAL_ANSWER_ADDENDUM },
  textFallback: 'any',
  clip: { head: 147, tail: 147 },
};

/**
 * The rules certification checks, read from a definition.
 * - `finalityKey`: the key whose `true` makes an answer final, or `null` (`finality: 'none'`);
 * - `retries`: the contract retries a non-final answer once (`retry` is set);
 * - `corrects`: the contract corrects in-session (`corrections` is set);
 * - `scores`: candidates are ranked by score with ties to the later one (`selection: 'score'`).
 */
export interface CertifiedRules {
  contract: string;
  finalityKey: string | null;
  retries: boolean;
  corrects: boolean;
  scores: boolean;
}

/** The {@link CertifiedRules} of `definition`. */
export function rulesOf(definition: ContractDefinition): CertifiedRules {
  return {
    contract: definition.name,
    finalityKey: definition.finality === 'none' ? null : definition.finality.key,
    retries: definition.retry !== undefined,
    corrects: definition.corrections !== undefined,
    scores: definition.selection === 'score',
  };
}

/** True when `value` looks like a {@link ContractDefinition} (name, anchor, finality, selection). */
export function isContractDefinition(value: unknown): value is ContractDefinition {
  return (
    isPlainObject(value) &&
    typeof value.name === 'string' &&
    typeof value.anchor === 'string' &&
    (value.finality === 'none' || (isPlainObject(value.finality) && typeof value.finality.key === 'string')) &&
    (value.selection === 'score' || value.selection === 'last-shaped')
  );
}
