/**
 * Contracts by name, each defined by `schemas/contracts/<name>.contract.json` (policy, anchor,
 * finality, diagnostics) and the production schema it names.
 */
import { readFile } from 'node:fs/promises';
import { projectPath } from '#src/paths.ts';
import { povContract, type PovPolicy } from './pov.ts';
import type { Contract } from './types.ts';
import type { ClipPolicy } from '#src/diagnostics/evidence.ts';

/** The contracts routecert ships. */
export const CONTRACT_NAMES = ['pov'] as const;

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
  policy?: Partial<PovPolicy>;
  diagnostics?: { clip?: ClipPolicy; limitChars?: number };
}

/** Read a contract's definition and its production schema. @throws UnknownContractError */
export async function readContractDefinition(name: string): Promise<{ definition: ContractDefinition; schema: Record<string, unknown> }> {
  if (!(CONTRACT_NAMES as readonly string[]).includes(name)) throw new UnknownContractError(name);
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
  const options: Parameters<typeof povContract>[1] = {
    policy: { ...definition.policy, ...overrides.policy },
    anchor: definition.anchor,
  };
  if (definition.finality !== undefined) options.finality = definition.finality;
  if (definition.diagnostics?.clip !== undefined) options.clip = definition.diagnostics.clip;
  return povContract(schema, options);
}
