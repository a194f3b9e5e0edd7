/**
 * `routecert fuzz`: check the properties (src/properties) with generated envelopes, replay one failure
 * from its seed and path, and keep a shrunk counterexample as a regression case (`--save`).
 *
 * Exit codes: 0 every property holds; 1 a property fails; 2 usage error; 3 the run could not be
 * carried out (the contract or the corpus could not be loaded).
 */
import path from 'node:path';
import { projectPath } from '#src/paths.ts';
import { PROPERTIES, propertyByName, UnknownPropertyError } from '#src/properties/registry.ts';
import { propertyEnv } from '#src/properties/env.ts';
import { REGRESSIONS_DIR, saveRegression } from '#src/properties/regression.ts';
import { checkProperty, numRunsFor, seedFromEnv, type PropertyRun } from '#src/properties/run.ts';
import type { AnyProperty, PropertyEnv } from '#src/properties/types.ts';
import type { RouteDecoder } from '#src/envelope/types.ts';
import { loadCorpus, type LoadedCase } from '#src/record/corpus.ts';
import { configFor, type ProjectConfig } from '#src/config/project.ts';
import { fuzzContract } from '#src/config/fuzzContracts.ts';

/** Options of `routecert fuzz` as commander parses them (numbers still as text). */
export interface FuzzCommandOptions {
  property?: string[];
  seed?: string;
  path?: string;
  runs?: string;
  save?: boolean;
  force?: boolean;
  out?: string;
  cases?: string;
  examples?: boolean;
  list?: boolean;
  /** A config file: fuzz each of its contracts on payloads from its own schema (src/config/fuzzContracts.ts). */
  config?: string;
  /** With `config`: only these contracts. */
  contract?: string[];
}

/**
 * What the command runs against, for tests: `decoders` (default routecert's), `write` for stdout and
 * `writeErr` for stderr (default the process streams).
 */
export interface FuzzDependencies {
  decoders?: RouteDecoder[];
  write?: (text: string) => void;
  writeErr?: (text: string) => void;
}

/** The result of one property in a fuzz run, and where its regression case went (when saved). */
export interface FuzzOutcome {
  run: PropertyRun;
  saved?: string;
  refused?: string;
}

function parseInteger(name: string, value: string | undefined, min: number): number | undefined | Error {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) return new Error(`[routecert] --${name} takes an integer >= ${min}, got "${value}"`);
  return n;
}

/**
 * Run `routecert fuzz`. Returns the exit code; `outcomes` (when given) receives each property's result.
 *
 * @example
 * await fuzzCommand({ property: ['key-spelling'], seed: '42', path: '3:0', save: true, out: tmp }, { decoders: withDecoders([faulty]) });
 */
