/**
 * CLI discovery: where a real model CLI is installed and which version it is.
 * A candidate binary (`--bin <cli>=<path>` or `ROUTECERT_BIN_<CLI>`) wins over everything; then the
 * project's pinned install (`probes/node_modules/.bin/`, from `npm run probes:install`) wins over
 * PATH, so a probe runs the version `probes/package.json` pins unless a candidate is named.
 */
import { existsSync, constants as fsConstants } from 'node:fs';
import { access, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

/** A CLI's routecert name (`claude`, `codex`, ...); see src/probe/drivers.ts. */
export type CliName = string;

/** How to install the pinned CLIs in routecert's own checkout (its probes/ folder). */
export const INSTALL_HINT = 'npm run probes:install';

/**
 * What to do when `name` is not found. Working in routecert's checkout (`cwd` inside `root`, and
 * `<root>/probes/package.json` exists): {@link INSTALL_HINT}. In a team's project (routecert
 * installed as a package, from the registry, a tarball or a linked checkout): install the CLI's npm
 * package into the project, whose `node_modules/.bin` is on PATH under `npx` and npm scripts, or
 * put it on PATH, or name a binary with `--bin`.
 */
export function installHintFor(name: CliName, root: string, npmPackage?: string, exe: string = name, cwd: string = process.cwd()): string {
  const inside = relative(resolve(root), resolve(cwd));
  const inCheckout = !inside.startsWith('..') && !isAbsolute(inside);
  if (inCheckout && existsSync(join(root, 'probes', 'package.json'))) return `run \`${INSTALL_HINT}\` from routecert's checkout`;
  return `${npmPackage ? `npm install --save-dev ${npmPackage}` : `install ${exe}`}, or put \`${exe}\` on PATH, or pass --bin ${name}=<path>`;
}

/** Deadline of the `--version` call, in ms. */
export const VERSION_TIMEOUT_MS = 30_000;

/**
 * A CLI as found on this machine.
 *
 * - `name`: the CLI's command name.
 * - `bin`: absolute path of the executable, or `null` when not found.
 * - `version`: the version it reports (`2.1.332 (Claude Code)` reads `2.1.332`), or `null` when
 *   not found or when `--version` failed or printed no version.
 * - `source`: `probes` for `<project>/probes/node_modules/.bin/`, `PATH` for the first match on
 *   PATH, `null` when not found.
 * - `installHint`: what to do to install it ({@link installHintFor}).
 */
export interface DiscoveredCli {
  name: CliName;
  bin: string | null;
  version: string | null;
  source: 'candidate' | 'probes' | 'PATH' | null;
  installHint: string;
  /** Why a named candidate binary cannot be used (not found, not executable); absent otherwise. */
  problem?: string;
}

/**
 * The environment variable that names a candidate binary of `cli`: `ROUTECERT_BIN_` and the name
 * in upper case with every other character as `_` (`claude` -> `ROUTECERT_BIN_CLAUDE`,
 * `grok-cli` -> `ROUTECERT_BIN_GROK_CLI`).
 */
export function binEnvVar(cli: CliName): string {
  return `ROUTECERT_BIN_${cli.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/** Raised for a malformed `--bin` value; the CLI exits 2. */
export class BinOptionError extends Error {
  readonly code = 'ROUTECERT_BIN_OPTION';
  constructor(message: string) {
    super(`[routecert] ${message}`);
    this.name = 'BinOptionError';
  }
}

/**
 * Add one `--bin <cli>=<path>` value to `bins` (a new object); the path is resolved from the current
 * directory. The one rule for a `--bin` value, whichever command takes it (src/cli/options.ts
 * `binOption` gives it to commander).
 *
 * @throws {BinOptionError} for a value without `=`, an empty name or path, or a CLI already in `bins`.
 * @example
 * addBinOption({}, 'claude=<tmp>/p/node_modules/.bin/claude') // => { claude: '<tmp>/p/node_modules/.bin/claude' }
 */
export function addBinOption(bins: Readonly<Record<CliName, string>>, value: string): Record<CliName, string> {
  const at = value.indexOf('=');
  const cli = at < 0 ? '' : value.slice(0, at).trim();
  const file = at < 0 ? '' : value.slice(at + 1).trim();
  if (cli === '' || file === '') throw new BinOptionError(`--bin takes <cli>=<path> (e.g. --bin claude=./node_modules/.bin/claude); got "${value}".`);
  if (bins[cli] !== undefined) throw new BinOptionError(`--bin names ${cli} twice ("${bins[cli]}" and "${file}").`);
  return { ...bins, [cli]: resolve(file) };
}

/**
 * Parse `--bin <cli>=<path>` values (repeatable) into `{ cli: path }` ({@link addBinOption} each).
 *
 * @throws {BinOptionError} as {@link addBinOption}.
 * @example
 * parseBinOptions(['claude=<tmp>/p/node_modules/.bin/claude']) // => { claude: '<tmp>/p/node_modules/.bin/claude' }
 */
export function parseBinOptions(values: readonly string[] | undefined): Record<CliName, string> {
  return (values ?? []).reduce<Record<CliName, string>>(addBinOption, {});
}

/**
 * The candidate binary of `cli`, if one is named: `bins[cli]` (from `--bin`) wins over the
 * environment variable {@link binEnvVar}. `from` says which, for messages.
 */
export function candidateFor(cli: CliName, bins: Readonly<Record<CliName, string>> = {}, env: NodeJS.ProcessEnv = process.env): { path: string; from: string } | null {
  if (bins[cli] !== undefined) return { path: bins[cli]!, from: `--bin ${cli}=` };
  const fromEnv = env[binEnvVar(cli)];
  if (fromEnv !== undefined && fromEnv !== '') return { path: resolve(fromEnv), from: `${binEnvVar(cli)}=` };
  return null;
}

/** The line to print when `cli` cannot be run: the candidate's problem, or the install hint. */
export function notFoundMessage(cli: DiscoveredCli): string {
  return cli.problem ?? `[routecert] ${cli.name} is not installed: ${cli.installHint}.`;
}

/**
 * Options of {@link discoverCli}.
 *
 * - `projectRoot`: the routecert checkout whose `probes/` to look in; @default this package's root.
 * - `path`: the search path (`PATH` format); @default `process.env.PATH`.
 * - `versionTimeoutMs`: deadline of `<bin> --version`; @default {@link VERSION_TIMEOUT_MS}.
 */
export interface DiscoverOptions {
  projectRoot?: string;
  path?: string;
  versionTimeoutMs?: number;
}

/** This package's root directory (two levels above src/probe/). */
export function projectRoot(): string {
  return fileURLToPath(new URL('../../', import.meta.url));
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    await access(file, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The version in a `--version` line: the first dotted number, e.g. `2.1.332 (Claude Code)` ->
 * `2.1.332`, `v1.2.3-beta.1` -> `1.2.3-beta.1`; `null` when none.
 */
export function parseVersion(output: string): string | null {
  const m = /(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)/.exec(output);
  return m?.[1] ?? null;
}

/**
 * Ask `bin --version`, in a throwaway HOME with a minimal environment (no credentials, no
 * autoupdater, no nonessential traffic), with a deadline; once more with twice the deadline when
 * the first try fails. Never throws: `null` when both fail.
 */
export async function readVersion(bin: string, timeoutMs: number = VERSION_TIMEOUT_MS): Promise<string | null> {
  // A loaded machine can miss the deadline once (issue 22: four CLIs read as "version unknown" at
  // load 20): a second try, with twice the deadline, before the version is called unknown.
  return (await readVersionOnce(bin, timeoutMs)) ?? readVersionOnce(bin, timeoutMs * 2);
}

/** Bytes of `--version` output read (per stream) before the CLI is stopped and its version called unknown. */
const VERSION_MAX_BUFFER = 2 ** 20;

async function readVersionOnce(bin: string, timeoutMs: number): Promise<string | null> {
  const home = await mkdtemp(join(tmpdir(), 'routecert-version-'));
  try {
    const result = await execa(bin, ['--version'], {
      reject: false,
      timeout: timeoutMs,
      // A version is a line: a CLI that prints a gigabyte instead is stopped at 1 MiB (its version unknown).
      maxBuffer: VERSION_MAX_BUFFER,
      stdin: 'ignore',
      extendEnv: false,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        CLAUDE_CONFIG_DIR: join(home, '.claude'),
        DISABLE_AUTOUPDATER: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      },
    });
    if (result.exitCode !== 0) return null;
    // pi 0.73.1 prints its version on stderr, not stdout.
    return parseVersion(String(result.stdout)) ?? parseVersion(String(result.stderr));
  } catch {
    return null;
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

/**
 * The executable a named candidate of `name` stands for: the path itself when it is an executable
 * file, or `<path>/node_modules/.bin/<exe>` when the path is an npm prefix folder
 * (`npm install --prefix <dir> <pkg>`). Runs nothing. When neither can be run, `problem` names the
 * CLI, how it was named (`--bin claude=<path>` or `ROUTECERT_BIN_CLAUDE=<path>`), why, and what to
 * do; the one wording of that problem for every command ({@link discoverCli}, src/cli/probeTarget.ts).
 */
export async function candidateBinary(name: CliName, candidate: { path: string; from: string }, exe: string = name, npmPackage?: string): Promise<{ file: string } | { problem: string }> {
  const given = candidate.path;
  const inPrefix = join(given, 'node_modules', '.bin', exe);
  const file = (await isExecutable(inPrefix)) ? inPrefix : given;
  if ((await isExecutable(file)) && (await isFile(file))) return { file };
  const info = await stat(given).catch(() => null);
  const why = info === null ? 'nothing is there' : info.isDirectory() ? `a folder without node_modules/.bin/${exe}` : 'a file without execute permission (chmod +x it, if it is the CLI)';
  const how = candidate.from.replace(/=$/, '');
  return {
    problem:
      `[routecert] the candidate binary of ${name} (${candidate.from}${given}) is not an executable file, nor a prefix folder with node_modules/.bin/${exe}: ${why}. ` +
      `Name the CLI's executable or a folder that \`npm install --prefix <folder> ${npmPackage ?? exe}\` installed it into, or drop ${how} to probe the installed ${exe}.`,
  };
}

