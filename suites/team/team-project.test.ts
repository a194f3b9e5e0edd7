/**
 * Issue 10 "Done when", first two points, as a team lives them: a fresh folder outside the project
 * with its own package.json (no "type" field), routecert installed from this checkout
 * (`npm install <checkout>`), a config defining two contracts for the team's own schemas (one with
 * no finality flag, one with a `done` flag and a retry policy) and a few cases each.
 * `npx routecert run --config ... --cases cases` prints the expected verdicts and exits 0; a wrong
 * expectation exits 1; lint and fuzz work on those schemas; `init` in an empty folder writes a config
 * that `npx routecert run` then passes. (probe --startup --config needs the real CLIs:
 * probes/team-startup.test.ts.)
 *
 * Every folder is under a temporary root this file owns and removes.
 */
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectPath } from '#src/paths.ts';
import { caseId } from '#src/record/caseId.ts';
import type { CaseFile } from '#src/envelope/caseTypes.ts';

let root: string;
let team: string;

const REVIEW_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  additionalProperties: false,
  required: ['summary', 'issues'],
  properties: {
    summary: { type: 'string' },
    issues: { type: 'array', items: { type: 'object', additionalProperties: false, required: ['file', 'problem'], properties: { file: { type: 'string' }, problem: { type: 'string' } } } },
  },
};
const DECISION_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  additionalProperties: false,
  required: ['decision', 'why', 'done'],
  properties: { decision: { type: 'string', enum: ['ship', 'hold'] }, why: { type: 'string' }, done: { type: 'boolean' } },
};

const CONFIG = `import { defineConfig, defineContract } from 'routecert';

export default defineConfig({
  cases: 'cases',
  contracts: [
    defineContract({ name: 'review', schema: 'schemas/review.schema.json', anchor: 'issues', finality: 'none', selection: 'last-shaped', emptyIsAnswer: true, clis: ['claude', 'codex'] }),
    defineContract({
      name: 'decision',
      schema: 'schemas/decision.schema.json',
      anchor: 'decision',
      finality: { key: 'done' },
      selection: 'score',
      retry: { hardWindowMs: 600000, retryMinMs: 60000, paragraph: 'Your previous answer was not done. Answer again with "done": true.' },
      clis: ['claude'],
    }),
  ],
});
`;

function claude(result: string, structured?: unknown, elapsedMs = 1_000): CaseFile['attempts'][number] {
  const doc: Record<string, unknown> = { type: 'result', subtype: 'success', is_error: false, result };
  if (structured !== undefined) doc.structured_output = structured;
  return { stdout: `${JSON.stringify(doc)}\n`, stderr: '', exitCode: 0, signal: null, timedOut: false, elapsedMs };
}

function teamCase(contract: string, description: string, attempts: CaseFile['attempts'], expect: CaseFile['expect']): CaseFile {
  const c: CaseFile = { id: '', description, route: 'claude-code/json', cli: { name: 'claude', version: '2.1.332' }, provenance: { source: 'generated', date: '2026-12-01' }, contract, attempts, expect, tags: ['team'] };
  c.id = caseId(c);
  return c;
}

const REVIEW = { summary: 'Two problems.', issues: [{ file: 'src/a.ts', problem: 'off by one' }] };
const NOTHING = { summary: 'Nothing found.', issues: [] };
const SHIP = { decision: 'ship', why: 'Tests pass.', done: true };
const HOLD_NOT_DONE = { decision: 'hold', why: 'Still reading.', done: false };

