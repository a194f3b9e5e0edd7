/**
 * The worker adapter: how routecert runs a team's worker (bash, Python, TypeScript, ...) without
 * changing it. A `routecert.config.ts` at a project's root default-exports `defineConfig({...})`.
 *
 * @example
 * // routecert.config.ts
 * import { defineConfig } from 'routecert';
 * export default defineConfig({
 *   worker: {
 *     name: 'my peer worker',
 *     command: ['bash', 'scripts/peer-worker.sh', '{routeArg}', '{schema}', '{prompt}', '{outDir}'],
 *     prompt: 'file',
 *     artifact: '{outDir}/pov-{routeArg}.json',
 *     windowEnv: { hardWindowS: 'PEER_HARD_SECS', retryMinS: 'PEER_RETRY_MIN_SECS' },
 *     routeNames: { 'claude-code/stream-json': 'claude' },
 *   },
 *   routes: ['claude-code/stream-json'],
 * });
 */
import { access } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isPlainObject } from '#src/envelope/keys.ts';
import { isBuiltinReporter, REPORTER_NAMES, type BuiltinReporterName } from '#src/report/names.ts';
import type { Reporter } from '#src/report/reporter.ts';

/**
 * Placeholders a command token, the artifact template or the log template may use:
 * - `{route}`: the route id (`claude-code/stream-json`); `{routeArg}`: the worker's own name for it
 *   ({@link WorkerAdapter.routeNames}, else the route id);
 * - `{schema}`: the schema file; `{prompt}`: the prompt file; `{promptText}`: the prompt itself
 *   (for `prompt: 'argument'`);
 * - `{runDir}`: the run's private folder; `{outDir}`: `{runDir}/out`, empty at start;
 * - `{out}`: the artifact path (the resolved `artifact` template); `{log}`: the log path.
 */
export const PLACEHOLDERS = ['route', 'routeArg', 'schema', 'prompt', 'promptText', 'runDir', 'outDir', 'out', 'log'] as const;

/** One of {@link PLACEHOLDERS}. */
export type Placeholder = (typeof PLACEHOLDERS)[number];

/**
 * What an in-process worker gets for one run (see {@link WorkerAdapter.run}).
 * - `env`: the environment a command worker would get: `PATH` (the fake CLIs and linked tools
 *   only), `HOME`, `TMPDIR`, the window variables of `windowEnv`, the adapter's `env`; pass it to
 *   every process you spawn, or the fake CLIs are not found;
 * - `log`: write each log line here (it is the worker's log);
 * - `signal`: aborted at the run's outer deadline: reap your peers and return.
 */
export interface InProcessInvocation {
  route: string;
  routeArg: string;
  schemaFile: string;
  promptFile: string;
  prompt: string;
  out: string;
  outDir: string;
  runDir: string;
  env: Record<string, string>;
  cwd: string;
  log(line: string): void;
  signal: AbortSignal;
}

/**
 * How to run the worker under test.
 *
 * - `name`: printed in the certificate.
 * - `command`: argv, with {@link PLACEHOLDERS}; `command[0]` is looked up on the worker's PATH, which
 *   holds only the fake CLIs and the linked tools (`node`, `bash`, `sh`, `python3`, `jq`, ...), or
 *   is a path relative to `cwd`.
 * - `run`: instead of `command`, a worker that is a library function, run inside routecert's process
 *   (faster: no process start per run); it must spawn its CLIs with `invocation.env`. The checks
 *   are the same, except that routecert cannot kill it: at the outer deadline it aborts
 *   `invocation.signal` and stops waiting.
 * - `cwd`: the worker's working folder, relative to the config file's folder; @default that folder.
 * - `prompt`: how the prompt reaches the worker: `stdin` (written, then closed), `file` (`{prompt}`),
 *   `argument` (`{promptText}`).
 * - `artifact`: where the worker publishes its accepted answer (a path template); @default `{outDir}/artifact.json`.
 * - `log`: a file the worker logs to (a path template), read besides its stdout and stderr, which
 *   are always read as log.
 * - `windowEnv`: the environment variables that set the worker's windows, in seconds (integers are
 *   passed): `hardWindowS`, `retryMinS`, and `idleWindowS` when the worker has idle detection.
 * - `env`: extra environment variables for the worker.
 * - `routeNames`: the worker's name for each route (`{routeArg}`), e.g. `claude` for `claude-code/stream-json`.
 * - `tools`: extra real tools to link onto the worker's PATH.
 */
