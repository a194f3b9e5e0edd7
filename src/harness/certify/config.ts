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
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { pushAll } from '#src/arrays.ts';
import { didYouMean, didYouMeanTail, unknownFieldProblems } from '#src/diagnostics/didYouMean.ts';
import { certifiableRoutes } from './routes.ts';
import { isPlainObject } from '#src/envelope/keys.ts';
import { ContractDefinitionError, defineContract, whileLoadingConfigFile, type ContractDefinition, type DefinedContract } from '#src/contract/define.ts';
import { KNOWN_CLIS } from '#src/probe/known.ts';
import type { Contract } from '#src/contract/types.ts';
import { isContractDefinition, isPresetName } from './rules.ts';
import { PRESET_NAMES } from '#src/contract/presets.ts';
import { importConfigFile } from './configFile.ts';
import { publishMappingProblems, type PublishMapping } from './publish.ts';
import { isBuiltinReporter, REPORTER_NAMES, type BuiltinReporterName } from '#src/report/names.ts';
import type { Reporter } from '#src/report/reporter.ts';
import { describeJsonSyntaxError } from '#src/schema/jsonError.ts';

/**
 * The rules of the consumer contract (./consumer.ts): an ordinary-schema contract, in the shape of `defineContract()`'s definition
 * (src/contract/define.ts, issue 10): `finality: 'none'` (a schema-valid answer is settled), no
 * `retry`, no text fallback (the answer comes from the route's structured place).
 */
export interface ConsumerContract {
  /** Marks the contract as the consumer one: its checks read the adapter's outcome file (see `ConsumerOutcome`, ./consumer.ts). */
  consumer: true;
  name: string;
  schema: string;
  anchor: string;
  finality: 'none';
  selection: 'last-shaped';
  textFallback: 'off';
}

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
 *   `argument` (`{promptText}`), or `none`: the worker composes its own prompt (the compound-engineering
 *   review workers build theirs from a persona file and the diff).
 * - `artifact`: where the worker publishes its accepted answer: a path template, or an
 *   {@link ArtifactAdapter} (`{ path, select, strict }`) for a worker that wraps or namespaces its
 *   output; @default `{outDir}/artifact.json`.
 * - `publish`: how the worker publishes the answer, declared instead of code ({@link PublishMapping},
 *   ./publish.ts): JSON Pointers into the answer, `rename` (answer pointer -> published pointer:
 *   `{ '/findings': '/items' }`) and `exclude` (members it leaves out or sets itself: `['/usage']`).
 * - `log`: a file the worker logs to (a path template), read besides its stdout and stderr, which
 *   are always read as log.
 * - `windowEnv`: the environment variables that set the worker's windows, in seconds (integers are
 *   passed): `hardWindowS`, `retryMinS` (only when the contract retries), and `idleWindowS` when the
 *   worker has idle detection.
 * - `env`: extra environment variables for the worker; their values may use {@link PLACEHOLDERS}.
 * - `routeEnv`: environment variables for one route only, by route id (e.g. the route name a worker
 *   reads from `CROSS_MODEL_FIXED_ROUTE`); values may use placeholders.
 * - `files`: files seeded into the run before the worker starts: path template (under `{runDir}`,
 *   e.g. `{outDir}/adversarial-review-constraints.md`) -> content.
 * - `routeNames`: the worker's name for each route (`{routeArg}`), e.g. `claude` for `claude-code/stream-json`.
 * - `tools`: extra real tools to link onto the worker's PATH: a name (`git`) is found on routecert's
 *   PATH; a path (`tools/jq-1.7/jq`, relative to the config file's folder, or absolute) is linked
 *   under its file name in place of the tool of that name found on PATH (a worker that needs jq 1.7
 *   where the machine has 1.6). The certificate names each one's version (`--version`).
 * - `schemaChannel`: how the worker hands the schema to the CLI on a route, by route id, where it is
 *   not the route's schema flag: `prompt` (the schema's JSON text is in the prompt the CLI reads,
 *   on stdin or in its prompt file: compound-engineering's review workers on Codex, which never use
 *   `--output-schema`). The `schema-sent` check then looks for the contract's schema in each call's
 *   prompt instead of after the flag; @default `flag` on every route.
 */
