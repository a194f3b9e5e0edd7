/**
 * Contracts by name, each defined by `schemas/contracts/<name>.contract.json` (policy, anchor,
 * finality, diagnostics) and the production schema it names.
 */
import { readFile } from 'node:fs/promises';
import { projectPath } from '#src/paths.ts';
import { povContract, type PovPolicy } from './pov.ts';
import type { Contract } from './types.ts';
import type { ClipPolicy } from '#src/diagnostics/evidence.ts';

/**
 * How to build each contract routecert ships from its definition file and production schema.
 * Add a contract by adding its factory here and its `<name>.contract.json` in schemas/contracts/.
 */
export const CONTRACT_FACTORIES: Readonly<Record<string, ContractFactory>> = {
  pov: (definition, schema, overrides) => {
    const options: Parameters<typeof povContract>[1] = { policy: { ...definition.policy, ...overrides.policy }, anchor: definition.anchor };
    if (definition.finality !== undefined) options.finality = definition.finality;
    if (definition.diagnostics?.clip !== undefined) options.clip = definition.diagnostics.clip;
    return povContract(schema, options);
  },
};

/** The contracts routecert ships, by name. */
export const CONTRACT_NAMES: readonly string[] = Object.keys(CONTRACT_FACTORIES);

/** Builds a contract from its definition, its production schema and per-run overrides. */
export type ContractFactory = (
  definition: ContractDefinition,
  schema: Record<string, unknown>,
  overrides: { policy?: Partial<PovPolicy> },
) => Contract;

/** Raised for a contract name routecert does not know; the message lists the known ones. */
export class UnknownContractError extends Error {
  readonly code = 'ROUTECERT_UNKNOWN_CONTRACT';
  constructor(name: string) {
    super(`[routecert] unknown contract "${name}". Known contracts: ${CONTRACT_NAMES.join(', ')}.`);
    this.name = 'UnknownContractError';
  }
}

/** The contract file's fields (schemas/contracts/<name>.contract.json). */
export interface ContractDefinition {
  name: string;
  description: string;
  schema: string;
  anchor: string;
  finality?: string;
  policy?: Partial<PovPolicy> & Record<string, unknown>;
  diagnostics?: { clip?: ClipPolicy; limitChars?: number };
  /** Contract-specific settings (e.g. the event contract's allowed kinds). */
  [extra: string]: unknown;
}

/** Read a contract's definition and its production schema. @throws UnknownContractError */
export async function readContractDefinition(name: string): Promise<{ definition: ContractDefinition; schema: Record<string, unknown> }> {
  if (!CONTRACT_NAMES.includes(name)) throw new UnknownContractError(name);
  const definition = JSON.parse(await readFile(projectPath('schemas/contracts', `${name}.contract.json`), 'utf8')) as ContractDefinition;
  const schema = JSON.parse(await readFile(projectPath('schemas/contracts', definition.schema), 'utf8')) as Record<string, unknown>;
  return { definition, schema };
}

/**
 * Load and compile a contract by name, with optional policy overrides (e.g. a short hard window in tests).
 *
 * @throws UnknownContractError for an unknown name.
 */
export async function loadContract(name: string, overrides: { policy?: Partial<PovPolicy> } = {}): Promise<Contract> {
  const { definition, schema } = await readContractDefinition(name);
  return CONTRACT_FACTORIES[name]!(definition, schema, overrides);
}
