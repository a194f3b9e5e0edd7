/**
 * The findings workers of compound-engineering-plugin certified unchanged (issue 19): the code-review
 * worker skills/ce-code-review/scripts/cross-model-adversarial-review.sh and the doc-review worker
 * skills/ce-doc-review/scripts/cross-model-doc-review.sh (MIT; research/ce-plugin.md), run exactly
 * as upstream ships them, on the routes they use, with the bundled corpus and the shipped contracts
 * by name (`contract: 'findings-code'`, `'findings-doc'`). Their code is not in this repository and
 * this test fetches nothing: set ROUTECERT_CE_CODE_REVIEW and ROUTECERT_CE_DOC_REVIEW to copies of
 * their skill folders (README "Certifying a worker" says how); without them the tests are skipped,
 * saying so.
 *
 * What the adapters declare instead of code changes: the worker composes its own prompt
 * (`prompt: 'none'`), the fixed route it reads from `CROSS_MODEL_FIXED_ROUTE` (`routeEnv`), the
 * files it needs in its run folder (`files`: the host-vetted review constraints; the reviewed
 * document), a git work tree with a change as its folder, and `git` on its PATH. Its artifact is
 * namespaced (`reviewer: "adversarial-claude"`) and each finding gains `first_evidence` (its first
 * evidence line): the publish mapping declares the backfill (`publish.exclude`), `artifact.select`
 * undoes the code worker's namespace; the doc worker needs no code (its `reviewer` is its lens name,
 * excluded). Receipt fields are ignored by the meaning comparison.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { certify } from '#src/harness/certify/certify.ts';
import type { LoadedConfig, WorkerAdapter } from '#src/harness/certify/config.ts';
import { whichOnPath } from '#src/harness/shim/tools.ts';
import { processTracker } from './_helpers/certifyProcesses.ts';

const LONG = 900_000;
const tracker = processTracker();
const codeSkill = process.env.ROUTECERT_CE_CODE_REVIEW ?? '';
const docSkill = process.env.ROUTECERT_CE_DOC_REVIEW ?? '';
const codeScript = path.join(codeSkill, 'scripts', 'cross-model-adversarial-review.sh');
const docScript = path.join(docSkill, 'scripts', 'cross-model-doc-review.sh');
const missingTools = ['bash', 'jq', 'python3', 'git'].filter((t) => whichOnPath(t, process.env.PATH ?? '') === null);

/** A git work tree with one committed file and an uncommitted change to it (the diff the code review reads). */
function workTree(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'routecert-ce-findings-'));
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=routecert', '-c', 'user.email=routecert@example.invalid', ...args], { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  writeFileSync(path.join(dir, 'retry.ts'), 'export const remaining = (window: number, start: number) => window - start;\n');
  git('add', '.');
  git('commit', '-qm', 'base');
  writeFileSync(path.join(dir, 'retry.ts'), 'export const remaining = (window: number, _start: number) => window;\n');
  return dir;
}

const cwd = (codeSkill || docSkill) && missingTools.length === 0 ? workTree() : '';
afterAll(async () => {
  await tracker.expectNoneLeft();
  if (cwd) rmSync(cwd, { recursive: true, force: true });
}, 60_000);

/** The worker's name for each route (its provider key; the artifact is `<lens>-<provider>.json`). */
const PROVIDERS = { 'claude-code/stream-json': 'claude', 'codex/jsonl': 'codex', 'grok/json': 'grok' };
/** The fixed route each route's CLI is reached by (`CROSS_MODEL_FIXED_ROUTE`). */
const FIXED = { 'claude-code/stream-json': { CROSS_MODEL_FIXED_ROUTE: 'claude' }, 'codex/jsonl': { CROSS_MODEL_FIXED_ROUTE: 'codex' }, 'grok/json': { CROSS_MODEL_FIXED_ROUTE: 'grok-cli' } };

/** The published review's reviewer namespace ("adversarial-claude") undone: a value rewrite, which only adapter code can do. */
function unNamespace(json: unknown): unknown {
  const o = json as Record<string, unknown>;
  return { ...o, reviewer: typeof o.reviewer === 'string' ? o.reviewer.replace(/-(?:claude|codex|grok|composer|cursor)$/, '') : o.reviewer };
}

/** The member both workers add to each finding (its first evidence line), declared instead of code. */
const BACKFILL = '/findings/*/first_evidence';

function config(worker: WorkerAdapter, route: string, contract: 'findings-code' | 'findings-doc', schema: string): LoadedConfig {
  return { config: { worker, routes: [route], contract, schema }, file: null, dir: cwd };
}

function codeReview(route: string): LoadedConfig {
  const worker: WorkerAdapter = {
    name: 'ce-code-review cross-model-adversarial-review.sh (unchanged)',
    command: ['bash', codeScript, 'composer', '{routeArg}', 'HEAD', '{outDir}'],
    prompt: 'none',
    artifact: { path: '{outDir}/adversarial-{routeArg}.json', select: unNamespace },
    publish: { exclude: [BACKFILL] },
    windowEnv: { hardWindowS: 'CROSS_MODEL_HARD_SECS', idleWindowS: 'CROSS_MODEL_IDLE_SECS' },
    env: { CROSS_MODEL_HEARTBEAT_SECS: '60' },
    routeEnv: FIXED,
    files: { '{outDir}/adversarial-review-constraints.md': 'Review only the change; report nothing about style.\n' },
    routeNames: PROVIDERS,
    tools: ['git'],
  };
  return config(worker, route, 'findings-code', path.join(codeSkill, 'references', 'findings-schema.json'));
}