export interface WorkerAdapter {
  name: string;
  command?: string[];
  run?: (invocation: InProcessInvocation) => Promise<void>;
  cwd?: string;
  prompt?: 'stdin' | 'file' | 'argument' | 'none';
  artifact?: string | ArtifactAdapter;
  publish?: PublishMapping;
  log?: string;
  windowEnv: { hardWindowS: string; retryMinS?: string; idleWindowS?: string };
  env?: Record<string, string>;
  routeEnv?: Record<string, Record<string, string>>;
  files?: Record<string, string>;
  routeNames?: Record<string, string>;
  tools?: string[];
  schemaChannel?: Record<string, SchemaChannel>;
}

/** How a worker hands the schema to the CLI: the route's flag (`--json-schema`, `--output-schema`), or the prompt text. */
export type SchemaChannel = 'flag' | 'prompt';

/** The schema channel `worker` declares for `route` (@default `flag`). */
export function schemaChannelOf(worker: Pick<WorkerAdapter, 'schemaChannel'>, route: string): SchemaChannel {
  return worker.schemaChannel?.[route] ?? 'flag';
}

/**
 * Where and how to read what a worker published (issue 10 part 5).
 * - `path`: a path template (see {@link PLACEHOLDERS});
 * - `select(json)`: maps the parsed artifact to the answer, for a worker that wraps it
 *   (`json => json.result`) or namespaces a field (ce-pov publishes `voice: "peer-claude"` for the
 *   peer's `"peer"`); a throw is reported as an unusable artifact;
 * - `strict`: compare the whole artifact with the answer; @default false: only the schema's own
 *   properties are compared, so receipt fields a worker adds are ignored;
 * - `ignore`: members the worker sets by its own declared policy, left out of the comparison on
 *   both sides: `key` (ce-doc-review writes its lens name into `reviewer`) or `key[].field`
 *   (it downgrades each finding's `autofix_class` from `safe_auto` to `gated_auto`); the same as
 *   `worker.publish.exclude` with `/reviewer` and `/findings/*` + `/autofix_class`, which is preferred.
 *
 * @example
 * artifact: { path: '{outDir}/pov-claude.json', select: (j) => ({ ...j, voice: j.voice.replace(/^peer-[a-z]+$/, 'peer') }) }
 */
export interface ArtifactAdapter {
  path: string;
  select?: (json: unknown) => unknown;
  strict?: boolean;
  ignore?: string[];
}

/** The artifact adapter of a worker, with the default path. */
export function artifactAdapter(worker: Pick<WorkerAdapter, 'artifact'>): ArtifactAdapter {
  const a = worker.artifact;
  return typeof a === 'string' ? { path: a } : a ?? { path: '{outDir}/artifact.json' };
}

/**
 * A certification: the worker, the routes, and optional overrides.
 * - `contract`: a shipped contract by name (`pov`, `findings-code`, `findings-doc`, ...) or a contract definition (`defineContract({...})`):
 *   the checks derive from its rules, the corpus cases of that contract name are replayed, and its
 *   `schema` is the schema handed to the worker unless `schema` is given;
 *   the consumer contract ({@link ConsumerContract}, `CONSUMER_CONTRACT`: `consumer: true`) selects
 *   the consumer checks (./consumer.ts), which read a consumer adapter's outcome file;
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
  contract?: 'pov' | 'findings-code' | 'findings-doc' | (string & {}) | ContractDefinition | DefinedContract | ConsumerContract;
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
 * What a routecert.config.ts (or .json) may hold besides a certification:
 * - `contracts`: the team's own contracts (`defineContract({...})`, or plain definitions in a JSON
 *   config), which a case's `contract` names; a relative `schema` path is relative to the config file;
 * - `cases`: the folder of the team's cases, relative to the config file (`routecert run --config`
 *   reads it when `--cases` is not given).
 * See src/config/project.ts.
 */