export async function fuzzCommand(opts: FuzzCommandOptions, deps: FuzzDependencies = {}, outcomes: FuzzOutcome[] = []): Promise<number> {
  const write = deps.write ?? ((s: string) => process.stdout.write(s));
  const writeErr = deps.writeErr ?? ((s: string) => process.stderr.write(s));
  if (opts.list) {
    for (const p of PROPERTIES) write(`${p.name.padEnd(22)} ${p.summary} (${p.numRuns} runs by default)\n`);
    return 0;
  }
  let selected: AnyProperty[];
  try {
    selected = opts.property?.length ? opts.property.map(propertyByName) : [...PROPERTIES];
  } catch (error) {
    if (error instanceof UnknownPropertyError) {
      writeErr(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const seed = parseInteger('seed', opts.seed, -(2 ** 31));
  const runs = parseInteger('runs', opts.runs, 1);
  for (const value of [seed, runs]) {
    if (value instanceof Error) {
      writeErr(`${value.message}\n`);
      return 2;
    }
  }
  if (opts.path !== undefined && !/^\d+(:\d+)*$/.test(opts.path)) {
    writeErr(`[routecert] --path takes a fast-check path such as 12:0:3, got "${opts.path}"\n`);
    return 2;
  }
  if (opts.path !== undefined && seed === undefined) {
    writeErr('[routecert] --path replays a failure of one seed: give --seed too (both are printed with the failure)\n');
    return 2;
  }

  const clash = modeProblem(opts);
  if (clash !== undefined) {
    writeErr(`[routecert] ${clash}\n`);
    return 2;
  }
  if (opts.config !== undefined) return fuzzConfig(opts, write, writeErr);

  let env: PropertyEnv;
  let cases: LoadedCase[] | undefined;
  try {
    env = await propertyEnv(deps.decoders ? { decoders: deps.decoders } : {});
    if (opts.path === undefined && opts.examples !== false) {
      const dir = opts.cases === undefined ? projectPath('fixtures/cases') : path.resolve(opts.cases);
      cases = (await loadCorpus(dir)).cases;
    }
  } catch (error) {
    writeErr(`[routecert] cannot run the properties: ${(error as Error).message}\n`);
    return 3;
  }

  let runSeed: number;
  try {
    runSeed = (seed as number | undefined) ?? seedFromEnv();
    for (const p of selected) numRunsFor(p);
  } catch (error) {
    writeErr(`${(error as Error).message}\n`);
    return 2;
  }
  write(`routecert fuzz: seed ${runSeed}${opts.path ? `, path ${opts.path}` : ''}; ${cases === undefined ? 'no' : cases.length} corpus cases as examples\n`);
  let code = 0;
  for (const property of selected) {
    const run = checkProperty(property, {
      env,
      seed: runSeed,
      ...(cases !== undefined ? { cases } : {}),
      ...(opts.path !== undefined ? { path: opts.path } : {}),
      ...(runs !== undefined ? { numRuns: runs as number } : {}),
    });
    const outcome: FuzzOutcome = { run };
    outcomes.push(outcome);
    if (!run.failed) {
      write(`ok   ${property.name}: ${run.runs} runs (${run.examples} examples first)\n`);
      continue;
    }
    code = 1;
    write(`FAIL ${property.name}\n${run.report}\n`);
    if (opts.save) {
      const saved = await saveRegression(property, run, env, { dir: opts.out === undefined ? projectPath(REGRESSIONS_DIR) : path.resolve(opts.out), force: opts.force ?? false });
      if ('file' in saved) {
        outcome.saved = saved.file;
        write(`saved the shrunk counterexample as case ${saved.case.id}: ${path.relative(process.cwd(), saved.file) || saved.file} (expects ${saved.case.expect.verdict})\n`);
      } else {
        outcome.refused = saved.refused;
        writeErr(`${saved.refused}\n`);
      }
    }
  }
  return code;
}

/**
 * An option the chosen mode would not read, said instead of ignored: with `--config` the contracts
 * are fuzzed, so routecert's own properties' options (`--property`, `--save`, `--out`, `--force`,
 * `--cases`, `--no-examples`) do nothing; without it, `--contract` does nothing.
 */
function modeProblem(opts: FuzzCommandOptions): string | undefined {
  if (opts.config === undefined) {
    return opts.contract?.length ? '--contract picks a contract of your config: give --config too (`routecert fuzz --config --contract <name>`)' : undefined;
  }
  const unread = [
    opts.property?.length ? '--property' : '',
    opts.save ? '--save' : '',
    opts.out !== undefined ? '--out' : '',
    opts.force ? '--force' : '',
    opts.cases !== undefined ? '--cases' : '',
    opts.examples === false ? '--no-examples' : '',
  ].filter((o) => o !== '');
  if (unread.length === 0) return undefined;
  return `${unread.join(', ')} ${unread.length === 1 ? 'is an option' : 'are options'} of routecert's own properties, which --config does not run (it fuzzes your contracts; pick them with --contract): leave ${unread.length === 1 ? 'it' : 'them'} out, or run \`routecert fuzz\` without --config`;
}

/** `fuzz --config`: one property per contract of the config; exit 1 when one fails, 2 for a bad config or name. */
async function fuzzConfig(opts: FuzzCommandOptions, write: (s: string) => void, writeErr: (s: string) => void): Promise<number> {
  let project: ProjectConfig | null;
  try {
    project = await configFor(opts.config);
  } catch (error) {
    writeErr(`${(error as Error).message}\n`);
    return 2;
  }
  const contracts = project?.contracts ?? [];
  const unknown = (opts.contract ?? []).filter((n) => !contracts.some((c) => c.name === n));
  if (unknown.length > 0) {
    writeErr(`[routecert] unknown contract ${unknown.map((n) => `"${n}"`).join(', ')} in --contract. Contracts of the config: ${contracts.map((c) => c.name).join(', ') || '(none)'}\n`);
    return 2;
  }
  const chosen = opts.contract?.length ? contracts.filter((c) => opts.contract!.includes(c.name)) : contracts;
  if (chosen.length === 0) {
    writeErr('[routecert] the config defines no contracts to fuzz\n');
    return 2;
  }
  const seed = opts.seed === undefined ? seedFromEnv() : Number(opts.seed);
  const numRuns = opts.runs === undefined ? undefined : Number(opts.runs);
  if (!Number.isInteger(seed) || (numRuns !== undefined && !(Number.isInteger(numRuns) && numRuns >= 1))) {
    writeErr('[routecert] --seed and --runs take integers (--runs >= 1)\n');
    return 2;
  }
  write(`routecert fuzz --config: seed ${seed}; ${chosen.length} contract(s), payloads from each contract's schema\n`);
  let code = 0;
  let skipped = 0;
  for (const contract of chosen) {
    const r = fuzzContract(contract, { seed, ...(numRuns !== undefined ? { numRuns } : {}), ...(opts.path !== undefined ? { path: opts.path } : {}) });
    if (r.skipped !== null) {
      skipped += 1;
      write(`skip contract:${r.contract}: ${r.skipped}\n`);
    }
    else if (r.failure === null) write(`ok   contract:${r.contract}: ${r.runs} runs\n`);
    else {
      code = 1;
      write(`FAIL contract:${r.contract}: ${r.failure.message}\n  counterexample: ${r.failure.counterexample}\n  replay: npx routecert fuzz --config ${opts.config} --contract ${r.contract} --seed ${r.failure.seed} --path ${r.failure.path}\n`);
    }
  }
  // Every chosen contract skipped: nothing was checked, which is no pass.
  if (skipped === chosen.length) {
    writeErr(`[routecert] fuzz --config: no contract of the selection could be fuzzed (each is skipped above): nothing was checked\n`);
    return 2;
  }
  return code;
}
