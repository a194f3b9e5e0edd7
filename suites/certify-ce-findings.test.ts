/**
 * The findings workers of compound-engineering-plugin certified unchanged (issue 19): the code-review
 * worker skills/ce-code-review/scripts/cross-model-adversarial-review.sh and the doc-review worker
 * skills/ce-doc-review/scripts/cross-model-doc-review.sh (MIT), run exactly as upstream ships them,
 * on the routes they use, with the bundled corpus and the shipped contracts by name
 * (`contract: 'findings-code'`, `'findings-doc'`). They run from the byte-identical copies of the
 * newest stored snapshot in fixtures/upstream/compound-engineering-plugin/ (PROVENANCE.md: commit
 * 925b4ef7, license, sha256; checked first here); ROUTECERT_CE_CODE_REVIEW / ROUTECERT_CE_DOC_REVIEW
 * point the tests at other copies of the skill folders (a newer snapshot).
 *
 * What the adapters declare instead of code changes: the worker composes its own prompt
 * (`prompt: 'none'`), the fixed route it reads from `CROSS_MODEL_FIXED_ROUTE` (`routeEnv`), the
 * files it needs in its run folder (`files`: the host-vetted review constraints; the reviewed
 * document), a git work tree with a change as its folder, `git` on its PATH, jq >= 1.7 given as a
 * path where the machine's jq is 1.6 (`tools`), and on Codex the schema channel `prompt`
 * (`schemaChannel`: upstream never passes `--output-schema`, research/ce-plugin.md 1.2, Codex bug
 * #4181). The members each worker writes itself whatever the peer answered are declared in the
 * publish mapping (`publish.exclude`): its lens name in `reviewer` (`adversarial-claude`), the
 * `first_evidence` each finding gains, and the doc worker's safe_auto downgrade; no adapter code.
 * Receipt fields are ignored by the meaning comparison.
 *
 * Then copies of the two workers broken the way real ones break are refused, each by the check
 * named for its fault (README "Certifying a worker").
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { certify } from '#src/harness/certify/certify.ts';
import type { LoadedConfig, WorkerAdapter } from '#src/harness/certify/config.ts';
import { whichOnPath } from '#src/harness/shim/tools.ts';
import { projectPath } from '#src/paths.ts';
import { processTracker } from './_helpers/certifyProcesses.ts';
import { ceWorkTree } from '../examples/ce-workers/adapters.ts';

const LONG = 900_000;
const tracker = processTracker();
const UPSTREAM = projectPath('fixtures', 'upstream', 'compound-engineering-plugin');
const codeSkill = process.env.ROUTECERT_CE_CODE_REVIEW || path.join(UPSTREAM, 'skills', 'ce-code-review');
const docSkill = process.env.ROUTECERT_CE_DOC_REVIEW || path.join(UPSTREAM, 'skills', 'ce-doc-review');
const CODE_SCRIPT = 'cross-model-adversarial-review.sh';
const DOC_SCRIPT = 'cross-model-doc-review.sh';
const vendored = !process.env.ROUTECERT_CE_CODE_REVIEW && !process.env.ROUTECERT_CE_DOC_REVIEW;
const missingTools = ['bash', 'python3', 'git'].filter((t) => whichOnPath(t, process.env.PATH ?? '') === null);

/** True when `jq` is 1.7 or later: `jq -e` on empty input exits 4 there, 0 under 1.6 (jqlang/jq#1142). */
function jqAtLeast17(jq: string): boolean {
  try {
    execFileSync('bash', ['-c', 'printf "" | "$0" -e .', jq], { stdio: 'ignore', timeout: 10_000 });
    return false;
  } catch (error) {
    return (error as { status?: number }).status === 4;
  }
}

/**
 * The jq the workers get: ROUTECERT_JQ, else the one `bash .ci/install-jq.sh` puts in
 * .routecert-tools/jq (Debian trixie's jq 1.7.1 with its own libraries; this machine's Debian
 * bookworm has jq 1.6 only), else the jq on PATH, each only when it is 1.7 or later. Under jq 1.6
 * `jq -e` on empty input exits 0, so the workers' grok-cli `.result` probe "succeeds" with an empty
 * file and they never publish there. A path is declared in `worker.tools` (linked as `jq` in place
 * of the one on PATH); the certificate names its version.
 */
