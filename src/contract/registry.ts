/**
 * Contracts by name, each defined by `schemas/contracts/<name>.contract.json` (policy, anchor,
 * finality, diagnostics) and the production schema it names.
 */
import { readFile } from 'node:fs/promises';
import { projectPath } from '#src/paths.ts';
import { povContract, type PovPolicy } from './pov.ts';
import { findingsContract } from './findings.ts';
import { commitsResolve, roleOutputContract } from './roleOutput.ts';
import { eventContract } from './event.ts';
import { reviewFooterContract, type ReviewKind } from './reviewFooter.ts';
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
  'findings-code': (definition, schema) => findingsContract(schema, { name: 'findings-code', ...findingsOptions(definition) }),
  'findings-doc': (definition, schema) => findingsContract(schema, { name: 'findings-doc', ...findingsOptions(definition) }),
  'role-output': (definition, schema, overrides) => {
    const policy = numbers({ ...definition.policy, ...overrides.policy }, ['maxCorrections', 'hardWindowS']);
    const commits = (definition.checks as { commits?: unknown } | undefined)?.commits;
    return roleOutputContract(schema, {
      policy,
      checks: Array.isArray(commits) ? [commitsResolve(commits.filter((c): c is string => typeof c === 'string'))] : [],
      ...clipOf(definition),
    });
  },
  event: (definition, schema, overrides) => {
    const kinds = Array.isArray(definition.allowedKinds) ? definition.allowedKinds.filter((k): k is string => typeof k === 'string') : [];
    const { maxRetries } = numbers({ ...definition.policy, ...overrides.policy }, ['maxRetries']);
    return eventContract(schema, {
      allowedKinds: kinds,
      ...(typeof definition.fallbackKind === 'string' ? { fallbackKind: definition.fallbackKind } : {}),
      ...(maxRetries !== undefined ? { maxRetries } : {}),
      ...clipOf(definition),
    });
  },
  'review-footer': (definition, _schema, overrides) => footerFromDefinition('review-footer', definition, overrides),
  'critique-footer': (definition, _schema, overrides) => footerFromDefinition('critique-footer', definition, overrides),
};

function clipOf(definition: ContractDefinition): { clip?: ClipPolicy } {
  return definition.diagnostics?.clip !== undefined ? { clip: definition.diagnostics.clip } : {};
}

/** The numeric members `keys` of a policy object (others are left out). */
function numbers<K extends string>(policy: Record<string, unknown>, keys: readonly K[]): Partial<Record<K, number>> {
  const out: Partial<Record<K, number>> = {};
  for (const k of keys) if (typeof policy[k] === 'number') out[k] = policy[k];
  return out;
}

function findingsOptions(definition: ContractDefinition): { defaults?: Record<string, unknown>; clip?: ClipPolicy } {
  const defaults = definition.defaults;
  return { ...(typeof defaults === 'object' && defaults !== null ? { defaults: defaults as Record<string, unknown> } : {}), ...clipOf(definition) };
}

function footerFromDefinition(name: string, definition: ContractDefinition, overrides: { policy?: Partial<PovPolicy> }): Contract {
  const kind: ReviewKind = definition.kind === 'critique' ? 'critique' : 'verdict';
  const policy = numbers({ ...definition.policy, ...overrides.policy }, ['maxAttempts', 'hardWindowS']);
  return reviewFooterContract(kind, { name, policy, ...clipOf(definition) });
}

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
  /** The production schema's file name in schemas/contracts/, or `null` for a contract on text (review-footer). */
  schema: string | null;
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
  const schema =
    definition.schema === null ? {} : (JSON.parse(await readFile(projectPath('schemas/contracts', definition.schema), 'utf8')) as Record<string, unknown>);
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