const CASES: Record<string, CaseFile> = {
  'review/accepted.json': teamCase('review', 'a review in structured_output', [claude(JSON.stringify(REVIEW), REVIEW)], { verdict: 'accepted', origin: 'structured_output', value: REVIEW }),
  'review/found-nothing.json': teamCase('review', 'an empty issues array is an answer', [claude(JSON.stringify(NOTHING), NOTHING)], { verdict: 'accepted', value: NOTHING }),
  'review/prose.json': teamCase('review', 'prose only', [claude('I ran out of time.')], { verdict: 'dropped-unusable' }),
  'decision/done.json': teamCase('decision', 'a done decision', [claude(JSON.stringify(SHIP), SHIP)], { verdict: 'accepted', origin: 'structured_output', value: SHIP }),
  'decision/retry-then-done.json': teamCase('decision', 'not done, retried, then done', [claude(JSON.stringify(HOLD_NOT_DONE), HOLD_NOT_DONE), claude(JSON.stringify(SHIP), SHIP)], { verdict: 'accepted', attempt: 1 }),
  'decision/missing-done-no-time.json': teamCase('decision', 'done missing, too little time left: fail closed', [claude(JSON.stringify({ decision: 'ship', why: 'x' }), { decision: 'ship', why: 'x' }, 590_000)], { verdict: 'dropped-nonfinal' }),
};

async function npx(cwd: string, ...args: string[]) {
  return execa('npx', ['--no-install', 'routecert', ...args], { cwd, reject: false, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', CI: '' }, timeout: 180_000 });
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'routecert-team-'));
  team = path.join(root, 'team');
  await mkdir(path.join(team, 'schemas'), { recursive: true });
  await writeFile(path.join(team, 'package.json'), JSON.stringify({ name: 'team', version: '1.0.0', private: true }, null, 2));
  const install = await execa('npm', ['install', '--no-audit', '--no-fund', '--offline', projectPath()], { cwd: team, reject: false });
  expect(install.exitCode, install.stderr).toBe(0);
  await writeFile(path.join(team, 'schemas/review.schema.json'), JSON.stringify(REVIEW_SCHEMA, null, 2));
  await writeFile(path.join(team, 'schemas/decision.schema.json'), JSON.stringify(DECISION_SCHEMA, null, 2));
  await writeFile(path.join(team, 'routecert.config.mjs'), CONFIG);
  for (const [file, c] of Object.entries(CASES)) {
    await mkdir(path.dirname(path.join(team, 'cases', file)), { recursive: true });
    await writeFile(path.join(team, 'cases', file), JSON.stringify(c, null, 2));
  }
}, 300_000);

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