const pathJq = whichOnPath('jq', process.env.PATH ?? '');
const JQ = [process.env.ROUTECERT_JQ, projectPath('.routecert-tools', 'jq', 'jq')].find((j): j is string => !!j && existsSync(j) && jqAtLeast17(j))
  ?? (pathJq !== null && jqAtLeast17(pathJq) ? 'jq' : null);

/**
 * Certifying the workers takes about 4 minutes of test time on this 2-core machine, so `npm test`
 * runs only the checksum test; `npm run test:ce` (ROUTECERT_CE=1), or a copy named by
 * ROUTECERT_CE_CODE_REVIEW / ROUTECERT_CE_DOC_REVIEW, runs them.
 */
const CE_ON = process.env.ROUTECERT_CE === '1' || !vendored;
const runnable = CE_ON && missingTools.length === 0 && pathJq !== null;
const why = CE_ON ? `needs ${[...missingTools, ...(pathJq ? [] : ['jq'])].join(', ')}` : 'npm run test:ce runs it (ROUTECERT_CE=1)';
const cwd = runnable ? ceWorkTree(tmpdir()) : '';
const copies = mkdtempSync(path.join(tmpdir(), 'routecert-ce-broken-'));
afterAll(async () => {
  await tracker.expectNoneLeft();
  if (cwd) rmSync(cwd, { recursive: true, force: true });
  rmSync(copies, { recursive: true, force: true });
}, 60_000);

/** The worker's name for each route (its provider key; the artifact is `<lens>-<provider>.json`). */
const PROVIDERS = { 'claude-code/stream-json': 'claude', 'codex/jsonl': 'codex', 'grok/json': 'grok' };
/** The fixed route each route's CLI is reached by (`CROSS_MODEL_FIXED_ROUTE`). */
const FIXED = { 'claude-code/stream-json': { CROSS_MODEL_FIXED_ROUTE: 'claude' }, 'codex/jsonl': { CROSS_MODEL_FIXED_ROUTE: 'codex' }, 'grok/json': { CROSS_MODEL_FIXED_ROUTE: 'grok-cli' } };
/** On Codex both workers put the schema in the prompt (stdin) and never pass --output-schema, by design. */
const SCHEMA_CHANNEL = { 'codex/jsonl': 'prompt' } as const;
/** The tools the certificate names the versions of: the workers call jq and python3 (its recovery scan). */
const TOOLS = ['git', 'python3', JQ ?? 'jq'];

/** The member both workers add to each finding (its first evidence line), declared instead of code. */
const BACKFILL = '/findings/*/first_evidence';

function config(worker: WorkerAdapter, route: string, contract: 'findings-code' | 'findings-doc', schema: string): LoadedConfig {
  return { config: { worker, routes: [route], contract, schema }, file: null, dir: cwd };
}

function codeReview(route: string, skill = codeSkill): LoadedConfig {
  const worker: WorkerAdapter = {
    name: 'ce-code-review cross-model-adversarial-review.sh (unchanged)',
    command: ['bash', path.join(skill, 'scripts', CODE_SCRIPT), 'composer', '{routeArg}', 'HEAD', '{outDir}'],
    prompt: 'none',
    // It writes its own lens name into `reviewer` (`adversarial-<provider>`) whatever the peer
    // answered, and backfills `first_evidence`, by design: declared, no adapter code.
    artifact: '{outDir}/adversarial-{routeArg}.json',
    publish: { exclude: ['/reviewer', BACKFILL] },
    windowEnv: { hardWindowS: 'CROSS_MODEL_HARD_SECS', idleWindowS: 'CROSS_MODEL_IDLE_SECS' },
    env: { CROSS_MODEL_HEARTBEAT_SECS: '60' },
    routeEnv: FIXED,
    files: { '{outDir}/adversarial-review-constraints.md': 'Review only the change; report nothing about style.\n' },
    routeNames: PROVIDERS,
    tools: TOOLS,
    schemaChannel: SCHEMA_CHANNEL,
  };
  return config(worker, route, 'findings-code', path.join(skill, 'references', 'findings-schema.json'));
}