export interface ContractsConfig {
  contracts?: (Contract | ContractDefinition)[];
  cases?: string;
}

/** A routecert config: contracts and cases, a certification (worker and routes), or both. */
export type RoutecertConfig = ContractsConfig & (CertifyConfig | { worker?: undefined; routes?: undefined });

/**
 * Type a config. Returns it unchanged; the types are the point (as vitest's `defineConfig`).
 */
export function defineConfig<T extends RoutecertConfig>(config: T): T {
  return config;
}

/**
 * The names of every member of `T`, as written: a list that leaves one out does not compile, so a
 * field added to the type is known to the unknown-field check at once.
 */
function everyField<T>(): <const K extends readonly (keyof T & string)[]>(keys: K & ([Exclude<keyof T, K[number]>] extends [never] ? unknown : { missing: Exclude<keyof T, K[number]> })) => K {
  return (keys) => keys;
}

/** Every top-level field of a routecert config: {@link ContractsConfig}'s and {@link CertifyConfig}'s. */
const CONFIG_FIELDS = everyField<ContractsConfig & CertifyConfig>()(['contracts', 'cases', 'reporters', 'worker', 'routes', 'contract', 'schema', 'prompt', 'finalAnswerMarker', 'concurrency']);
/** Every field of `worker` ({@link WorkerAdapter}). */
const WORKER_FIELDS = everyField<WorkerAdapter>()(['name', 'command', 'run', 'cwd', 'prompt', 'artifact', 'publish', 'log', 'windowEnv', 'env', 'routeEnv', 'files', 'routeNames', 'tools', 'schemaChannel']);
/** Every field of `worker.windowEnv`. */
const WINDOW_ENV_FIELDS = everyField<WorkerAdapter['windowEnv']>()(['hardWindowS', 'retryMinS', 'idleWindowS']);
/** Every field of `worker.artifact` in its object form ({@link ArtifactAdapter}). */
const ARTIFACT_FIELDS = everyField<ArtifactAdapter>()(['path', 'select', 'strict', 'ignore']);

/**
 * The unknown top-level fields of a config (`bogus`, `case` for `cases`, `reporter` for
 * `reporters`), one sentence each with the known fields and a "did you mean": an error, as an
 * unknown contract field is, wherever the config is loaded (src/config/project.ts
 * `loadProjectConfig`, {@link loadConfig}). The worker's own fields are checked by {@link configProblems}.
 */
export function configFieldProblems(value: Readonly<Record<string, unknown>>): string[] {
  return unknownFieldProblems(value, CONFIG_FIELDS);
}

