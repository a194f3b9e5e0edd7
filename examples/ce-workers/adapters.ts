/**
 * The adapters of compound-engineering-plugin's three peer workers (MIT; research/ce-plugin.md), as
 * routecert certifies them unchanged (suites/certify-ce-pov.test.ts, suites/certify-ce-findings.test.ts
 * hold the same adapters): ce-pov's `scripts/cross-model-pov.sh` (contract `pov`), ce-code-review's
 * `scripts/cross-model-adversarial-review.sh` (`findings-code`) and ce-doc-review's
 * `scripts/cross-model-doc-review.sh` (`findings-doc`). Each takes the skill folder (a copy is
 * fine: the fail-open machinery of ./failopen.ts passes patched copies) and the folder the worker
 * runs in.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LoadedConfig, WorkerAdapter } from '../../src/harness/certify/config.ts';

/** The three workers: their skill folder in a plugin checkout, their script and their contract. */
export const CE_WORKERS = {
  pov: { skill: 'skills/ce-pov', script: 'scripts/cross-model-pov.sh', contract: 'pov' },
  code: { skill: 'skills/ce-code-review', script: 'scripts/cross-model-adversarial-review.sh', contract: 'findings-code' },
  doc: { skill: 'skills/ce-doc-review', script: 'scripts/cross-model-doc-review.sh', contract: 'findings-doc' },
} as const;

export type CeWorker = keyof typeof CE_WORKERS;

/** The workers' name for each route (their provider key; the artifact is `<name>-<provider>.json`). */
const PROVIDERS: Record<string, string> = { 'claude-code/stream-json': 'claude', 'codex/jsonl': 'codex', 'grok/json': 'grok', 'cursor-agent/stream-json': 'cursor' };
/** The route argument ce-pov takes (grok-cli publishes pov-grok.json). */
const POV_ROUTES: Record<string, string> = { 'claude-code/stream-json': 'claude', 'codex/jsonl': 'codex', 'grok/json': 'grok-cli', 'cursor-agent/stream-json': 'cursor' };
/** The fixed route the findings workers read from `CROSS_MODEL_FIXED_ROUTE`. */
const FIXED: Record<string, Record<string, string>> = {
  'claude-code/stream-json': { CROSS_MODEL_FIXED_ROUTE: 'claude' },
  'codex/jsonl': { CROSS_MODEL_FIXED_ROUTE: 'codex' },
  'grok/json': { CROSS_MODEL_FIXED_ROUTE: 'grok-cli' },
};

/** ce-pov's published POV mapped back to the peer's answer: its `voice` namespace ("peer-claude") undone. */
function povSelect(json: unknown): unknown {
  const o = json as Record<string, unknown>;
  return { ...o, voice: typeof o.voice === 'string' ? o.voice.replace(/^peer-[a-z]+$/, 'peer') : o.voice };
}

/** A published review mapped back to the peer's answer: the reviewer namespace and the backfilled `first_evidence` undone. */
function reviewSelect(json: unknown): unknown {
  const o = json as Record<string, unknown>;
  const findings = Array.isArray(o.findings)
    ? o.findings.map((f: unknown) => {
        if (typeof f !== 'object' || f === null) return f;
        const { first_evidence: first, ...rest } = f as Record<string, unknown>;
        const evidence = (rest as { evidence?: unknown }).evidence;
        return Array.isArray(evidence) && evidence[0] === first ? rest : f;
      })
    : o.findings;
  return { ...o, reviewer: typeof o.reviewer === 'string' ? o.reviewer.replace(/-(?:claude|codex|grok|composer|cursor)$/, '') : o.reviewer, findings };
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

/** The adapter of `worker` (its skill folder at `skill`) on `route`, run in folder `cwd`. */
export function ceConfig(worker: CeWorker, skill: string, route: string, cwd: string): LoadedConfig {
  const w = CE_WORKERS[worker];
  const script = path.join(skill, w.script);
  let adapter: WorkerAdapter;
  let schema: string;
  if (worker === 'pov') {
    const routeArg = POV_ROUTES[route]!;
    adapter = {
      name: 'ce-pov cross-model-pov.sh',
      command: ['bash', script, 'unknown', '{routeArg}', '{prompt}', '{outDir}'],
      prompt: 'file',
      artifact: { path: `{outDir}/pov-${PROVIDERS[route]!}.json`, select: povSelect },
      windowEnv: { hardWindowS: 'CROSS_MODEL_HARD_SECS', retryMinS: 'CROSS_MODEL_RETRY_MIN_SECS', idleWindowS: 'CROSS_MODEL_IDLE_SECS' },
      routeNames: { [route]: routeArg },
    };
    schema = path.join(skill, 'references', 'pov-schema.json');
  } else {
    const code = worker === 'code';
    adapter = {
      name: code ? 'ce-code-review cross-model-adversarial-review.sh' : 'ce-doc-review cross-model-doc-review.sh',
      command: code
        ? ['bash', script, 'composer', '{routeArg}', 'HEAD', '{outDir}']
        : ['bash', script, 'composer', '{routeArg}', 'adversarial', '{runDir}/doc/plan.md', 'plan', 'user', '{outDir}'],
      prompt: 'none',
      // The doc worker writes its lens name into `reviewer` and downgrades safe_auto findings to gated_auto, by design.
      artifact: { path: '{outDir}/adversarial-{routeArg}.json', select: reviewSelect, ...(code ? {} : { ignore: ['reviewer', 'findings[].autofix_class'] }) },
      windowEnv: { hardWindowS: 'CROSS_MODEL_HARD_SECS', idleWindowS: 'CROSS_MODEL_IDLE_SECS' },
      env: { CROSS_MODEL_HEARTBEAT_SECS: '60' },
      routeEnv: FIXED,
      files: code
        ? { '{outDir}/adversarial-review-constraints.md': 'Review only the change; report nothing about style.\n' }
        : { '{runDir}/doc/plan.md': '# Plan\n\nRetry once when the answer is not final, if at least 60 s of the window remain.\n' },
      routeNames: PROVIDERS,
      tools: ['git'],
    };
    schema = path.join(skill, 'references', 'findings-schema.json');
  }
  return { config: { worker: adapter, routes: [route], contract: w.contract, schema }, file: null, dir: cwd };
}