function docReview(route: string): LoadedConfig {
  const worker: WorkerAdapter = {
    name: 'ce-doc-review cross-model-doc-review.sh (unchanged)',
    command: ['bash', docScript, 'composer', '{routeArg}', 'adversarial', '{runDir}/doc/plan.md', 'plan', 'user', '{outDir}'],
    prompt: 'none',
    // It writes its lens name into `reviewer` and downgrades safe_auto findings to gated_auto, by
    // design: declared, with the backfill, as members it sets itself; no adapter code.
    artifact: '{outDir}/adversarial-{routeArg}.json',
    publish: { exclude: ['/reviewer', '/findings/*/autofix_class', BACKFILL] },
    windowEnv: { hardWindowS: 'CROSS_MODEL_HARD_SECS', idleWindowS: 'CROSS_MODEL_IDLE_SECS' },
    env: { CROSS_MODEL_HEARTBEAT_SECS: '60' },
    routeEnv: FIXED,
    files: { '{runDir}/doc/plan.md': '# Plan\n\nRetry once when the answer is not final, if at least 60 s of the window remain.\n' },
    routeNames: PROVIDERS,
    tools: ['git'],
  };
  return config(worker, route, 'findings-doc', path.join(docSkill, 'references', 'findings-schema.json'));
}

const failures = (r: { smoke: { id: string; status: string; evidence: string[] }[]; checks: { id: string; status: string; evidence: string[] }[] }) =>
  [...r.smoke, ...r.checks].filter((c) => c.status === 'fail').map((c) => `${c.id}: ${c.evidence.join(' | ').slice(0, 800)}`);

/**
 * Under jq 1.6, `jq -e` on empty input exits 0 (jqlang/jq#1142, fixed in jq 1.7), so the workers'
 * grok-cli `.result` probe "succeeds" with an empty file and nothing is ever published there.
 */
const jqEmptyExitsZero = missingTools.length === 0 && (() => {
  try {
    execFileSync('bash', ['-c', "printf '' | jq -e ."], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const ROUTES = Object.keys(PROVIDERS).filter((r) => r !== 'grok/json' || !jqEmptyExitsZero);

/**
 * What the stored snapshot (925b4ef7, v3.23.1) fails, measured: both workers publish the review of a
 * Claude envelope with "is_error": true and of a Codex run that ended turn.failed (upstream rejects
 * failed Claude terminal envelopes since #1519, after that snapshot); on Codex they put the schema in
 * the prompt, not --output-schema (schema-sent); the doc worker's codex argv lacks the route's --json
 * (output-format). A newer copy is expected to fail fewer: the list is compared exactly.
 */
const KNOWN: Record<string, Record<string, string[]>> = {
  code: { 'claude-code/stream-json': ['failed-run'], 'codex/jsonl': ['failed-run', 'schema-sent'], 'grok/json': [] },
  doc: { 'claude-code/stream-json': ['failed-run'], 'codex/jsonl': ['failed-run', 'output-format', 'schema-sent'], 'grok/json': [] },
};

describe.skipIf(!existsSync(codeScript) || missingTools.length > 0)(
  `ce-code-review's adversarial worker as upstream ships it${existsSync(codeScript) ? '' : ' (skipped: set ROUTECERT_CE_CODE_REVIEW to a copy of compound-engineering-plugin skills/ce-code-review)'}`,
  () => {
    it.each(ROUTES)('on %s with contract "findings-code", fails only what the snapshot is known to get wrong', async (route) => {
      const { certificate } = await certify(codeReview(route), { onProgress: tracker.track });
      const r = certificate.routes[0]!;
      expect(failures(r).map((f) => f.split(':')[0]), failures(r).join('\n')).toEqual(KNOWN.code![route]);
      expect(r.status).toBe(KNOWN.code![route]!.length === 0 ? 'certified' : 'not-certified');
    }, LONG);
  },
);

describe.skipIf(!existsSync(docScript) || missingTools.length > 0)(
  `ce-doc-review's worker as upstream ships it${existsSync(docScript) ? '' : ' (skipped: set ROUTECERT_CE_DOC_REVIEW to a copy of compound-engineering-plugin skills/ce-doc-review)'}`,
  () => {
    it.each(ROUTES)('on %s with contract "findings-doc", fails only what the snapshot is known to get wrong', async (route) => {
      const { certificate } = await certify(docReview(route), { onProgress: tracker.track });
      const r = certificate.routes[0]!;
      expect(failures(r).map((f) => f.split(':')[0]), failures(r).join('\n')).toEqual(KNOWN.doc![route]);
      expect(r.status).toBe(KNOWN.doc![route]!.length === 0 ? 'certified' : 'not-certified');
    }, LONG);
  },
);
