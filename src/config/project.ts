/**
 * A team's routecert config, as every command reads it with `--config <file>`: their contracts
 * (`contracts: [defineContract({...})]`, or plain definitions in a JSON config of the same shape),
 * their cases folder, and optionally a certification (`worker`, `routes`: src/harness/certify/config.ts).
 *
 * @example
 * // routecert.config.ts
 * import { defineConfig, defineContract } from 'routecert';
 * export default defineConfig({
 *   cases: 'cases',
 *   contracts: [
 *     defineContract({ name: 'answer', schema: 'schemas/answer.schema.json', anchor: 'answer', finality: 'none', selection: 'score', clis: ['claude'] }),
 *   ],
 * });
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { projectPath } from '#src/paths.ts';
import { pushAll } from '#src/arrays.ts';
import { type ContractDefinition, type DefinedContract } from '#src/contract/define.ts';
import { isPlainObject } from '#src/envelope/keys.ts';
import { LINT_PROFILE_BY_CLI } from '#src/probe/startup.ts';
import { CertifyConfigError, configFieldProblems, configProblems, checkContractEntry, importConfig, reporterProblems, type CertifyConfig, type LoadedConfig } from '#src/harness/certify/config.ts';
import { isPresetName } from '#src/harness/certify/rules.ts';
import type { BuiltinReporterName } from '#src/report/names.ts';
import type { Reporter } from '#src/report/reporter.ts';

import { CONFIG_FILE_NAMES } from './fileNames.ts';

/** The last line of a config error: what to do next (`worker`: the worker part is at fault too, so its README section is named first). */
export const NEXT_STEP = (file: string, worker = false): string =>
  worker
    ? `Fix ${file} and run the command again (the worker fields \`worker\`, \`routes\`, \`contract\`: README "Certifying a worker"; contracts: README "Your own contracts").`
    : `Fix ${file} and run the command again (the fields: README "Your own contracts", schemas/contract.schema.json; \`npx routecert init\` writes a starter).`;

/**
 * A loaded config:
 * - `file`, `dir`: the config file and its folder (relative paths in it are relative to `dir`);
 * - `contracts`: the team's contracts, built against `dir`, in config order;
 * - `casesDir`: the `cases` folder, resolved; `null` when the config names none;
 * - `certify`: the certification part (worker, routes) when the config has one, else `null`.
 */
export interface ProjectConfig {
  file: string;
  dir: string;
  contracts: DefinedContract[];
  casesDir: string | null;
  certify: LoadedConfig | null;
  /** What `routecert run` reports with when no `--reporter` is given (built-in names and reporter objects). */
  reporters?: (BuiltinReporterName | Reporter)[];
}

/**
 * The folder of a config's own cases: its `cases` field, else `cases/` beside the config; `null` for
 * a config with neither a `cases` field nor contracts (one that only certifies a worker judges the
 * bundled corpus). The one rule `run`, `record --config`, `record --from` and `record --fix-ids` read.
 */
export function ownCasesFolder(project: ProjectConfig): string | null {
  if (project.casesDir !== null) return project.casesDir;
  return project.contracts.length > 0 ? path.join(project.dir, 'cases') : null;
}

/** The CLIs that take a schema flag, each with the lint profile that models it (src/probe/startup.ts). */
export const SCHEMA_FLAG_CLIS: readonly string[] = Object.keys(LINT_PROFILE_BY_CLI);

/** The CLIs a contract's schema is sent to: its `clis`, else every {@link SCHEMA_FLAG_CLIS}. */
export function clisOf(contract: DefinedContract): string[] {
  return contract.definition.clis ?? [...SCHEMA_FLAG_CLIS];
}

/** The lint profiles of the CLIs a contract's schema is sent to (CLIs whose schema goes in the prompt have none). */
export function profilesOf(contract: DefinedContract): string[] {
  return [...new Set(clisOf(contract).map((cli) => LINT_PROFILE_BY_CLI[cli]).filter((p): p is string => p !== undefined))];
}

/**
 * The config a command uses: `file` when given (a folder means the first {@link CONFIG_FILE_NAMES}
 * in it), else the first {@link CONFIG_FILE_NAMES} in the working folder, except routecert's own
 * checkout (whose routecert.config.ts certifies the reference worker); `null` when there is none.
 *
 * @throws {CertifyConfigError} as {@link loadProjectConfig}, and for a folder without a config file.
 */