function docReview(route: string, skill = docSkill): LoadedConfig {
  const worker: WorkerAdapter = {
    name: 'ce-doc-review cross-model-doc-review.sh (unchanged)',
    command: ['bash', path.join(skill, 'scripts', DOC_SCRIPT), 'composer', '{routeArg}', 'adversarial', '{runDir}/doc/plan.md', 'plan', 'user', '{outDir}'],
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
    tools: TOOLS,
    schemaChannel: SCHEMA_CHANNEL,
  };
  return config(worker, route, 'findings-doc', path.join(skill, 'references', 'findings-schema.json'));
}

type Result = { smoke: { id: string; status: string; evidence: string[] }[]; checks: { id: string; status: string; evidence: string[] }[] };
const failures = (r: Result) => [...r.smoke, ...r.checks].filter((c) => c.status === 'fail').map((c) => `${c.id}: ${c.evidence.join(' | ').slice(0, 800)}`);
const failedIds = (r: Result) => failures(r).map((f) => f.split(':')[0]);

const ROUTES = Object.keys(PROVIDERS).filter((r) => r !== 'grok/json' || JQ !== null);
const NO_JQ = 'no jq >= 1.7 here (run `bash .ci/install-jq.sh`, or set ROUTECERT_JQ): under jq 1.6 the workers never publish on grok-cli';

/**
 * What the newest stored snapshot (925b4ef7, v3.23.1; no newer one is stored) fails, measured: both
 * workers publish the review of a Claude envelope with "is_error": true and of a Codex run that
 * ended turn.failed (upstream rejects failed Claude terminal envelopes since #1519, merged after
 * that snapshot); the doc worker runs `codex exec` without --json (it reads only its -o file), so
 * it is not on the codex/jsonl route (output-format). A newer copy is expected to fail fewer: the
 * list is compared exactly.
 */
const KNOWN: Record<string, Record<string, string[]>> = {
  code: { 'claude-code/stream-json': ['failed-run'], 'codex/jsonl': ['failed-run'], 'grok/json': [] },
  doc: { 'claude-code/stream-json': ['failed-run'], 'codex/jsonl': ['failed-run', 'output-format'], 'grok/json': [] },
};

describe.skipIf(!vendored)('the vendored upstream workers', () => {
  it('are byte-identical to the snapshot named in PROVENANCE.md (SHA256SUMS)', () => {
    const sums = readFileSync(path.join(UPSTREAM, 'SHA256SUMS'), 'utf8').trim().split('\n');
    expect(sums.length).toBeGreaterThanOrEqual(11);
    for (const line of sums) {
      const [sum, file] = line.split(/\s+/);
      expect(createHash('sha256').update(readFileSync(path.join(UPSTREAM, file!))).digest('hex'), file).toBe(sum);
    }
    expect(readFileSync(path.join(UPSTREAM, 'PROVENANCE.md'), 'utf8')).toContain('925b4ef71cbee0b4205693c4cafc9b2c557a603a');
  });
});

describe.skipIf(!runnable)(`ce-code-review's adversarial worker as upstream ships it${runnable ? '' : ` (skipped: ${why})`}`, () => {
  it.each(ROUTES)('on %s with contract "findings-code", fails only what the snapshot is known to get wrong', async (route) => {
    const { certificate } = await certify(codeReview(route), { onProgress: tracker.track });
    const r = certificate.routes[0]!;
    expect(failedIds(r), failures(r).join('\n')).toEqual(KNOWN.code![route]);
    expect(r.status).toBe(KNOWN.code![route]!.length === 0 ? 'certified' : 'not-certified');
    // The certificate names the tools the worker ran with (jq >= 1.7 where it matters).
    const jq = certificate.header.tools?.find((t) => t.name === 'jq');
    expect(jq?.version).toMatch(route === 'grok/json' ? /^jq-1\.(?:[7-9]|\d\d)/ : /^jq-/);
    expect(certificate.header.tools?.map((t) => t.name)).toEqual(expect.arrayContaining(['bash', 'jq', 'python3']));
  }, LONG);
  if (JQ === null) it.skip(`on grok/json (skipped: ${NO_JQ})`, () => {});
});

