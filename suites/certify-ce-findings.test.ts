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
 * The adapters are examples/ce-workers/adapters.ts (`ceConfig`), the one module the ce-pov suite,
 * the fail-open copies and `npm run ce:failopen` take theirs from: what they declare instead of code
 * changes (prompt, fixed route, run-folder files, work tree, tools with jq >= 1.7, the Codex schema
 * channel `prompt`, the publish mapping) is written there. Receipt fields are ignored by the meaning
 * comparison.
 *
 * Then copies of the two workers broken the way real ones break are refused, each by the check
 * named for its fault (README "Certifying a worker").
 */
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { certify } from '#src/harness/certify/certify.ts';
import type { LoadedConfig } from '#src/harness/certify/config.ts';
import { whichOnPath } from '#src/harness/shim/tools.ts';
import { projectPath } from '#src/paths.ts';
import { processTracker } from './_helpers/certifyProcesses.ts';
import { CE_FINDINGS_ROUTES, ceConfig, ceJq, ceWorkTree } from '../examples/ce-workers/adapters.ts';

const LONG = 900_000;
const tracker = processTracker();
const UPSTREAM = projectPath('fixtures', 'upstream', 'compound-engineering-plugin');
const codeSkill = process.env.ROUTECERT_CE_CODE_REVIEW || path.join(UPSTREAM, 'skills', 'ce-code-review');
const docSkill = process.env.ROUTECERT_CE_DOC_REVIEW || path.join(UPSTREAM, 'skills', 'ce-doc-review');
const CODE_SCRIPT = 'cross-model-adversarial-review.sh';
const DOC_SCRIPT = 'cross-model-doc-review.sh';
const vendored = !process.env.ROUTECERT_CE_CODE_REVIEW && !process.env.ROUTECERT_CE_DOC_REVIEW;
const missingTools = ['bash', 'python3', 'git'].filter((t) => whichOnPath(t, process.env.PATH ?? '') === null);

const pathJq = whichOnPath('jq', process.env.PATH ?? '');
/** The jq >= 1.7 the workers get (a path where the machine's jq is 1.6), or null: see `ceJq`. */
const JQ = ceJq();

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

function codeReview(route: string, skill = codeSkill): LoadedConfig {
  return ceConfig('code', skill, route, cwd);
}

function docReview(route: string, skill = docSkill): LoadedConfig {
  return ceConfig('doc', skill, route, cwd);
}

type Result = { smoke: { id: string; status: string; evidence: string[] }[]; checks: { id: string; status: string; evidence: string[] }[] };
const failures = (r: Result) => [...r.smoke, ...r.checks].filter((c) => c.status === 'fail').map((c) => `${c.id}: ${c.evidence.join(' | ').slice(0, 800)}`);
const failedIds = (r: Result) => failures(r).map((f) => f.split(':')[0]);

const ROUTES = CE_FINDINGS_ROUTES.filter((r) => r !== 'grok/json' || JQ !== null);
const NO_JQ = 'no jq >= 1.7 here (run `bash .ci/install-jq.sh`, or set ROUTECERT_JQ): under jq 1.6 the workers never publish on grok-cli';

/**
 * What the newest stored snapshot (925b4ef7, v3.23.1; no newer one is stored) fails, measured: both
 * workers publish the review of a Claude envelope with "is_error": true and of a Codex run that
 * ended turn.failed (upstream rejects failed Claude terminal envelopes since #1519, merged after
 * that snapshot); the doc worker runs `codex exec` without --json (it reads only its -o file), so
 * it is not on the codex/jsonl route (output-format). Both check only that `findings` is an array,
 * never its items (`(.findings|type)=="array"`), so a finding without a member its schema requires
 * (`pre_existing`, `evidence`) is published (schema-invalid, measured 2026-12-03 once that check
 * removed a required member from the first item). A newer copy is expected to fail fewer: the
 * list is compared exactly.
 */
const KNOWN: Record<string, Record<string, string[]>> = {
  code: { 'claude-code/stream-json': ['failed-run', 'schema-invalid'], 'codex/jsonl': ['failed-run', 'schema-invalid'], 'grok/json': ['schema-invalid'] },
  doc: { 'claude-code/stream-json': ['failed-run', 'schema-invalid'], 'codex/jsonl': ['failed-run', 'schema-invalid', 'output-format'], 'grok/json': ['schema-invalid'] },
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