export interface WorkerAdapter {
  name: string;
  command?: string[];
  run?: (invocation: InProcessInvocation) => Promise<void>;
  cwd?: string;
  prompt?: 'stdin' | 'file' | 'argument';
  artifact?: string;
  log?: string;
  windowEnv: { hardWindowS: string; retryMinS: string; idleWindowS?: string };
  env?: Record<string, string>;
  routeNames?: Record<string, string>;
  tools?: string[];
}

/**
 * A certification: the worker, the routes, and optional overrides.
 * - `contract`: only `pov` so far;
 * - `cases`: the corpus folder the replayed envelopes come from, relative to the config file; @default the bundled fixtures/cases;
 * - `schema`: the production schema file handed to the worker; @default schemas/contracts/pov.schema.json;
 * - `prompt`: the prompt text; @default a short POV question;
 * - `finalAnswerMarker`: a sentence of the final-answer paragraph the retry prompt must carry;
 *   @default `This response is the final one` (ce-pov's and routecert's wording);
 * - `concurrency`: worker runs at once; @default 4.
 * - `reporters`: what `routecert run --config <file>` reports with when no `--reporter` is given:
 *   built-in names (`default`, `json`, `junit`, `html`, ...) and reporter objects of one's own
 *   (src/report/reporter.ts); @default the built-in defaults.
 */
export interface CertifyConfig {
  worker: WorkerAdapter;
  routes: string[];
  contract?: 'pov';
  cases?: string;
  schema?: string;
  prompt?: string;
  finalAnswerMarker?: string;
  concurrency?: number;
  reporters?: (BuiltinReporterName | Reporter)[];
}

/** A config with the folder relative paths are resolved from (the config file's folder). */
export interface LoadedConfig {
  config: CertifyConfig;
  file: string | null;
  dir: string;
}

/** Raised for a config that cannot be used; the CLI exits 2. `code` is stable. */
export class CertifyConfigError extends Error {
  readonly code = 'ROUTECERT_CERTIFY_CONFIG';
  constructor(message: string) {
    super(`[routecert] ${message}`);
    this.name = 'CertifyConfigError';
  }
}

/**
 * Type a certification config. Returns it unchanged; the types are the point (as vitest's
 * `defineConfig`).
 */
export function defineConfig(config: CertifyConfig): CertifyConfig {
  return config;
}

