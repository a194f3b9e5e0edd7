/**
 * Option parsing and checks shared by the commands, so that the CLI never reports success on
 * nothing: numbers are numbers, a filter that selects nothing names what exists (with a "did you
 * mean"), a folder that is not there is said to be missing before anything runs, and the printed
 * replay command keeps the options that decide what a case means (`--cases`, `--config`, `--generic`).
 * Every check here returns or throws a message; the command prints it and exits 2.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { constants } from 'node:os';
import { InvalidArgumentError } from 'commander';
import { parseShard, ShardSpecError, type Shard } from '#src/harness/shard.ts';
import { addBinOption, BinOptionError } from '#src/probe/discover.ts';
import type { CaseFilter } from '#src/harness/runCorpus.ts';
import { routeSelected } from '#src/harness/select.ts';
import type { CaseLoadError, LoadedCase } from '#src/record/corpus.ts';
import { didYouMean } from '#src/diagnostics/didYouMean.ts';
import { FILE_REPORTERS, isBuiltinReporter, REPORTER_NAMES, type BuiltinReporterName } from '#src/report/names.ts';

/** A usage or configuration error: the command prints the message and exits 2. `code` is stable. */
export class UsageError extends Error {
  readonly code = 'ROUTECERT_USAGE';
  constructor(message: string) {
    super(message.startsWith('[routecert]') ? message : `[routecert] ${message}`);
    this.name = 'UsageError';
  }
}

/**
 * A commander argument parser for an integer option of at least `min` (`--probe-timeout 60000`).
 * Commander turns the thrown InvalidArgumentError into `error: option '...' argument 'abc' is invalid.` and exit 2.
 */
export function integerOption(min: number, unit = ''): (value: string) => number {
  return (value: string) => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isSafeInteger(n) || n < min) throw new InvalidArgumentError(`Expected an integer >= ${min}${unit ? ` (${unit})` : ''}.`);
    return n;
  };
}

/**
 * A commander argument parser for a signal name (`--signal SIGTERM`, `--signal term`): the name as
 * Node's `os.constants.signals` has it, upper case with the `SIG` prefix; another name is
 * commander's `argument ... is invalid`, exit 2.
 */
export function signalOption(value: string): string {
  const name = value.trim().toUpperCase();
  const full = name.startsWith('SIG') ? name : `SIG${name}`;
  if (!(full in constants.signals)) throw new InvalidArgumentError(`Expected a signal name such as SIGTERM or SIGKILL.`);
  return full;
}

/**
 * A commander argument parser for a repeatable `--bin <cli>=<path>` (also `a=x,b=y`): the binaries
 * by CLI name, checked here once for every command that takes it (src/probe/discover.ts
 * `addBinOption`); a malformed value is commander's `argument ... is invalid`, exit 2.
 */
export function binOption(value: string, previous: Readonly<Record<string, string>> = {}): Record<string, string> {
  try {
    return value.split(',').map((v) => v.trim()).filter(Boolean).reduce<Record<string, string>>(addBinOption, { ...previous });
  } catch (error) {
    if (error instanceof BinOptionError) throw new InvalidArgumentError(error.message.replace(/^\[routecert\] /, ''));
    throw error;
  }
}

/** A commander argument parser for `--shard i/n`. */
export function shardOption(value: string): Shard {
  try {
    return parseShard(value);
  } catch (error) {
    if (error instanceof ShardSpecError) throw new InvalidArgumentError(`Expected <index>/<count> with 1 <= index <= count, e.g. 1/3.`);
    throw error;
  }
}

/** A commander argument parser for a repeatable `--reporter <name>` (comma-separated lists allowed). */
export function reporterOption(value: string, previous: BuiltinReporterName[] = []): BuiltinReporterName[] {
  const names = value.split(',').map((v) => v.trim()).filter(Boolean);
  for (const n of names) {
    if (!isBuiltinReporter(n)) throw new InvalidArgumentError(`Unknown reporter "${n}"${suggestion(n, REPORTER_NAMES)} Reporters: ${REPORTER_NAMES.join(', ')}.`);
  }
  return [...previous, ...(names as BuiltinReporterName[])];
}

