/**
 * The contracts routecert ships, as definitions (schemas/contracts/<name>.contract.json, the same
 * shape as a team's `contracts: [...]` in routecert.config.ts or .json), each built by
 * {@link defineContract}. No preset is special in the code: what makes pov retry, findings prefer a
 * populated review or role-output correct is in its file.
 */
import { readFileSync } from 'node:fs';
import { projectPath } from '#src/paths.ts';
import { defineContract, type ContractDefinition, type DefinedContract } from './define.ts';

/** The presets, by name, in the order reports list them. */
export const PRESET_NAMES = ['pov', 'findings-code', 'findings-doc', 'role-output', 'event', 'review-footer', 'critique-footer'] as const;

/** The folder of the preset files; a preset's `schema` path is relative to it. */
export const PRESET_DIR = projectPath('schemas/contracts');

/**
 * The definition of preset `name`, as its file holds it (`schema` relative to {@link PRESET_DIR}).
 *
 * @throws Error when `name` is not a preset.
 */
export function presetDefinition(name: string): ContractDefinition {
  if (!(PRESET_NAMES as readonly string[]).includes(name)) throw new Error(`[routecert] unknown preset "${name}". Presets: ${PRESET_NAMES.join(', ')}.`);
  const { $schema: _schema, ...definition } = JSON.parse(readFileSync(projectPath('schemas/contracts', `${name}.contract.json`), 'utf8')) as ContractDefinition & { $schema?: string };
  return definition;
}

/**
 * Build preset `name`, optionally changed by `change` (fields replaced whole, except `retry` and
 * `corrections`, whose members are merged: `{ retry: { hardWindowMs: 5_000 } }`).
 */
export function presetContract(
  name: string,
  change: Partial<Omit<ContractDefinition, 'retry' | 'corrections'>> & { retry?: Partial<NonNullable<ContractDefinition['retry']>>; corrections?: Partial<NonNullable<ContractDefinition['corrections']>> } = {},
): DefinedContract {
  const base = presetDefinition(name);
  const { retry, corrections, ...rest } = change;
  const def: ContractDefinition = { ...base, ...rest };
  if (retry && base.retry) def.retry = { ...base.retry, ...retry };
  if (corrections && base.corrections) def.corrections = { ...base.corrections, ...corrections };
  return defineContract(def, PRESET_DIR);
}
