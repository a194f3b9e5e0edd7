/**
 * The real tools a worker may use beside the fake CLIs: found on the harness's PATH and linked into
 * the fake bin folder, which then stands alone on the worker's PATH. Interpreters are resolved
 * through themselves (`python3 -c 'import sys; print(sys.executable)'`), so a version manager's shim
 * (pyenv, asdf, nvm) is never linked: it would need its own folders on PATH.
 *
 * Source: the `sandbox()` helper of the compound-engineering-plugin route tests
 * (research/ce-plugin.md section 3.1).
 */
import { execFileSync } from 'node:child_process';
import { constants as fsConstants, accessSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The tools linked by default, when found: shells, jq, interpreters and the coreutils bash workers
 * use. A missing one is reported in {@link ResolvedTools.missing}, never an error.
 */
export const DEFAULT_TOOLS: readonly string[] = [
  'sh', 'bash', 'jq', 'python3', 'python', 'node', 'perl',
  'cat', 'sed', 'awk', 'tr', 'wc', 'head', 'tail', 'cut', 'sort', 'uniq', 'tee', 'od', 'expr', 'seq', 'xargs',
  'date', 'mktemp', 'sleep', 'kill', 'ps', 'timeout', 'gtimeout', 'env', 'printf', 'echo', 'true', 'false', 'test',
  'grep', 'dirname', 'basename', 'readlink', 'realpath', 'stat', 'touch', 'ls', 'rm', 'mv', 'cp', 'mkdir', 'rmdir', 'chmod',
  'setsid', 'nohup', 'id', 'uname', 'find', 'cmp',
];

/**
 * How long an interpreter may take to report its own executable. Python's start-up took over 5 s
 * under a load of 50 on 2 cores (2026-12-02): with 5 s, python3 went missing from the worker's PATH
 * for the whole process (the result is cached) and ce-pov's recovery scan never ran.
 */
const SELF_RESOLVE_TIMEOUT_MS = 30_000;

/** How an interpreter reports its own executable. */
const SELF_RESOLVING: Readonly<Record<string, string[]>> = {
  python3: ['-c', 'import sys; print(sys.executable)'],
  python: ['-c', 'import sys; print(sys.executable)'],
  perl: ['-e', 'print $^X'],
  node: ['-p', 'process.execPath'],
};

/** Tools found, as `name -> absolute target`, and the names not found. */
export interface ResolvedTools {
  found: { name: string; target: string }[];
  missing: string[];
}

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, fsConstants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The first executable `name` on `searchPath` (PATH format), or `null`. */
export function whichOnPath(name: string, searchPath: string): string | null {
  for (const dir of searchPath.split(path.delimiter)) {
    if (dir === '' || !path.isAbsolute(dir)) continue;
    const file = path.join(dir, name);
    if (isExecutableFile(file)) return file;
  }
  return null;
}

const cache = new Map<string, ResolvedTools>();

/**
 * Find each tool on `searchPath`; resolve interpreters through themselves (30 s deadline each; one
 * that does not answer in time is linked where PATH has it). A
 * tool given as a path (it has a `/`) is taken as it is, under its file name, and replaces the tool
 * of that name in the list (a project's jq 1.7 where the machine has 1.6); one that is not an
 * executable file is missing.
 * Results are cached per process by tool list and search path.
 *
 * @param searchPath PATH to search; @default `process.env.PATH`
 */
export function resolveTools(tools: readonly string[] = DEFAULT_TOOLS, searchPath: string = process.env.PATH ?? ''): ResolvedTools {
  const key = `${tools.join(',')}\u0000${searchPath}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const found: ResolvedTools['found'] = [];
  const missing: string[] = [];
  // A tool given as a path is linked under its file name, in place of the one of that name on PATH.
  const given = new Map<string, string>();
  for (const t of tools) if (t.includes('/')) given.set(path.basename(t), t);
  for (const [name, file] of given) {
    if (isExecutableFile(file)) found.push({ name, target: path.resolve(file) });
    else missing.push(file);
  }
  for (const name of [...new Set(tools)].filter((t) => !t.includes('/') && !given.has(t))) {
    let target = name === 'node' ? process.execPath : whichOnPath(name, searchPath);
    const selfArgs = SELF_RESOLVING[name];
    if (target !== null && selfArgs && name !== 'node') {
      try {
        const reported = execFileSync(target, selfArgs, { encoding: 'utf8', timeout: SELF_RESOLVE_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
        target = reported !== '' && isExecutableFile(reported) ? reported : null;
      } catch (error) {
        // An interpreter too slow to answer (a loaded machine) is still linked as found; one that fails is missing.
        if ((error as { code?: string }).code !== 'ETIMEDOUT') target = null;
      }
    }
    if (target === null) missing.push(name);
    else found.push({ name, target });
  }
  const resolved = { found, missing };
  cache.set(key, resolved);
  return resolved;
}