/** A commander argument parser for a repeatable `--output-file [<reporter>=]<path>`. */
export function outputFileOption(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/**
 * Which file each reporter writes: `junit=ci/junit.xml` names the reporter; a bare path is the file
 * of the only file-writing reporter chosen.
 *
 * @throws {UsageError} for an unknown reporter name, a reporter not chosen, or a bare path that fits no single reporter.
 */
export function outputFiles(values: readonly string[], chosen: readonly BuiltinReporterName[]): Partial<Record<BuiltinReporterName, string>> {
  const files: Partial<Record<BuiltinReporterName, string>> = {};
  const writers = chosen.filter((n) => FILE_REPORTERS.includes(n));
  for (const value of values) {
    const eq = value.indexOf('=');
    const name = eq > 0 ? value.slice(0, eq) : undefined;
    const file = eq > 0 ? value.slice(eq + 1) : value;
    if (file === '') throw new UsageError(`--output-file "${value}" names no file`);
    if (name === undefined) {
      if (writers.length === 0) {
        const onConsole = chosen.filter((n) => !FILE_REPORTERS.includes(n));
        throw new UsageError(`--output-file "${value}": no reporter chosen writes a file (${onConsole.join(', ')} ${onConsole.length === 1 ? 'writes' : 'write'} to the console): choose one and name it, e.g. --reporter junit --output-file junit=${value} (file reporters: ${FILE_REPORTERS.join(', ')})`);
      }
      if (writers.length > 1) throw new UsageError(`--output-file "${value}" must say which reporter writes it (e.g. ${writers[0]}=${value}): the file-writing reporters chosen are ${writers.join(', ')}`);
      files[writers[0]!] = file;
      continue;
    }
    if (!isBuiltinReporter(name)) throw new UsageError(`--output-file ${value}: unknown reporter "${name}"${suggestion(name, REPORTER_NAMES)} Reporters: ${REPORTER_NAMES.join(', ')}.`);
    if (!FILE_REPORTERS.includes(name)) throw new UsageError(`--output-file ${value}: the ${name} reporter writes to the console, not to a file`);
    if (!chosen.includes(name)) throw new UsageError(`--output-file ${value}: the ${name} reporter is not chosen (add --reporter ${name})`);
    files[name] = file;
  }
  return files;
}

/** `; did you mean "x"?` or `.` (a sentence end either way); a route family hides its own routes. */
function suggestion(input: string, known: readonly string[]): string {
  const close = didYouMean(input, known);
  const shown = close.filter((c) => !close.some((o) => o !== c && c.startsWith(`${o}/`)));
  return shown.length > 0 ? `; did you mean ${shown.map((c) => `"${c}"`).join(' or ')}?` : '.';
}

/**
 * Check the cases folder before anything runs: it must be a folder. `shown` is the `--cases`
 * argument; `fromConfig`, when the folder came from a config file instead, names that file and its
 * field (e.g. "the `cases` field of routecert.config.ts"), so the error names what the user wrote.
 *
 * @throws {UsageError} naming the folder (and the config field) when it is missing or is a file.
 */
export async function checkCasesFolder(dir: string, shown: string, fromConfig?: { file: string; field: string }): Promise<void> {
  const what = fromConfig ? `${fromConfig.field} of ${fromConfig.file} ("${shown}")` : `--cases ${shown}`;
  let info;
  try {
    info = await stat(dir);
  } catch {
    throw new UsageError(
      fromConfig
        ? `${what}: no such folder (${dir}). Create it (\`npx routecert record --config ${fromConfig.file}\` records cases into it), or ${fromConfig.field === 'the `cases` field' ? 'point that field at your cases folder' : 'set the config\'s `cases` field to your cases folder'}.`
        : `${what}: no such folder (${dir}). Give a folder of case files, or leave --cases out for the bundled corpus.`,
    );
  }
  if (!info.isDirectory()) throw new UsageError(`${what}: not a folder (${dir})`);
}

/** What a run could select besides the corpus: the routes, contracts, tags and id prefixes of its live sources. */
export interface Selectable {
  routes: readonly string[];
  contracts: readonly string[];
  tags: readonly string[];
  ids: readonly string[];
}

/**
 * Check every filter value of `routecert run` against what exists (the corpus, and the live
 * sources when they run). Returns the problems, one sentence each; `[]` when every value selects
 * something and the selection as a whole is not empty. `loadErrors`: the case files that did not
 * load; when no case loaded, they are named instead of "holds no case file". `generic`: the routes
 * of `--generic <route>=<spec>`: each must be the route of a selected case (the shard aside), else
 * the spec would go unused while the run passes.
 */
export function selectionProblems(cases: readonly LoadedCase[], filter: CaseFilter, live: Selectable | null, shown: { cases: string }, loadErrors?: readonly CaseLoadError[], generic: readonly string[] = []): string[] {
  const routes = [...new Set([...cases.map((c) => c.case.route), ...(live?.routes ?? [])])].sort();
  const families = [...new Set(routes.map((r) => r.split('/')[0]!))];
  const contracts = [...new Set([...cases.map((c) => c.case.contract), ...(live?.contracts ?? [])])].sort();
  const tags = [...new Set([...cases.flatMap((c) => c.case.tags), ...(live?.tags ?? [])])].sort();
  const problems: string[] = [];
  for (const r of filter.routes ?? []) {
    if (!routes.some((route) => routeSelected(r, route))) problems.push(`--route ${r} selects nothing${suggestion(r, [...families, ...routes])} Routes: ${routes.join(', ') || '(none)'}.`);
  }
  for (const c of filter.contracts ?? []) {
    if (!contracts.includes(c)) problems.push(`--contract ${c} selects nothing${suggestion(c, contracts)} Contracts: ${contracts.join(', ') || '(none)'}.`);
  }
  for (const t of filter.tags ?? []) {
    if (!tags.includes(t)) problems.push(`--tag ${t} selects nothing${suggestion(t, tags)} Tags: ${tags.join(', ') || '(none)'}.`);
  }
  for (const id of filter.ids ?? []) {
    if (!cases.some((c) => c.case.id.startsWith(id)) && !(live?.ids ?? []).some((x) => x.startsWith(id) || id.startsWith(x))) {
      problems.push(`--case ${id} is no case id (nor a prefix of one) in ${shown.cases}${live ? ' nor a probe or certification id' : ''}${suggestion(id, live?.ids ?? [])}`);
    }
  }
  if (problems.length > 0) return problems;
  const { shard: _shard, ...unsharded } = filter;
  const anyCase = cases.some((c) => matchesUnsharded(c, unsharded));
  if (generic.length > 0) {
    const selected = [...new Set(cases.filter((c) => matchesUnsharded(c, unsharded)).map((c) => c.case.route))].sort();
    for (const g of new Set(generic)) {
      if (!selected.includes(g)) problems.push(`--generic ${g}=... decodes nothing: no selected case of ${shown.cases} has route ${g}${suggestion(g, selected)} Routes of the selected cases: ${selected.join(', ') || '(none)'}.`);
    }
  }
  if (!anyCase && live === null) {
    if (cases.length === 0 && (loadErrors?.length ?? 0) > 0) {
      const named = loadErrors!.slice(0, 5).map((e) => `${e.file}${e.where ? ` (${e.where})` : ''}: ${e.message}`);
      problems.push(`no case of ${shown.cases} could be loaded, and probes are off: nothing to judge. ${loadErrors!.length} case file(s) failed:\n  ${named.join('\n  ')}${loadErrors!.length > 5 ? `\n  (and ${loadErrors!.length - 5} more)` : ''}`);
    } else {
      problems.push(cases.length === 0 ? `${shown.cases} holds no case file (*.json), and probes are off: nothing to judge.` : `the filters select no case of ${shown.cases}, and probes are off: nothing to judge.`);
    }
  }
  return problems;
}

function matchesUnsharded(c: LoadedCase, filter: Omit<CaseFilter, 'shard'>): boolean {
  const x = c.case;
  if (filter.ids?.length && !filter.ids.some((id) => x.id.startsWith(id))) return false;
  if (filter.routes?.length && !filter.routes.some((r) => routeSelected(r, x.route))) return false;
  if (filter.contracts?.length && !filter.contracts.includes(x.contract)) return false;
  if (filter.tags?.length && !filter.tags.some((t) => x.tags.includes(t))) return false;
  return true;
}

/** Quote one shell word when it needs it (POSIX sh single quotes). */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The replay command of one case: `npx routecert run --case <id>`, plus `--cases`, `--config` and
 * each `--generic` when the run had them (they decide which file the id is in and how it decodes).
 * Paths are as the user typed them, relative to where the run started.
 */
export function replayCommand(options: { cases?: string | undefined; config?: string | undefined; generic?: readonly string[] | undefined }): (id: string) => string {
  const extra: string[] = [];
  if (options.cases !== undefined) extra.push('--cases', shellWord(options.cases));
  if (options.config !== undefined) extra.push('--config', shellWord(options.config));
  for (const g of options.generic ?? []) extra.push('--generic', shellWord(g));
  const tail = extra.length > 0 ? ` ${extra.join(' ')}` : '';
  return (id) => `npx routecert run --case ${id}${tail} --no-probes`;
}

/** A path for messages: relative to the working folder when inside it. */
export function shownPath(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return rel !== '' && !rel.startsWith('..') ? rel : file;
}

/**
 * Apply the colour conventions before picocolors loads (it reads the environment once):
 * `NO_COLOR` (non-empty, no-color.org) turns colours off; `FORCE_COLOR` turns them on even into a
 * pipe, except `FORCE_COLOR=0` or `false`, which turns them off (supports-color's reading). An empty
 * `NO_COLOR` is ignored, as no-color.org says. The command line beats the environment, as
 * no-color.org also says ("per-instance command-line arguments should override NO_COLOR"):
 * `--color` turns colours on under `NO_COLOR` (picocolors itself lets `NO_COLOR` win), and
 * `--no-color` off under `FORCE_COLOR` (picocolors reads it first).
 */
export function applyColourEnv(env: NodeJS.ProcessEnv = process.env, argv: readonly string[] = []): void {
  if (argv.includes('--color') && !argv.includes('--no-color')) {
    delete env.NO_COLOR;
    return;
  }
  if (env.NO_COLOR === '') delete env.NO_COLOR;
  if (env.NO_COLOR !== undefined) {
    delete env.FORCE_COLOR;
    return;
  }
  if (env.FORCE_COLOR === '0' || env.FORCE_COLOR === 'false') {
    delete env.FORCE_COLOR;
    env.NO_COLOR = '1';
  }
}