export async function configFor(file: string | undefined, cwd: string = process.cwd()): Promise<ProjectConfig | null> {
  if (file !== undefined) {
    const absolute = path.resolve(cwd, file);
    if (existsSync(absolute) && statSync(absolute).isDirectory()) {
      const found = CONFIG_FILE_NAMES.map((n) => path.join(absolute, n)).find((f) => existsSync(f));
      if (!found) throw new CertifyConfigError(`no config file in ${file} (looked for ${CONFIG_FILE_NAMES.join(', ')}; \`npx routecert init\` writes one)`);
      return loadProjectConfig(found);
    }
    return loadProjectConfig(absolute);
  }
  if (path.resolve(cwd) === projectPath()) return null;
  const found = CONFIG_FILE_NAMES.map((n) => path.join(cwd, n)).find((f) => existsSync(f));
  return found ? loadProjectConfig(found) : null;
}

/**
 * Load and check a config file (.ts, .mts, .mjs, .js or .json; the loader is
 * src/harness/certify/config.ts `importConfig`).
 *
 * @throws {CertifyConfigError} (exit 2) naming the file and, for a contract, its index and name and the
 *   field: a missing file, one that does not load, an unknown field (top level, `worker`), an
 *   unusable contract or schema, a duplicate name, an unknown CLI name, a config with neither
 *   `contracts` nor `worker`.
 */
export async function loadProjectConfig(file: string): Promise<ProjectConfig> {
  const { value, file: absolute, dir } = await importConfig(file);
  const shown = path.relative(process.cwd(), absolute) || absolute;
  let workerProblems = false;
  const fail = (problems: string[]): never => {
    // The same contract problem reached twice (a contract that is also the certification contract) is said once.
    const unique = problems.filter((p, i) => !problems.slice(0, i).some((q) => q.endsWith(p.replace(/^`contract` \(the contract the worker is certified against\): /, ''))));
    throw new CertifyConfigError(`config file ${shown} is not usable:\n  - ${unique.join('\n  - ')}\n${NEXT_STEP(shown, workerProblems)}`);
  };
  if (!isPlainObject(value)) return fail(['the config must be an object (default-export defineConfig({...}), or a JSON object)']);
  // An unknown field first: a misspelt `cases` or `reporters` would otherwise be ignored, and a misspelt `contracts` reported as missing.
  const problems: string[] = configFieldProblems(value);
  const contracts: DefinedContract[] = [];
  if (value.contracts !== undefined && !Array.isArray(value.contracts)) problems.push('`contracts` must be an array of defineContract({...}) (or of contract definitions in JSON)');
  for (const [i, entry] of (Array.isArray(value.contracts) ? value.contracts : []).entries()) {
    const def = (isPlainObject(entry) && isPlainObject(entry.source) ? entry.source : entry) as ContractDefinition;
    const label = `contracts/${i}${isPlainObject(def) && typeof def.name === 'string' ? ` ("${def.name}")` : ''}`;
    // Every problem of the contract in one round (they came one per round: fields, then the anchor, then clis).
    const { contract, problems: entryProblems } = checkContractEntry(def, dir);
    for (const problem of entryProblems) problems.push(`${label}: ${problem}`);
    if (contract === null || entryProblems.length > 0) continue;
    if (contracts.some((c) => c.name === contract.name)) problems.push(`${label}: a contract named "${contract.name}" is defined twice`);
    contracts.push(contract);
  }
  if (value.cases !== undefined && (typeof value.cases !== 'string' || value.cases === '')) problems.push('`cases` must be a folder path (relative to the config file)');
  let certify: LoadedConfig | null = null;
  if (value.worker !== undefined || value.routes !== undefined) {
    // `contract: "<name>"` may name one of this config's own contracts (a JSON config cannot hold a
    // reference to it): the worker is certified against that contract, built against this folder.
    const own = typeof value.contract === 'string' && !isPresetName(value.contract) ? contracts.find((c) => c.name === value.contract) : undefined;
    const certifying = own ? { ...value, contract: own } : value;
    const certifyProblems = configProblems(certifying);
    pushAll(problems, certifyProblems);
    workerProblems = certifyProblems.length > 0;
    if (certifyProblems.length === 0) certify = { config: certifying as unknown as CertifyConfig, file: absolute, dir };
  } else if (value.contracts === undefined && value.reporters === undefined) {
    problems.push('the config defines neither `contracts` (your contracts) nor `worker` (a worker to certify)');
  }
  pushAll(problems, reporterProblems(value));
  if (problems.length > 0) fail(problems);
  return {
    file: absolute,
    dir,
    contracts,
    casesDir: typeof value.cases === 'string' ? path.resolve(dir, value.cases) : null,
    certify,
    ...(Array.isArray(value.reporters) ? { reporters: value.reporters as (BuiltinReporterName | Reporter)[] } : {}),
  };
}