describe("a team's own contracts, in a folder of its own", { timeout: 300_000 }, () => {
  it('run --config judges every case by its contract, prints the expected verdicts and exits 0', async () => {
    const r = await npx(team, 'run', '--config', 'routecert.config.mjs', '--cases', 'cases', '--no-probes');
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('6 cases: 6 passed, 0 failed');
    for (const c of Object.values(CASES)) expect(r.stdout).toContain(c.id);
    expect(r.stdout).toMatch(/PASS\s+dropped-nonfinal/);
  });

  it('a wrong expectation exits 1 and says what differs', async () => {
    const wrong = { ...CASES['decision/missing-done-no-time.json']!, expect: { verdict: 'accepted' as const } };
    wrong.id = caseId(wrong);
    const dir = path.join(team, 'cases-wrong');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'wrong.json'), JSON.stringify(wrong, null, 2));
    const r = await npx(team, 'run', '--config', 'routecert.config.mjs', '--cases', 'cases-wrong', '--no-probes');
    expect(r.exitCode, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain('expected verdict accepted, got dropped-nonfinal');
  });

  it('a case naming a contract the config does not define is an error that lists the known ones', async () => {
    const stray = { ...CASES['review/prose.json']!, contract: 'reviw' };
    stray.id = caseId(stray);
    const dir = path.join(team, 'cases-stray');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'stray.json'), JSON.stringify(stray, null, 2));
    const r = await npx(team, 'run', '--config', 'routecert.config.mjs', '--cases', 'cases-stray', '--no-probes');
    expect(r.exitCode).not.toBe(0);
    expect(r.stdout + r.stderr).toContain('unknown contract "reviw". Known contracts: review, decision');
  });

  it('lint --config lints each schema for the CLIs its contract names, and fails on a finding', async () => {
    const clean = await npx(team, 'lint', '--config', 'routecert.config.mjs');
    expect(clean.exitCode, clean.stdout + clean.stderr).toBe(0);
    expect(clean.stdout).toContain('schemas/review.schema.json  ok (profiles: claude-code, codex');
    expect(clean.stdout).toContain('schemas/decision.schema.json  ok (profiles: claude-code;');
    const loose = path.join(team, 'loose');
    await mkdir(path.join(loose, 'schemas'), { recursive: true });
    const { additionalProperties: _a, ...open } = REVIEW_SCHEMA;
    await writeFile(path.join(loose, 'schemas/review.schema.json'), JSON.stringify(open));
    await writeFile(path.join(loose, 'routecert.config.json'), JSON.stringify({ contracts: [{ name: 'review', schema: 'schemas/review.schema.json', anchor: 'issues', finality: 'none', selection: 'last-shaped', clis: ['codex'] }] }));
    const dirty = await npx(loose, 'lint', '--config', 'routecert.config.json');
    expect(dirty.exitCode, dirty.stdout + dirty.stderr).toBe(1);
    expect(dirty.stdout).toContain('codex/additional-properties-false');
  });

  it('fuzz --config generates payloads from each schema and checks each contract', async () => {
    const r = await npx(team, 'fuzz', '--config', 'routecert.config.mjs', '--seed', '7', '--runs', '40');
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('ok   contract:review: 40 runs');
    expect(r.stdout).toContain('ok   contract:decision: 40 runs');
  });

  it('a config error names the file, the contract and the field, and exits 2', async () => {
    const bad = path.join(team, 'bad');
    await mkdir(bad, { recursive: true });
    await writeFile(path.join(bad, 'routecert.config.json'), JSON.stringify({ contracts: [{ name: 'x', schema: 'missing.json', anchor: 'a', finality: 'final', selection: 'score' }] }));
    const r = await npx(bad, 'run', '--config', 'routecert.config.json', '--no-probes');
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('routecert.config.json is not usable');
    expect(r.stderr).toContain('contracts/0 ("x")');
    expect(r.stderr).toContain('`finality` must be { key: "<boolean member>" } or "none"');
  });

  it('init in an empty folder writes a config and cases that `npx routecert run` then passes', async () => {
    const fresh = path.join(root, 'fresh');
    await mkdir(fresh, { recursive: true });
    await writeFile(path.join(fresh, 'package.json'), JSON.stringify({ name: 'fresh', version: '1.0.0', private: true }));
    const install = await execa('npm', ['install', '--no-audit', '--no-fund', '--offline', projectPath()], { cwd: fresh, reject: false });
    expect(install.exitCode, install.stderr).toBe(0);
    await mkdir(path.join(fresh, 'contracts'));
    await writeFile(path.join(fresh, 'contracts/decision.schema.json'), JSON.stringify(DECISION_SCHEMA));
    await writeFile(path.join(fresh, 'contracts/review.schema.json'), JSON.stringify(REVIEW_SCHEMA));
    const init = await npx(fresh, 'init', '--schemas', 'contracts', '--json');
    expect(init.exitCode, init.stdout + init.stderr).toBe(0);
    expect(init.stdout).toContain('decision (anchor decision, finality done)');
    expect(init.stdout).toContain('Next: edit routecert.config.json');
    const config = JSON.parse(await readFile(path.join(fresh, 'routecert.config.json'), 'utf8')) as { contracts: { name: string; retry?: unknown }[] };
    expect(config.contracts.map((c) => c.name)).toEqual(['decision', 'review']);
    expect(config.contracts[0]!.retry).toBeDefined();
    const run = await npx(fresh, 'run', '--no-probes');
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('5 cases: 5 passed');
    const again = await npx(fresh, 'init', '--schemas', 'contracts', '--json');
    expect(again.exitCode, 'nothing to write is not a failure').toBe(0);
    expect(again.stdout).toContain('kept  routecert.config.json (exists, the same as init writes)');
    expect(again.stdout).toContain('nothing written: every starter file exists');
  });
});
