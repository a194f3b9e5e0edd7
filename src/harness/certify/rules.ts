/**
 * What certification reads of a contract: its definition, in the shape of `defineContract()`
 * (issue 10 part 1, built in src/contract/define.ts by the contracts work). Certification derives
 * its checks from these rules: retry checks only for a contract with `retry`, correction checks
 * only for one with `corrections`, finality checks only where `finality` is a key, the tie check only
 * for `selection: 'score'`.
 *
 * The definition type is the one `defineContract` takes (src/contract/define.ts); the pov preset's
 * definition is read from schemas/contracts/pov.contract.json.
 */
import { definitionOf, type ContractDefinition, type DefinedContract } from '#src/contract/define.ts';
import { PRESET_NAMES, presetDefinition } from '#src/contract/presets.ts';
import { isPlainObject } from '#src/envelope/keys.ts';

export type { ContractDefinition };

/**
 * The bundled pov contract as a definition (DESIGN.md "The shipped contracts" item 1), its `schema`
 * relative to the project folder.
 */
export const POV_DEFINITION: ContractDefinition = { ...presetDefinition('pov'), schema: 'schemas/contracts/pov.schema.json' };

/** True when `name` is a shipped contract (a preset, `'pov'`, `'findings-code'`, ...). */
export function isPresetName(name: unknown): name is (typeof PRESET_NAMES)[number] {
  return typeof name === 'string' && (PRESET_NAMES as readonly string[]).includes(name);
}

/**
 * The definition of shipped contract `name` as certification reads it: its `schema` a path relative
 * to the project folder (schemas/contracts/...), or the schema itself. `'pov'` is {@link POV_DEFINITION}.
 *
 * @throws Error when `name` is not a preset.
 */
export function presetForCertify(name: string): ContractDefinition {
  if (name === 'pov') return POV_DEFINITION;
  const d = presetDefinition(name);
  return { ...d, schema: typeof d.schema === 'string' ? `schemas/contracts/${d.schema}` : d.schema };
}

/**
 * The rules certification checks, read from a definition.
 * - `finalityKey`: the key whose `true` makes an answer final, or `null` (`finality: 'none'`);
 * - `retries`: the contract retries a non-final answer once (`retry` is set);
 * - `corrects`: the contract corrects in-session (`corrections` is set);
 * - `scores`: candidates are ranked by score with ties to the later one (`selection: 'score'`);
 * - `publishDefaults`: the top-level members the contract fills in when missing (`extensions.publishDefaults`);
 * - `logBound`: the most consecutive characters of one CLI message a log may repeat: the contract's
 *   `clip` (a message of up to `head + tail + 6` characters stays whole, src/diagnostics/evidence.ts;
 *   147 + 147 by default, so 300), the bound the stderr-long check holds a worker's log to.
 */
export interface CertifiedRules {
  contract: string;
  finalityKey: string | null;
  retries: boolean;
  corrects: boolean;
  scores: boolean;
  publishDefaults: string[];
  logBound: number;
}

/** The {@link CertifiedRules} of `definition`. */
export function rulesOf(definition: ContractDefinition): CertifiedRules {
  return {
    contract: definition.name,
    finalityKey: definition.finality === 'none' ? null : definition.finality.key,
    retries: definition.retry !== undefined,
    corrects: definition.corrections !== undefined,
    scores: definition.selection === 'score',
    publishDefaults: Object.keys(definition.extensions?.publishDefaults ?? {}),
    logBound: logBoundOf(definition.clip ?? { head: 147, tail: 147 }),
  };
}

/** The bound of {@link CertifiedRules.logBound} for a clip policy. */
function logBoundOf(clip: { head: number; tail: number }): number {
  return clip.head === 0 ? clip.tail : clip.head + clip.tail + 6;
}

/**
 * The definition of a config's `contract`: a plain definition as is, a `defineContract()` result
 * (a contract object carrying its normalized `definition`) by its definition.
 */
export function definitionFrom(value: ContractDefinition | DefinedContract): ContractDefinition {
  return 'definition' in value && isPlainObject(value.definition) ? definitionOf((value as DefinedContract).definition) : (value as ContractDefinition);
}

/** True when `value` looks like a {@link ContractDefinition} (name, anchor, finality, selection), or a `defineContract()` result. */
export function isContractDefinition(value: unknown): value is ContractDefinition {
  if (isPlainObject(value) && isPlainObject(value.definition) && typeof value.judge === 'function') return isContractDefinition(value.definition);
  return isDefinitionShape(value);
}

function isDefinitionShape(value: unknown): value is ContractDefinition {
  return (
    isPlainObject(value) &&
    typeof value.name === 'string' &&
    typeof value.anchor === 'string' &&
    (value.finality === 'none' || (isPlainObject(value.finality) && typeof value.finality.key === 'string')) &&
    (value.selection === 'score' || value.selection === 'last-shaped')
  );
}
