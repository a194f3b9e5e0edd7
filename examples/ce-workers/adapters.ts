/**
 * The one adapter module of compound-engineering-plugin's three peer workers (MIT;
 * research/ce-plugin.md), as routecert certifies them unchanged: ce-pov's
 * `scripts/cross-model-pov.sh` (contract `pov`), ce-code-review's
 * `scripts/cross-model-adversarial-review.sh` (`findings-code`) and ce-doc-review's
 * `scripts/cross-model-doc-review.sh` (`findings-doc`). suites/certify-ce-pov.test.ts,
 * suites/certify-ce-findings.test.ts, suites/certify-ce-failopen.test.ts and ./failopen.ts
 * (`npm run ce:failopen`) all take their adapters from here. Each adapter takes the skill folder (a
 * copy is fine: the fail-open and broken copies are patched copies) and the folder the worker runs in.
 *
 * What the adapters declare instead of code changes:
 * - ce-pov: the prompt as a file, the route argument it takes (grok/json is its `grok-cli` route,
 *   published as pov-grok.json), its window variables, and `artifact.select` undoing the `voice`
 *   namespace it adds ("peer" -> "peer-claude"); its receipt fields are ignored by the meaning
 *   comparison;
 * - the findings workers compose their own prompt (`prompt: 'none'`), read their fixed route from
 *   `CROSS_MODEL_FIXED_ROUTE` (`routeEnv`), need files in their run folder (`files`: the host-vetted
 *   review constraints; the reviewed document), a git work tree with a change ({@link ceWorkTree}),
 *   `git` and python3 on their PATH and jq >= 1.7 given as a path where the machine's jq is 1.6
 *   (`tools`, {@link ceJq}), and on Codex the schema channel `prompt` (`schemaChannel`: upstream
 *   never passes `--output-schema`, research/ce-plugin.md 1.2, Codex bug #4181). The members each
 *   worker writes itself whatever the peer answered are its publish mapping (`publish.exclude`):
 *   its lens name in `reviewer` (`adversarial-claude`), the `first_evidence` each finding gains,
 *   and the doc worker's safe_auto downgrade.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ArtifactAdapter, LoadedConfig, WorkerAdapter } from '../../src/harness/certify/config.ts';
import { whichOnPath } from '../../src/harness/shim/tools.ts';
import { projectPath } from '../../src/paths.ts';

/** The three workers: their skill folder in a plugin checkout, their script and their contract. */
export const CE_WORKERS = {
  pov: { skill: 'skills/ce-pov', script: 'scripts/cross-model-pov.sh', contract: 'pov' },
  code: { skill: 'skills/ce-code-review', script: 'scripts/cross-model-adversarial-review.sh', contract: 'findings-code' },
  doc: { skill: 'skills/ce-doc-review', script: 'scripts/cross-model-doc-review.sh', contract: 'findings-doc' },
} as const;

export type CeWorker = keyof typeof CE_WORKERS;

/** The route argument ce-pov takes on each route, and the name it publishes under (`pov-<name>.json`). */
const POV_ROUTES: Record<string, { routeArg: string; target: string }> = {
  'claude-code/stream-json': { routeArg: 'claude', target: 'claude' },
  'codex/jsonl': { routeArg: 'codex', target: 'codex' },
  'grok/json': { routeArg: 'grok-cli', target: 'grok' },
  'cursor-agent/stream-json': { routeArg: 'cursor', target: 'cursor' },
};

/** The findings workers' name for each route they run on (their provider key; the artifact is `adversarial-<provider>.json`). */
const FINDINGS_PROVIDERS: Record<string, string> = { 'claude-code/stream-json': 'claude', 'codex/jsonl': 'codex', 'grok/json': 'grok' };

/** The routes the findings workers are certified on. */
export const CE_FINDINGS_ROUTES: readonly string[] = Object.keys(FINDINGS_PROVIDERS);

/** The fixed route each route's CLI is reached by (`CROSS_MODEL_FIXED_ROUTE`). */
const FIXED: Record<string, Record<string, string>> = {
  'claude-code/stream-json': { CROSS_MODEL_FIXED_ROUTE: 'claude' },
  'codex/jsonl': { CROSS_MODEL_FIXED_ROUTE: 'codex' },
  'grok/json': { CROSS_MODEL_FIXED_ROUTE: 'grok-cli' },
};

/** On Codex both findings workers put the schema in the prompt (stdin) and never pass --output-schema, by design. */
const SCHEMA_CHANNEL = { 'codex/jsonl': 'prompt' } as const;

/** The member both findings workers add to each finding (its first evidence line), declared instead of code. */
const BACKFILL = '/findings/*/first_evidence';

/** True when `jq` is 1.7 or later: `jq -e` on empty input exits 4 there, 0 under 1.6 (jqlang/jq#1142). */
function jqAtLeast17(jq: string): boolean {
  try {
    execFileSync('bash', ['-c', 'printf "" | "$0" -e .', jq], { stdio: 'ignore', timeout: 10_000 });
    return false;
  } catch (error) {
    return (error as { status?: number }).status === 4;
  }
}

let jqFound: { jq: string | null } | undefined;

/**
 * The jq the findings workers get: ROUTECERT_JQ, else the one `bash .ci/install-jq.sh` puts in
 * .routecert-tools/jq (Debian trixie's jq 1.7.1 with its own libraries; this machine's Debian
 * bookworm has jq 1.6 only), else the jq on PATH (`'jq'`), each only when it is 1.7 or later; `null`
 * when none is. Under jq 1.6 `jq -e` on empty input exits 0, so the workers' grok-cli `.result`
 * probe "succeeds" with an empty file and they never publish there. A path is declared in
 * `worker.tools` (linked as `jq` in place of the one on PATH); the certificate names its version.
 * Looked up once per process.
 */