/** The problems of `value` as a {@link CertifyConfig}, one sentence each; `[]` when usable. */
export function configProblems(value: unknown): string[] {
  const problems: string[] = [];
  if (!isPlainObject(value)) return ['the config must be an object (default-export defineConfig({...}))'];
  const worker = value.worker;
  if (!isPlainObject(worker)) problems.push('`worker` must be an object');
  else {
    if (typeof worker.name !== 'string' || worker.name === '') problems.push('`worker.name` must be a non-empty string');
    if (worker.run !== undefined) {
      if (typeof worker.run !== 'function') problems.push('`worker.run` must be a function');
      if (worker.command !== undefined) problems.push('give `worker.command` or `worker.run`, not both');
    } else {
      if (!Array.isArray(worker.command) || worker.command.length === 0 || !worker.command.every((t) => typeof t === 'string')) {
        problems.push('`worker.command` must be a non-empty array of strings (or give `worker.run`, a function)');
      }
      if (!['stdin', 'file', 'argument'].includes(worker.prompt as string)) problems.push('`worker.prompt` must be one of: stdin, file, argument');
    }
    const windowEnv = worker.windowEnv;
    if (!isPlainObject(windowEnv) || typeof windowEnv.hardWindowS !== 'string' || typeof windowEnv.retryMinS !== 'string') {
      problems.push('`worker.windowEnv` must name the environment variables `hardWindowS` and `retryMinS` (and `idleWindowS` if the worker has idle detection)');
    }
    const templates = [...(Array.isArray(worker.command) ? worker.command : []), worker.artifact, worker.log].filter((t): t is string => typeof t === 'string');
    for (const t of templates) {
      for (const m of t.matchAll(/\{([A-Za-z]+)\}/g)) {
        if (!(PLACEHOLDERS as readonly string[]).includes(m[1]!)) problems.push(`unknown placeholder {${m[1]}} in "${t}". Known placeholders: ${PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}`);
      }
    }
    if (worker.prompt === 'file' && Array.isArray(worker.command) && !worker.command.some((t) => String(t).includes('{prompt}'))) {
      problems.push('`worker.prompt` is "file" but no command token uses {prompt}');
    }
    if (worker.prompt === 'argument' && Array.isArray(worker.command) && !worker.command.some((t) => String(t).includes('{promptText}'))) {
      problems.push('`worker.prompt` is "argument" but no command token uses {promptText}');
    }
  }
  if (!Array.isArray(value.routes) || value.routes.length === 0 || !value.routes.every((r) => typeof r === 'string')) {
    problems.push('`routes` must be a non-empty array of route ids (e.g. "claude-code/stream-json")');
  }
  if (value.contract !== undefined && value.contract !== 'pov') problems.push(`\`contract\` must be "pov" (the only contract certification supports), not ${JSON.stringify(value.contract)}`);
  if (value.concurrency !== undefined && !(Number.isInteger(value.concurrency) && (value.concurrency as number) >= 1)) problems.push('`concurrency` must be a positive integer');
  if (value.reporters !== undefined) {
    if (!Array.isArray(value.reporters)) problems.push('`reporters` must be an array of reporter names and reporter objects');
    else
      value.reporters.forEach((r: unknown, i: number) => {
        if (typeof r === 'string' ? !isBuiltinReporter(r) : !(isPlainObject(r) && typeof r.name === 'string')) {
          problems.push(`\`reporters[${i}]\` must be one of ${REPORTER_NAMES.join(', ')} or an object with a \`name\` and hooks (onRunStart, onCaseResult, onRunEnd)`);
        }
      });
  }
  return problems;
}

/**
 * Import a config file (TypeScript under tsx, or JavaScript) and check it. The default export is
 * the config (a `config` named export is accepted too).
 *
 * @throws {CertifyConfigError} when the file is missing, does not load, or the config is unusable.
 */
export async function loadConfig(file: string): Promise<LoadedConfig> {
  const absolute = path.resolve(file);
  try {
    await access(absolute);
  } catch {
    throw new CertifyConfigError(`config file ${file} not found (create a routecert.config.ts that default-exports defineConfig({...}))`);
  }
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(absolute).href)) as Record<string, unknown>;
  } catch (error) {
    throw new CertifyConfigError(`config file ${file} does not load: ${(error as Error).message}`);
  }
  const config = module.default ?? module.config;
  const problems = configProblems(config);
  if (problems.length > 0) throw new CertifyConfigError(`config file ${file} is not usable:\n  - ${problems.join('\n  - ')}`);
  return { config: config as CertifyConfig, file: absolute, dir: path.dirname(absolute) };
}

/**
 * Replace `{placeholder}`s in `template`.
 *
 * @throws {CertifyConfigError} for a placeholder without a value.
 */
export function fillTemplate(template: string, values: Partial<Record<Placeholder, string>>): string {
  return template.replace(/\{([A-Za-z]+)\}/g, (whole, name: string) => {
    const value = values[name as Placeholder];
    if (value === undefined) throw new CertifyConfigError(`placeholder ${whole} has no value here`);
    return value;
  });
}
