/**
 * CLI discovery: where a real model CLI is installed and which version it is.
 * The project's pinned install (`probes/node_modules/.bin/`, from `npm run probes:install`) wins
 * over PATH, so a probe runs the version `probes/package.json` pins.
 */
import { constants as fsConstants } from 'node:fs';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

/** A CLI's routecert name (`claude`, `codex`, ...); see src/probe/drivers.ts. */
export type CliName = string;

/** How to install the pinned CLIs (from the project root). */
export const INSTALL_HINT = 'npm run probes:install';

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
 * - `installHint`: the command that installs the pinned version.
 */
export interface DiscoveredCli {
  name: CliName;
  bin: string | null;
  version: string | null;
  source: 'probes' | 'PATH' | null;
  installHint: typeof INSTALL_HINT;
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
 * autoupdater, no nonessential traffic), with a deadline. Never throws: `null` when it fails.
 */
export async function readVersion(bin: string, timeoutMs: number = VERSION_TIMEOUT_MS): Promise<string | null> {
  const home = await mkdtemp(join(tmpdir(), 'routecert-version-'));
  try {
    const result = await execa(bin, ['--version'], {
      reject: false,
      timeout: timeoutMs,
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
 * Find `name`: first `<project>/probes/node_modules/.bin/<name>`, then each PATH entry; then read
 * its version with `--version` (deadline {@link VERSION_TIMEOUT_MS} ms). Never throws; a CLI that
 * is not installed gives `bin: null` and the {@link INSTALL_HINT}.
 *
 * @example
 * const cli = await discoverCli('claude');
 * // { name: 'claude', bin: '<project>/probes/node_modules/.bin/claude', version: '2.1.332', source: 'probes', installHint: 'npm run probes:install' }
 */
export async function discoverCli(name: CliName, options: DiscoverOptions & { bin?: string } = {}): Promise<DiscoveredCli> {
  const root = options.projectRoot ?? projectRoot();
  const exe = options.bin ?? name;
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
  return { name, bin, version, source, installHint: INSTALL_HINT };
}