export function ceJq(): string | null {
  if (jqFound === undefined) {
    const pathJq = whichOnPath('jq', process.env.PATH ?? '');
    const jq = [process.env.ROUTECERT_JQ, projectPath('.routecert-tools', 'jq', 'jq')].find((j): j is string => !!j && existsSync(j) && jqAtLeast17(j))
      ?? (pathJq !== null && jqAtLeast17(pathJq) ? 'jq' : null);
    jqFound = { jq };
  }
  return jqFound.jq;
}

/**
 * A git work tree with one committed file and an uncommitted change to it (the diff the code review
 * reads), made under `root`; ce-pov needs only a folder outside its own repository.
 */
export function ceWorkTree(root: string): string {
  const dir = mkdtempSync(path.join(root, 'work-'));
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=routecert', '-c', 'user.email=routecert@example.invalid', ...args], { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  writeFileSync(path.join(dir, 'retry.ts'), 'export const remaining = (window: number, start: number) => window - start;\n');
  git('add', '.');
  git('commit', '-qm', 'base');
  writeFileSync(path.join(dir, 'retry.ts'), 'export const remaining = (window: number, _start: number) => window;\n');
  return dir;
}

/** Options of {@link ceConfig}: `artifact` overrides members of the pov adapter's artifact (e.g. `select`). */
export interface CeConfigOptions {
  artifact?: Partial<ArtifactAdapter>;
}

/** ce-pov's published POV mapped back to the peer's answer: its `voice` namespace ("peer-claude") undone. */
function povSelect(json: unknown): unknown {
  const o = json as Record<string, unknown>;
  return { ...o, voice: typeof o.voice === 'string' ? o.voice.replace(/^peer-[a-z]+$/, 'peer') : o.voice };
}

function povAdapter(script: string, route: string, artifact: Partial<ArtifactAdapter> = {}): WorkerAdapter {
  const names = POV_ROUTES[route];
  if (!names) throw new Error(`ce-pov has no route ${route}; routes: ${Object.keys(POV_ROUTES).join(', ')}`);
  return {
    name: 'ce-pov cross-model-pov.sh',
    command: ['bash', script, 'unknown', '{routeArg}', '{prompt}', '{outDir}'],
    prompt: 'file',
    artifact: { path: `{outDir}/pov-${names.target}.json`, select: povSelect, ...artifact },
    windowEnv: { hardWindowS: 'CROSS_MODEL_HARD_SECS', retryMinS: 'CROSS_MODEL_RETRY_MIN_SECS', idleWindowS: 'CROSS_MODEL_IDLE_SECS' },
    routeNames: { [route]: names.routeArg },
    tools: ['jq', 'python3'],
  };
}

function findingsAdapter(worker: 'code' | 'doc', script: string): WorkerAdapter {
  const code = worker === 'code';
  return {
    name: code ? 'ce-code-review cross-model-adversarial-review.sh' : 'ce-doc-review cross-model-doc-review.sh',
    command: code
      ? ['bash', script, 'composer', '{routeArg}', 'HEAD', '{outDir}']
      : ['bash', script, 'composer', '{routeArg}', 'adversarial', '{runDir}/doc/plan.md', 'plan', 'user', '{outDir}'],
    prompt: 'none',
    // Each writes its own lens name into `reviewer` (`adversarial-<provider>`) whatever the peer
    // answered and backfills `first_evidence`; the doc worker also downgrades safe_auto findings to
    // gated_auto. By design: declared as members it sets itself, no adapter code.
    artifact: '{outDir}/adversarial-{routeArg}.json',
    publish: { exclude: code ? ['/reviewer', BACKFILL] : ['/reviewer', '/findings/*/autofix_class', BACKFILL] },
    windowEnv: { hardWindowS: 'CROSS_MODEL_HARD_SECS', idleWindowS: 'CROSS_MODEL_IDLE_SECS' },
    env: { CROSS_MODEL_HEARTBEAT_SECS: '60' },
    routeEnv: FIXED,
    files: code
      ? { '{outDir}/adversarial-review-constraints.md': 'Review only the change; report nothing about style.\n' }
      : { '{runDir}/doc/plan.md': '# Plan\n\nRetry once when the answer is not final, if at least 60 s of the window remain.\n' },
    routeNames: FINDINGS_PROVIDERS,
    // The tools the certificate names the versions of: the workers call jq and python3 (its recovery scan).
    tools: ['git', 'python3', ceJq() ?? 'jq'],
    schemaChannel: SCHEMA_CHANNEL,
  };
}

/**
 * The certification config of `worker` (its skill folder at `skill`, the upstream one or a patched
 * copy) on `route`, run in folder `cwd`, with the worker's own schema and contract.
 *
 * @throws {Error} when ce-pov has no route of that name.
 */
export function ceConfig(worker: CeWorker, skill: string, route: string, cwd: string, options: CeConfigOptions = {}): LoadedConfig {
  const w = CE_WORKERS[worker];
  const script = path.join(skill, w.script);
  const adapter = worker === 'pov' ? povAdapter(script, route, options.artifact) : findingsAdapter(worker, script);
  const schema = path.join(skill, 'references', worker === 'pov' ? 'pov-schema.json' : 'findings-schema.json');
  return { config: { worker: adapter, routes: [route], contract: w.contract, schema }, file: null, dir: cwd };
}