/** The problems of `value` as a {@link CertifyConfig}, one sentence each; `[]` when usable. */
export function configProblems(value: unknown): string[] {
  const problems: string[] = [];
  if (!isPlainObject(value)) return ['the config must be an object (default-export defineConfig({...}))'];
  const worker = value.worker;
  if (!isPlainObject(worker)) problems.push('`worker` must be an object');
  else {
    pushAll(problems, unknownFieldProblems(worker, WORKER_FIELDS, 'worker.'));
    if (isPlainObject(worker.windowEnv)) pushAll(problems, unknownFieldProblems(worker.windowEnv, WINDOW_ENV_FIELDS, 'worker.windowEnv.'));
    if (isPlainObject(worker.artifact)) pushAll(problems, unknownFieldProblems(worker.artifact, ARTIFACT_FIELDS, 'worker.artifact.'));
    if (typeof worker.name !== 'string' || worker.name === '') problems.push('`worker.name` must be a non-empty string');
    if (worker.run !== undefined) {
      if (typeof worker.run !== 'function') problems.push('`worker.run` must be a function');
      if (worker.command !== undefined) problems.push('give `worker.command` or `worker.run`, not both');
    } else {
      if (!Array.isArray(worker.command) || worker.command.length === 0 || !worker.command.every((t) => typeof t === 'string')) {
        problems.push('`worker.command` must be a non-empty array of strings (or give `worker.run`, a function)');
      }
      if (!['stdin', 'file', 'argument', 'none'].includes(worker.prompt as string)) problems.push(`\`worker.prompt\` must be one of: stdin, file, argument, none${didYouMeanTail(worker.prompt, ['stdin', 'file', 'argument', 'none'])}`);
    }
    const windowEnv = worker.windowEnv;
    if (!isPlainObject(windowEnv) || typeof windowEnv.hardWindowS !== 'string' || (windowEnv.retryMinS !== undefined && typeof windowEnv.retryMinS !== 'string')) {
      problems.push('`worker.windowEnv` must name the environment variable `hardWindowS` (and `retryMinS` when the contract retries, `idleWindowS` if the worker has idle detection)');
    }
    for (const [key, label] of [['env', '`worker.env`'], ['files', '`worker.files`']] as const) {
      const v = worker[key];
      if (v !== undefined && (!isPlainObject(v) || !Object.values(v).every((x) => typeof x === 'string'))) problems.push(`${label} must map names to strings`);
    }
    if (worker.routeEnv !== undefined && (!isPlainObject(worker.routeEnv) || !Object.values(worker.routeEnv).every((m) => isPlainObject(m) && Object.values(m).every((x) => typeof x === 'string')))) {
      problems.push('`worker.routeEnv` must map route ids to { NAME: value } objects');
    }
    if (worker.tools !== undefined && !(Array.isArray(worker.tools) && worker.tools.every((t) => typeof t === 'string' && t !== ''))) {
      problems.push('`worker.tools` must be an array of tool names (`git`) or paths (`tools/jq`)');
    }
    if (worker.schemaChannel !== undefined && !(isPlainObject(worker.schemaChannel) && Object.values(worker.schemaChannel).every((v) => v === 'flag' || v === 'prompt'))) {
      problems.push('`worker.schemaChannel` must map route ids to "flag" or "prompt" (how the worker hands the schema to the CLI on that route)');
    }
    // A map keyed by route id names routes routecert certifies (a misspelt key was read as no entry:
    // `routeNames: { 'claude-code/stream-jsn': ... }` loaded, then broke the adapter at run time).
    const routeIds = certifiableRoutes();
    for (const key of ['routeNames', 'routeEnv', 'schemaChannel'] as const) {
      const map = worker[key];
      for (const id of isPlainObject(map) ? Object.keys(map) : []) {
        if (!routeIds.includes(id)) problems.push(`unknown route \`${id}\` in \`worker.${key}\` (known: ${routeIds.join(', ')})${didYouMeanTail(id, routeIds)}`);
      }
    }
    const artifact = worker.artifact;
    if (artifact !== undefined && typeof artifact !== 'string') {
      if (!isPlainObject(artifact) || typeof artifact.path !== 'string' || artifact.path === '') problems.push('`worker.artifact` must be a path template or `{ path, select?, strict? }`');
      else {
        if (artifact.select !== undefined && typeof artifact.select !== 'function') problems.push('`worker.artifact.select` must be a function (json) => answer');
        if (artifact.strict !== undefined && typeof artifact.strict !== 'boolean') problems.push('`worker.artifact.strict` must be true or false');
        if (artifact.ignore !== undefined && !(Array.isArray(artifact.ignore) && artifact.ignore.every((k) => typeof k === 'string'))) problems.push('`worker.artifact.ignore` must be an array of member names (`key` or `key[].field`)');
      }
    }
    for (const p of publishMappingProblems(worker.publish)) problems.push(p);
    const artifactPath = isPlainObject(artifact) ? artifact.path : artifact;
    const seeded = isPlainObject(worker.files) ? Object.keys(worker.files) : [];
    const templates = [...(Array.isArray(worker.command) ? worker.command : []), artifactPath, worker.log, ...seeded].filter((t): t is string => typeof t === 'string');
    for (const t of templates) {
      for (const m of t.matchAll(/\{([A-Za-z]+)\}/g)) {
        if (!(PLACEHOLDERS as readonly string[]).includes(m[1]!)) problems.push(`unknown placeholder {${m[1]}} in "${t}" (known: ${PLACEHOLDERS.map((p) => `{${p}}`).join(', ')})${didYouMeanTail(m[1], PLACEHOLDERS).replace(/"([^"]+)"/g, '{$1}')}`);
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
  } else {
    // Said with the other problems, before anything runs (an unknown route came a round later, after the header).
    const known = certifiableRoutes();
    for (const [i, r] of (value.routes as string[]).entries()) {
      if (!known.includes(r)) {
        const near = didYouMean(r, known);
        problems.push(`unknown route \`${r}\` in \`routes[${i}]\` (known: ${known.join(', ')})${near.length > 0 ? `; did you mean ${near.map((n) => `\`${n}\``).join(' or ')}?` : ''}`);
      }
    }
  }
  // A defineContract() with a relative schema path is built when first read: its own problem (an
  // anchor the schema does not declare) is the config's problem, named with the field.
  let contractShaped = true;
  try {
    contractShaped = value.contract === undefined || isPresetName(value.contract) || isContractDefinition(value.contract);
  } catch (error) {
    if (!(error instanceof ContractDefinitionError)) throw error;
    for (const problem of definitionErrorProblems(error)) problems.push(`\`contract\` (the contract the worker is certified against): ${problem}`);
  }
  if (!contractShaped) {
    problems.push(`\`contract\` must be a shipped contract's name (${PRESET_NAMES.join(', ')}), the name of a contract of this config's \`contracts\`, or a contract definition (defineContract({ name, schema, anchor, finality, selection, ... })), not ${JSON.stringify(value.contract)?.slice(0, 80)}${didYouMeanTail(value.contract, [...PRESET_NAMES, ...ownContractNames(value)])}`);
  }
  if (value.concurrency !== undefined && !(Number.isInteger(value.concurrency) && (value.concurrency as number) >= 1)) problems.push('`concurrency` must be a positive integer');
  return problems;
}

/**
 * Problems of a config's `reporters` (what `routecert run --config` reports with): each a built-in
 * reporter name or an object with a `name` and hooks. `[]` when absent or usable.
 */
export function reporterProblems(value: Record<string, unknown>): string[] {
  const problems: string[] = [];
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
 * Import a config file (`.ts`, `.mts`, `.cts`, `.js`, `.mjs`, `.cjs` or `.json`, see
 * {@link importConfigFile}) and check it. The default export is
 * the config (a `config` named export is accepted too).
 *
 * @throws {CertifyConfigError} when the file is missing, does not load, or the config is unusable.
 */
export async function loadConfig(file: string): Promise<LoadedConfig> {
  const { value: config, file: absolute, dir } = await importConfig(file);
  const problems = [...(isPlainObject(config) ? configFieldProblems(config) : []), ...configProblems(config)];
  if (problems.length > 0) throw new CertifyConfigError(`config file ${file} is not usable:\n  - ${problems.join('\n  - ')}\nFix ${file} and run the command again (the fields: README "Certifying a worker").`);
  return { config: config as CertifyConfig, file: absolute, dir };
}

/** The names of the contracts a config's `contracts` defines (a defineContract() or a JSON definition), for a did-you-mean. */
function ownContractNames(value: Record<string, unknown>): string[] {
  return (Array.isArray(value.contracts) ? value.contracts : []).flatMap((entry: unknown) => {
    const def = isPlainObject(entry) && isPlainObject(entry.source) ? entry.source : entry;
    return isPlainObject(def) && typeof def.name === 'string' ? [def.name] : [];
  });
}

/**
 * Every problem of one contract definition of a config, each a sentence naming its field: its
 * `clis` names none of routecert's CLIs (with a did-you-mean), then what defineContract refuses
 * (its fields, its schema file read relative to `dir`, the anchor and finality key against that
 * schema), one per line, and the contract when defineContract built it. `problems` is `[]` when
 * the contract is usable. The one rule for a JSON config's contracts and a .ts config's (whose
 * defineContract refused at import time).
 */
export function checkContractEntry(def: unknown, dir: string): { contract: DefinedContract | null; problems: string[] } {
  const problems: string[] = [];
  let contract: DefinedContract | null = null;
  const known = KNOWN_CLIS.map((k) => k.name);
  for (const cli of isPlainObject(def) && Array.isArray(def.clis) ? def.clis : []) {
    if (typeof cli === 'string' && cli !== '' && !known.includes(cli)) problems.push(`unknown CLI "${cli}" in clis (known: ${known.join(', ')})${didYouMeanTail(cli, known)}`);
  }
  try {
    contract = defineContract(def as ContractDefinition, dir);
  } catch (error) {
    if (!(error instanceof ContractDefinitionError)) throw error;
    pushAll(problems, definitionErrorProblems(error));
  }
  return { contract, problems };
}

/** The problems a {@link ContractDefinitionError} lists (`contract "x" is not usable:\n  - a\n  - b` or `contract "x": a`), one each, without the contract's name. */
function definitionErrorProblems(error: ContractDefinitionError): string[] {
  const text = error.message.replace(/^\[routecert\] /, '');
  const list = text.match(/^[^\n]*? is not usable:\n {2}- ([\s\S]*)$/);
  return list ? list[1]!.split('\n  - ') : [text.replace(/^(?:contract "[^"]*"|a contract): /, '')];
}

/**
 * Import a config file and return its default export (or `config` named export) unchecked, with the
 * file's absolute path and folder.
 *
 * @throws {CertifyConfigError} when the file is missing or does not load.
 */
export async function importConfig(file: string): Promise<{ value: unknown; file: string; dir: string }> {
  const absolute = path.resolve(file);
  try {
    await access(absolute);
  } catch {
    throw new CertifyConfigError(`config file ${path.relative(process.cwd(), absolute) || file} not found: check the path, or write one with \`npx routecert init\` (a routecert.config.ts that default-exports defineConfig({...}))`);
  }
  if (absolute.endsWith('.json')) {
    const text = await readFile(absolute, 'utf8');
    try {
      return { value: JSON.parse(text) as unknown, file: absolute, dir: path.dirname(absolute) };
    } catch (error) {
      throw new CertifyConfigError(`config file ${path.relative(process.cwd(), absolute) || file} is not JSON: ${describeJsonSyntaxError(text, error)}`);
    }
  }
  let module: Record<string, unknown>;
  try {
    module = await whileLoadingConfigFile(() => importConfigFile(absolute));
  } catch (error) {
    // A defineContract({...}) the config calls at import time refused its definition: the config
    // loads, its contract is unusable. Said as for a JSON config: the file, the contract, the field.
    const e = error as Error;
    if (e instanceof ContractDefinitionError || e?.name === 'ContractDefinitionError') {
      // (Only a definition that is not even an object: defineContract defers every other check
      // while a config loads, src/contract/define.ts whileLoadingConfigFile.)
      const shown = path.relative(process.cwd(), absolute) || absolute;
      throw new CertifyConfigError(
        `config file ${shown} is not usable: ${e.message.replace(/^\[routecert\] /, '')}\nFix ${shown} and run the command again (the fields: README "Your own contracts", schemas/contract.schema.json).`,
      );
    }
    throw new CertifyConfigError(`config file ${file} does not load: ${e.message}`);
  }
  const value = module.default ?? module.config;
  if (value === undefined && !/\.json$/i.test(absolute)) {
    // A module that exports no config (`export const x = defineConfig(...)`, or nothing): said as such, not as "must be an object".
    const names = Object.keys(module).filter((k) => k !== 'default');
    throw new CertifyConfigError(`config file ${path.relative(process.cwd(), absolute) || file} has no default export${names.length > 0 ? ` (it exports ${names.slice(0, 5).join(', ')})` : ''}: end it with \`export default defineConfig({...})\``);
  }
  return { value, file: absolute, dir: path.dirname(absolute) };
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