/**
 * Find `name`: a named `candidate` (see {@link candidateFor}; an executable, or a prefix folder with
 * `node_modules/.bin/<bin>`) wins; else first `<project>/probes/node_modules/.bin/<name>`, then each PATH entry; then read
 * its version with `--version` (deadline {@link VERSION_TIMEOUT_MS} ms). Never throws; a CLI that
 * is not installed gives `bin: null` and the {@link INSTALL_HINT}.
 *
 * @example
 * const cli = await discoverCli('claude');
 * // { name: 'claude', bin: '<project>/probes/node_modules/.bin/claude', version: '2.1.332', source: 'probes', installHint: 'run `npm run probes:install` from routecert\'s checkout' }
 */
export async function discoverCli(name: CliName, options: DiscoverOptions & { bin?: string; npmPackage?: string; candidate?: { path: string; from: string } | null } = {}): Promise<DiscoveredCli> {
  const root = options.projectRoot ?? projectRoot();
  const exe = options.bin ?? name;
  const installHint = installHintFor(name, root, options.npmPackage, exe);
  if (options.candidate) {
    const found = await candidateBinary(name, options.candidate, exe, options.npmPackage);
    if ('problem' in found) return { name, bin: null, version: null, source: null, installHint, problem: found.problem };
    const version = await readVersion(found.file, options.versionTimeoutMs ?? VERSION_TIMEOUT_MS);
    return { name, bin: found.file, version, source: 'candidate', installHint };
  }
  const pinned = join(root, 'probes', 'node_modules', '.bin', exe);
  let bin: string | null = null;
  let source: DiscoveredCli['source'] = null;
  if (await isExecutable(pinned)) {
    bin = pinned;
    source = 'probes';
  } else {
    for (const dir of (options.path ?? process.env.PATH ?? '').split(delimiter)) {
      if (dir === '') continue;
      const candidate = join(dir, exe);
      if (await isExecutable(candidate)) {
        bin = candidate;
        source = 'PATH';
        break;
      }
    }
  }
  const version = bin === null ? null : await readVersion(bin, options.versionTimeoutMs ?? VERSION_TIMEOUT_MS);
  return { name, bin, version, source, installHint };
}

/**
 * The one resolution of a CLI under test, for every command (`probe`, `probe --startup`,
 * `--startup-table`, `--startup --config`, `--list`, `record`, `run`'s probes): the `--bin`
 * candidate of `driver.cli` in `bins`, else `ROUTECERT_BIN_<CLI>` ({@link candidateFor}), else the
 * installed one ({@link discoverCli}). Its `version` is what `<bin> --version` printed, so every
 * report names the binary it ran. Never throws.
 *
 * @example
 * await resolveCli(claudeDriver, parseBinOptions(['claude=/opt/claude-next/bin/claude']))
 * // { name: 'claude', bin: '/opt/claude-next/bin/claude', version: '2.1.340', source: 'candidate', ... }
 */
export function resolveCli(
  driver: { cli: CliName; bin: string; npmPackage?: string },
  bins: Readonly<Record<CliName, string>> = {},
  env: NodeJS.ProcessEnv = process.env,
): Promise<DiscoveredCli> {
  return discoverCli(driver.cli, { bin: driver.bin, ...(driver.npmPackage === undefined ? {} : { npmPackage: driver.npmPackage }), candidate: candidateFor(driver.cli, bins, env) });
}