describe.skipIf(!runnable)(`ce-doc-review's worker as upstream ships it${runnable ? '' : ` (skipped: ${why})`}`, () => {
  it.each(ROUTES)('on %s with contract "findings-doc", fails only what the snapshot is known to get wrong', async (route) => {
    const { certificate } = await certify(docReview(route), { onProgress: tracker.track });
    const r = certificate.routes[0]!;
    expect(failedIds(r), failures(r).join('\n')).toEqual(KNOWN.doc![route]);
    expect(r.status).toBe(KNOWN.doc![route]!.length === 0 ? 'certified' : 'not-certified');
  }, LONG);
  if (JQ === null) it.skip(`on grok/json (skipped: ${NO_JQ})`, () => {});
});

/**
 * A copy of a worker's skill folder with `edits` applied to its script (each `[from, to]` must occur:
 * an edit that no longer applies to a newer upstream fails the test instead of testing nothing).
 */
function brokenCopy(skill: string, script: string, name: string, edits: readonly (readonly [string, string])[]): string {
  const dir = path.join(copies, name);
  cpSync(skill, dir, { recursive: true });
  const file = path.join(dir, 'scripts', script);
  let text = readFileSync(file, 'utf8');
  for (const [from, to] of edits) {
    if (!text.includes(from)) throw new Error(`${name}: ${script} no longer has ${JSON.stringify(from)}`);
    text = text.split(from).join(to);
  }
  writeFileSync(file, text);
  return dir;
}

/**
 * Faults real workers have, each put into both upstream workers, with the route it shows on (one the
 * unchanged worker passes that check on) and the check named for it. README "Certifying a worker"
 * lists them.
 */
const FAULTS: { name: string; route: string; check: string; edits: (readonly [string, string])[] }[] = [
  // A run that exited non-zero is read as a success (`|| true` after the wait).
  { name: 'ignores-exit-status', route: 'grok/json', check: 'failed-run', edits: [['if wait "$pid" 2>/dev/null; then RUN_SUCCEEDED=true', 'if wait "$pid" 2>/dev/null || true; then RUN_SUCCEEDED=true']] },
  // The peer's stderr is thrown away: a CLI's error message never reaches the log.
  { name: 'drops-stderr', route: 'grok/json', check: 'stderr-short', edits: [['2>"$PEERERR" &', '2>/dev/null &']] },
  // SIGTERM ignored: the worker outlives its caller's deadline and leaves its peer running.
  { name: 'ignores-term', route: 'grok/json', check: 'term-honoured', edits: [["trap 'on_term' TERM INT", "trap '' TERM INT"]] },
  // The first shaped review is kept instead of the last (every place the worker chooses one).
  {
    name: 'first-shaped',
    route: 'grok/json',
    check: 'last-shaped-wins',
    edits: [
      ['select(.findings|length>0)] | last) // last', 'select(.findings|length>0)] | first) // first'],
      ['    best = top[-1]', '    best = top[0]'],
      ["grep -a '\"type\":\"result\"' \"$1\" 2>/dev/null | tail -1", "grep -a '\"type\":\"result\"' \"$1\" 2>/dev/null | head -1"],
    ],
  },
  // The schema is left out of the prompt on Codex (the worker's declared schema channel there).
  { name: 'schema-not-in-prompt', route: 'codex/jsonl', check: 'schema-sent', edits: [['printf \'%s\' "$SCHEMA_CONTENT"', "printf '%s' ''"]] },
];

describe.skipIf(!runnable || JQ === null)('broken copies of the two findings workers are refused, each by the check named for its fault', () => {
  const cases = FAULTS.flatMap((f) => [
    { ...f, worker: 'code' as const },
    { ...f, worker: 'doc' as const },
  ]);
  it.each(cases)('$worker worker $name on $route: fails $check', async ({ name, route, check, edits, worker }) => {
    const skill = worker === 'code' ? brokenCopy(codeSkill, CODE_SCRIPT, `code-${name}`, edits) : brokenCopy(docSkill, DOC_SCRIPT, `doc-${name}`, edits);
    const { certificate } = await certify(worker === 'code' ? codeReview(route, skill) : docReview(route, skill), { checks: [check], onProgress: tracker.track });
    const r = certificate.routes[0]!;
    expect(failedIds(r), failures(r).join('\n')).toEqual([check]);
  }, LONG);
});
