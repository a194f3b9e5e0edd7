/**
 * A team's first day (issue 22), spawned as a user runs the CLI: `record --from` turns a pasted
 * capture into a redacted case judged at once; `record --config` records the team's contract
 * through a real CLI against the mock (when the pinned CLIs are installed); a config error names
 * the file, the field and the next step, never a stack trace, whichever command loads it;
 * `certify` finds routecert.config.json by itself; `lint` warnings pass unless `--max-warnings`.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectPath } from '#src/paths.ts';
import { execa } from 'execa';
import { copyCorpus, onlyRun, routecert, routecertInProcess, tempRoot } from './cliTestKit.ts';

let root: Awaited<ReturnType<typeof tempRoot>>;

/** A public schema no one on the project wrote: the review schema of OpenAI's cookbook "Build Code Review with the Codex SDK" (trimmed to its top level plus one nested object). */
const REVIEW_SCHEMA = {
  type: 'object',
  properties: {
    findings: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          title: { type: 'string', maxLength: 80 },
          body: { type: 'string', minLength: 1 },
          confidence_score: { type: 'number', minimum: 0, maximum: 1 },
          priority: { type: 'integer', minimum: 0, maximum: 3 },
        },
        required: ['title', 'body', 'confidence_score', 'priority'],
        additionalProperties: false,
      },
    },
    overall_correctness: { type: 'string', enum: ['patch is correct', 'patch is incorrect'] },
    overall_explanation: { type: 'string', minLength: 1 },
    overall_confidence_score: { type: 'number', minimum: 0, maximum: 1 },
  },
  required: ['findings', 'overall_correctness', 'overall_explanation', 'overall_confidence_score'],
  additionalProperties: false,
};

const contract = (anchor: string, clis: string[] = ['claude']) => ({ name: 'review', schema: 'schemas/review.schema.json', anchor, finality: 'none', selection: 'last-shaped', emptyIsAnswer: true, clis });

/** A team folder with the review schema and a JSON config holding `config`. */
async function team(name: string, config: Record<string, unknown>): Promise<string> {
  const dir = path.join(root.dir, name);
  await mkdir(path.join(dir, 'schemas'), { recursive: true });
  await writeFile(path.join(dir, 'schemas', 'review.schema.json'), JSON.stringify(REVIEW_SCHEMA, null, 2));
  await writeFile(path.join(dir, 'routecert.config.json'), JSON.stringify(config, null, 2));
  return dir;
}

const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/);

beforeAll(async () => {
  root = await tempRoot('teamday');
}, 60_000);
afterAll(() => root.remove(), 60_000);

describe('record --from: a bug report to a case in one command', { timeout: 120_000 }, () => {
  const capture = [
    '$ claude -p --output-format json --json-schema "$(cat schemas/review.schema.json)" < prompt.txt',
    '{"type":"result","subtype":"success","is_error":false,"result":"Here: {\\"findings\\": [], \\"overall_correctness\\": \\"patch is correct\\", \\"overall_explanation\\": \\"fine\\", \\"overall_confidence_score\\": 0.9}","session_id":"0b7d3a54-8e1e-4a53-9f1e-5b2c0a7d1f11"}',
    '--- stderr ---',
    'warning: cache in /home/alice/work is stale',
    '--- exit code: 0 ---',
    '',
  ].join('\n');

  it('writes the redacted case under the contract, judges it at once, and `run` passes it', async () => {
    const dir = await team('from', { cases: 'cases', contracts: [contract('findings')] });
    await writeFile(path.join(dir, 'capture.txt'), capture);
    const r = await routecert(['record', '--from', 'capture.txt', '--route', 'claude-code/json', '--expect', 'accepted', '--ref', 'https://example.invalid/issues/7', '--name', 'issue-7'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('wrote cases/review/claude-code/json/issue-7.json');
    expect(r.stdout).toContain('PASS: accepted');
    const c = JSON.parse(await readFile(path.join(dir, 'cases/review/claude-code/json/issue-7.json'), 'utf8')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(c.contract).toBe('review');
    // The accepted value and the origin the judge found, as a recorded case holds them.
    expect(c.expect).toEqual({ verdict: 'accepted', origin: expect.any(String), value: { findings: [], overall_correctness: 'patch is correct', overall_explanation: 'fine', overall_confidence_score: 0.9 } });
    expect(c.provenance).toMatchObject({ source: 'issue', ref: 'https://example.invalid/issues/7' });
    expect(c.attempts[0].stderr).toBe('warning: cache in <home>/work is stale\n');
    expect(c.attempts[0].stdout).toContain('"session_id":"<uuid>"');
    expect(c.attempts[0].stdout).toMatch(/^\{"type":"result"/);
    expect(c.description).toContain('(`claude -p --output-format json');
    expect(c.id).toMatch(/^[0-9a-f]{16}$/);
    const run = await routecert(['run', '--no-probes', '--reports', path.join(root.dir, 'reports-from')], { cwd: dir });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('1 cases: 1 passed');
    // Never overwritten without --force.
    const again = await routecertInProcess(['record', '--from', 'capture.txt', '--route', 'claude-code/json', '--expect', 'accepted', '--name', 'issue-7'], { cwd: dir });
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain('exists; give another --name, or --force');
    // A config with two contracts: which one judges the capture is asked, not guessed (it fell back to pov).
    const two = await team('from-two', { cases: 'cases', contracts: [contract('findings'), { ...contract('findings'), name: 'review-2' }] });
    await writeFile(path.join(two, 'capture.txt'), capture);
    const unnamed = await routecertInProcess(['record', '--from', 'capture.txt', '--route', 'claude-code/json', '--expect', 'accepted', '--name', 'x'], { cwd: two });
    expect(unnamed.exitCode).toBe(2);
    expect(unnamed.stderr).toContain('routecert.config.json defines 2 contracts; name the one that judges this capture: --contract review|review-2');
    expect(existsSync(path.join(two, 'cases'))).toBe(false);
    const named = await routecertInProcess(['record', '--from', 'capture.txt', '--route', 'claude-code/json', '--expect', 'accepted', '--name', 'x', '--contract', 'review-2'], { cwd: two });
    expect(named.exitCode, named.stderr).toBe(0);
  });

  it('a capture that does not reach the expected verdict is written and exits 1; bad input exits 2 naming what exists', async () => {
    const dir = await team('from-fail', { cases: 'cases', contracts: [contract('findings')] });
    await writeFile(path.join(dir, 'prose.txt'), '{"type":"result","subtype":"success","is_error":false,"result":"I reviewed it and it looks fine."}\n');
    const r = await routecert(['record', '--from', 'prose.txt', '--route', 'claude-code/json', '--expect', 'accepted', '--exit-code', '0'], { cwd: dir });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('FAIL: expected verdict accepted, got dropped-unusable');
    expect((await readdir(path.join(dir, 'cases/review/claude-code/json'))).length).toBe(1);
    const badRoute = await routecert(['record', '--from', 'prose.txt', '--route', 'claude', '--expect', 'accepted'], { cwd: dir });
    expect(badRoute.exitCode).toBe(2);
    expect(badRoute.stderr).toContain('did you mean "claude-code/json"');
    const badVerdict = await routecertInProcess(['record', '--from', 'prose.txt', '--route', 'claude-code/json', '--expect', 'acepted'], { cwd: dir });
    expect(badVerdict.exitCode).toBe(2);
    expect(badVerdict.stderr).toContain('--expect acepted is no verdict (verdicts: accepted,');
    expect(badVerdict.stderr).toContain('); did you mean "accepted"?');
    noStack(badRoute.stderr + badVerdict.stderr);
  });
});

describe('a config error names the file, the field and the next step, never a stack trace', { timeout: 240_000 }, () => {
  it('an anchor typo in a contract that is also the certification contract (routecert.config.ts)', async () => {
    const dir = path.join(root.dir, 'typo');
    await mkdir(path.join(dir, 'schemas'), { recursive: true });
    await writeFile(path.join(dir, 'schemas', 'review.schema.json'), JSON.stringify(REVIEW_SCHEMA));
    // The README's recommended set-up: one defineContract() in `contracts` and as the worker's `contract`.
    await writeFile(
      path.join(dir, 'routecert.config.ts'),
      [
        "import { defineConfig, defineContract } from 'routecert';",
        "const review = defineContract({ name: 'review', schema: 'schemas/review.schema.json', anchor: 'findigns', finality: 'none', selection: 'last-shaped', clis: ['claude'] });",
        'export default defineConfig({',
        "  cases: 'cases', contracts: [review], contract: review, schema: 'schemas/review.schema.json', routes: ['claude-code/json'],",
        "  worker: { name: 'w', command: ['bash', 'w.sh', '{prompt}', '{outDir}'], prompt: 'file', windowEnv: { hardWindowS: 'H', retryMinS: 'R' } },",
        '});',
        '',
      ].join('\n'),
    );
    // Spawned once as a user runs it; every other command loads the config through the same loader (in process).
    const run = await routecert(['run', '--no-probes'], { cwd: dir });
    for (const args of [['run', '--no-probes'], ['certify'], ['lint'], ['record', '--config', 'routecert.config.ts'], ['fuzz', '--config', 'routecert.config.ts']]) {
      const r = args[0] === 'run' ? run : await routecertInProcess(args, { cwd: dir });
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr, args.join(' ')).toContain('`anchor` "findigns" names no property');
      expect(r.stderr, args.join(' ')).toContain('routecert.config.ts');
      noStack(r.stderr);
    }
    expect(run.stderr).toContain('Fix routecert.config.ts and run the command again');
    // Said once, though the contract is reached twice.
    expect(run.stderr.split('names no property').length).toBe(2);
  });

  it('a config whose cases folder is missing names the config file and its `cases` field, not --cases', async () => {
    const dir = await team('no-cases', { cases: 'cases', contracts: [contract('findings')] });
    const r = await routecert(['run', '--no-probes'], { cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('the `cases` field of routecert.config.json ("cases"): no such folder');
    expect(r.stderr).toContain('npx routecert record --config routecert.config.json');
    expect(r.stderr).toContain('or point that field at your cases folder.');
    expect(r.stderr).not.toContain('--cases');
    // Without a `cases` field the advice is to add one (it read "point the default cases folder (...) at your cases folder").
    const bare = await team('no-cases-field', { contracts: [contract('findings')] });
    const b = await routecert(['run', '--no-probes'], { cwd: bare });
    expect(b.exitCode).toBe(2);
    expect(b.stderr).toContain("or set the config's `cases` field to your cases folder.");
  });

  it('certify finds routecert.config.json by itself; without any config it names the files it looked for', async () => {
    const dir = await team('certify-json', { cases: 'cases', contracts: [contract('findings')], worker: { name: 'w', command: ['bash', 'w.sh'], prompt: 'stdin' }, routes: ['claude-code/jsn'] });
    const r = await routecert(['certify'], { cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('config file routecert.config.json is not usable');
    // Every problem in one round, before any header, and the README section of the worker's fields.
    expect(r.stderr).toContain('`worker.windowEnv`');
    expect(r.stderr).toContain('unknown route `claude-code/jsn` in `routes[0]`');
    expect(r.stderr).toContain('README "Certifying a worker"');
    expect(r.stdout).toBe('');
    const none = path.join(root.dir, 'no-config');
    await mkdir(none, { recursive: true });
    const n = await routecert(['certify'], { cwd: none });
    expect(n.exitCode).toBe(2);
    expect(n.stderr).toContain('routecert.config.cjs');
    expect(n.stderr).toContain('npx routecert init');
  });
});

describe('lint follows the linters\' convention', { timeout: 120_000 }, () => {
  it('warnings print and exit 0; --max-warnings N fails above N; an error exits 1', async () => {
    const dir = await team('lint', { cases: 'cases', contracts: [contract('findings', ['codex'])] });
    const r = await routecert(['lint'], { cwd: dir });
    expect(r.stdout).toContain('codex/disputed-keyword  warning');
    expect(r.stdout).toMatch(/0 errors, \d+ warnings/);
    expect(r.exitCode).toBe(0);
    const warnings = Number(/0 errors, (\d+) warnings/.exec(r.stdout)![1]);
    const capped = await routecertInProcess(['lint', '--max-warnings', String(warnings - 1)], { cwd: dir });
    expect(capped.exitCode).toBe(1);
    expect(capped.stderr).toContain(`more than --max-warnings ${warnings - 1}`);
    expect((await routecertInProcess(['lint', '--max-warnings', String(warnings)], { cwd: dir })).exitCode).toBe(0);
    // An error (a root `_meta` Claude Code refuses at startup) fails whatever the warnings.
    await writeFile(path.join(dir, 'meta.schema.json'), JSON.stringify({ ...REVIEW_SCHEMA, _meta: { owner: 'x' } }));
    const e = await routecert(['lint', 'meta.schema.json', '--profile', 'claude-code'], { cwd: dir });
    expect(e.stdout).toMatch(/[1-9]\d* errors?/);
    expect(e.exitCode).toBe(1);
  });
});

const claude = projectPath('probes/node_modules/.bin/claude');
describe.skipIf(!existsSync(claude))(`record --config: the team's contract through a real CLI, hermetically${existsSync(claude) ? '' : ' (skipped: Claude Code is not installed; npm run probes:install)'}`, { timeout: 300_000 }, () => {
  it('writes one redacted case per scenario of the schema, judged by the team\'s contract; never overwrites without --force', async () => {
    const dir = await team('record', { cases: 'cases', contracts: [contract('findings', ['claude', 'codex'])] });
    const args = ['record', '--config', 'routecert.config.json', '--bin', `claude=${claude}`, '--cli', 'claude', '--route', 'claude-code/json', '--scenario', 'final,missing-overall_correctness,scalar,api-429'];
    const r = await routecert(args, { cwd: dir });
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/final: accepted; wrote cases\/review\/claude-code\/json\/final\.json/);
    expect(r.stdout).toMatch(/missing-overall_correctness: dropped-unusable/);
    expect(r.stdout).toMatch(/api-429: provider-error/);
    const files = (await readdir(path.join(dir, 'cases/review/claude-code/json'))).sort();
    expect(files).toEqual(['api-429.json', 'final.json', 'missing-overall_correctness.json', 'scalar.json']);
    const text = await readFile(path.join(dir, 'cases/review/claude-code/json/api-429.json'), 'utf8');
    expect(text).not.toContain(root.dir);
    expect(text).toContain('"contract": "review"');
    const run = await routecert(['run', '--no-probes', '--reports', path.join(root.dir, 'reports-rec')], { cwd: dir });
    expect(run.exitCode, run.stdout).toBe(0);
    expect(run.stdout).toContain('4 cases: 4 passed');
    const again = await routecert([...args.slice(0, -1), 'final'], { cwd: dir });
    expect(again.stdout).toContain('exists, not overwritten (--force overwrites)');
  });

  it('a schema the CLI rejects at startup: one startup-rejected case, the other scenarios skipped with a pointer to lint', async () => {
    const dir = await team('record-rejected', { cases: 'cases', contracts: [contract('findings')] });
    // Claude Code 2.x refuses a 2020-12 `$schema` at startup (seen in a new-user walkthrough).
    await writeFile(path.join(dir, 'schemas', 'review.schema.json'), JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', ...REVIEW_SCHEMA }));
    const r = await routecert(['record', '--config', 'routecert.config.json', '--bin', `claude=${claude}`, '--cli', 'claude', '--route', 'claude-code/json', '--scenario', 'final,scalar,api-429'], { cwd: dir });
    expect(r.exitCode, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain('claude rejects the schema at startup; wrote cases/review/claude-code/json/startup-rejected.json');
    expect(r.stdout).toMatch(/skip review claude-code\/json: its other 2 scenario\(s\) are not run.*npx routecert lint --config routecert\.config\.json/);
    expect(await readdir(path.join(dir, 'cases/review/claude-code/json'))).toEqual(['startup-rejected.json']);
    const run = await routecert(['run', '--no-probes', '--reports', path.join(root.dir, 'reports-rejected')], { cwd: dir });
    expect(run.stdout + run.stderr).not.toMatch(/duplicate|does not match/i);
    expect(run.stdout).toContain('1 cases: 1 passed');
  });
});

describe('--reporter takes a module path, as vitest does', { timeout: 120_000 }, () => {
  it('a module whose default export is a reporter object (or a class of one) gets the run; an unknown name still exits 2', async () => {
    const dir = path.join(root.dir, 'reporter');
    await copyCorpus(path.join(dir, 'cases'), (rel) => rel.startsWith(`claude-code${path.sep}json${path.sep}`));
    await writeFile(
      path.join(dir, 'count-reporter.mjs'),
      "import { writeFileSync } from 'node:fs';\nexport default class { name = 'count'; onRunEnd(report) { writeFileSync('count.txt', `${report.summary.pass} passed of ${report.summary.total}`); } }\n",
    );
    const reports = path.join(dir, 'reports');
    const r = await routecert(['run', '--no-probes', '--cases', 'cases', '--reports', reports, '--reporter', './count-reporter.mjs'], { cwd: dir });
    expect(r.exitCode, r.stderr).toBe(0);
    const { report } = await onlyRun(reports);
    expect(await readFile(path.join(dir, 'count.txt'), 'utf8')).toBe(`${report.summary.total} passed of ${report.summary.total}`);
    // The unknown name and the missing path are spawned in cli-args.test.ts and newUser.test.ts.
    const bad = await routecertInProcess(['run', '--no-probes', '--cases', 'cases', '--reporter', 'junt'], { cwd: dir });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('did you mean "junit"');
    const missing = await routecertInProcess(['run', '--no-probes', '--cases', 'cases', '--reporter', './nope.mjs'], { cwd: dir });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('--reporter ./nope.mjs: no such file');
    noStack(missing.stderr);
  });
});

describe('init is idempotent and says what it keeps and what it would replace', { timeout: 240_000 }, () => {
  it('a re-run keeps every file; a new schema is not half-added; --force replaces and removes orphan starter cases; an empty --schemas folder exits 2', async () => {
    const dir = path.join(root.dir, 'init');
    await mkdir(path.join(dir, 'contracts'), { recursive: true });
    await writeFile(path.join(dir, 'contracts', 'review.schema.json'), JSON.stringify(REVIEW_SCHEMA));
    const first = await routecert(['init', '--schemas', 'contracts', '--json'], { cwd: dir });
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stdout).toContain('wrote routecert.config.json');
    // The anchor `findings` is an array the schema lets be empty: `[]` is "found nothing", and a starter case says it is accepted.
    const config = JSON.parse(await readFile(path.join(dir, 'routecert.config.json'), 'utf8')) as { contracts: { anchor: string; emptyIsAnswer?: boolean }[] };
    expect(config.contracts[0]).toMatchObject({ anchor: 'findings', emptyIsAnswer: true });
    const nothing = JSON.parse(await readFile(path.join(dir, 'cases', 'review', 'found-nothing.json'), 'utf8')) as { expect: { verdict: string; value: { findings: unknown[] } } };
    expect(nothing.expect.verdict).toBe('accepted');
    expect(nothing.expect.value.findings).toEqual([]);
    const again = await routecertInProcess(['init', '--schemas', 'contracts', '--json'], { cwd: dir });
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toContain('kept  routecert.config.json (exists, the same as init writes)');
    expect(again.stdout).toContain('nothing written: every starter file exists as init writes it');
    // A second schema: the kept config does not define it, so its cases are not written (no orphans).
    await writeFile(path.join(dir, 'contracts', 'verdict.schema.json'), JSON.stringify({ type: 'object', required: ['verdict'], properties: { verdict: { type: 'string', enum: ['ship', 'hold'] } }, additionalProperties: false }));
    const added = await routecertInProcess(['init', '--schemas', 'contracts', '--json'], { cwd: dir });
    expect(added.stdout).toContain('kept  routecert.config.json (exists and differs from what init writes now; --force replaces it)');
    expect(added.stdout).toMatch(/would add cases\/verdict\/accepted\.json \(not written/);
    expect(existsSync(path.join(dir, 'cases', 'verdict'))).toBe(false);
    expect((await routecertInProcess(['run', '--no-probes', '--reports', path.join(dir, 'reports')], { cwd: dir })).exitCode).toBe(0);
    // The first schema goes: --force rewrites the config and removes its starter cases.
    await (await import('node:fs/promises')).rm(path.join(dir, 'contracts', 'review.schema.json'));
    const forced = await routecert(['init', '--schemas', 'contracts', '--json', '--force'], { cwd: dir });
    expect(forced.exitCode).toBe(0);
    expect(forced.stdout).toContain('removed cases/review/accepted.json (a starter case of a contract the new config does not define)');
    expect(existsSync(path.join(dir, 'cases', 'review', 'accepted.json'))).toBe(false);
    const run = await routecertInProcess(['run', '--no-probes', '--reports', path.join(dir, 'reports-2')], { cwd: dir });
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    await mkdir(path.join(dir, 'empty'));
    const empty = await routecertInProcess(['init', '--schemas', 'empty', '--force'], { cwd: dir });
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toContain('empty holds no schema file');
  });
});

describe("a team's folder is the default of every command that reads cases or a config", { timeout: 240_000 }, () => {
  it('record --fix-ids fixes the config\'s cases without --out; run, lint and certify take a bare --config as the working folder\'s config, and refuse it where there is none; --tag offers only tags the run has', async () => {
    const dir = path.join(root.dir, 'team-defaults');
    await mkdir(path.join(dir, 'contracts'), { recursive: true });
    await writeFile(path.join(dir, 'contracts', 'review.schema.json'), JSON.stringify(REVIEW_SCHEMA));
    expect((await routecertInProcess(['init', '--schemas', 'contracts', '--json'], { cwd: dir })).exitCode).toBe(0);
    // A hand edit leaves a stale id: the config's cases folder is where --fix-ids looks (it looked in fixtures/cases).
    const file = path.join(dir, 'cases', 'review', 'accepted.json');
    const edited = JSON.parse(await readFile(file, 'utf8')) as { id: string; attempts: { stderr: string }[] };
    edited.attempts[0]!.stderr = 'note: a line of stderr pasted by hand\n';
    await writeFile(file, `${JSON.stringify(edited, null, 2)}\n`);
    const stale = await routecertInProcess(['run', '--config', '--no-probes', '--reports', path.join(dir, 'reports')], { cwd: dir });
    expect(stale.exitCode, stale.stderr).toBe(0);
    expect(stale.stdout).toContain(`warning: id ${edited.id} does not match its content`);
    const fixed = await routecertInProcess(['record', '--fix-ids'], { cwd: dir });
    expect(fixed.exitCode, fixed.stderr).toBe(0);
    expect((JSON.parse(await readFile(file, 'utf8')) as { id: string }).id).not.toBe(edited.id);
    const clean = await routecertInProcess(['run', '--config', '--no-probes', '--reports', path.join(dir, 'reports')], { cwd: dir });
    expect(clean.exitCode).toBe(0);
    expect(clean.stdout).not.toContain('does not match its content');
    const lint = await routecertInProcess(['lint', '--config'], { cwd: dir });
    expect(lint.exitCode, lint.stderr).toBe(0);
    expect(lint.stdout).toContain('contracts/review.schema.json');
    // A config without a worker: --tag offers only tags that select something (no certification tags).
    const unknown = await routecertInProcess(['run', '--tag', 'nosuch', '--reports', path.join(dir, 'reports')], { cwd: dir });
    expect(unknown.exitCode).toBe(2);
    const offered = /Tags: ([^.]*)\./.exec(unknown.stderr)?.[1]?.split(', ') ?? [];
    expect(offered, unknown.stderr).toContain('startup');
    for (const t of ['certify', 'smoke', 'check', 'probe']) expect(offered).not.toContain(t);
    const smoke = await routecertInProcess(['run', '--tag', 'smoke', '--reports', path.join(dir, 'reports')], { cwd: dir });
    expect(smoke.exitCode).toBe(2);
    expect(smoke.stderr).toContain('--tag smoke selects nothing');
    // Where there is no config, a bare --config is refused by each, naming what it looked for.
    const empty = path.join(root.dir, 'no-config');
    await mkdir(empty, { recursive: true });
    for (const command of ['run', 'lint', 'certify']) {
      const r = await routecertInProcess([command, '--config'], { cwd: empty });
      expect(r.exitCode, `${command}: ${r.stdout}`).toBe(2);
      expect(r.stderr).toContain('--config: no routecert config here (looked for routecert.config.ts');
    }
  });
});

describe('progress on every long phase', { timeout: 240_000 }, () => {
  it('the certification says what runs and how many routes are left, in CI lines on stderr', async () => {
    // A worker that never answers: the certification stays under way until the test has read a
    // progress line (however long that takes), then SIGTERM ends the run.
    const dir = path.join(root.dir, 'progress');
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, 'routecert.config.json'),
      JSON.stringify({
        worker: { name: 'a worker that hangs', command: ['sh', '-c', 'exec sleep 1000', '{prompt}'], prompt: 'file', artifact: '{outDir}/out.json', windowEnv: { hardWindowS: 'H', retryMinS: 'R' } },
        routes: ['claude-code/json'],
        contract: 'pov',
      }),
    );
    const child = execa('node', [projectPath('bin/routecert.js'), 'run', '--config', 'routecert.config.json', '--route', 'certify:claude-code/json', '--reports', 'reports'], {
      cwd: dir,
      reject: false,
      env: { NO_COLOR: '1', CI: 'true', GITHUB_ACTIONS: '', ROUTECERT_PROGRESS_MS: '200' },
      stdin: 'ignore',
    });
    let stderr = '';
    const line = /\[routecert\] progress: cases 0\/0, certification 0\/1 \((claude-code\/json|\d+ checks done, last claude-code\/json [a-z-]+)\), \d+s elapsed/;
    await new Promise<void>((resolve, reject) => {
      child.stderr!.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (line.test(stderr)) resolve();
      });
      void child.then((r) => reject(new Error(`routecert ended before a progress line (exit ${r.exitCode}): ${stderr}`)));
    });
    child.kill('SIGTERM');
    const r = await child;
    expect(r.exitCode, stderr).toBe(143);
    expect(stderr).toMatch(line);
  });
});

describe('the README holds for a team', () => {
  it('its whole case file loads as a case whose id is its content hash; its placeholder table lists every worker placeholder', async () => {
    const { loadCaseFile } = await import('#src/record/corpus.ts');
    const { caseId } = await import('#src/record/caseId.ts');
    const { PLACEHOLDERS } = await import('#src/harness/certify/config.ts');
    const readme = await readFile(projectPath('README.md'), 'utf8');
    const block = /### A bug report to a case[\s\S]*?```json\n([\s\S]*?)\n```/.exec(readme)?.[1];
    expect(block).toBeDefined();
    const file = path.join(root.dir, 'readme-case.json');
    await writeFile(file, block!);
    const { loaded, errors } = await loadCaseFile(file);
    expect(errors).toEqual([]);
    expect(loaded!.case.id).toBe(caseId(loaded!.case));
    const table = readme.slice(readme.indexOf('| placeholder | becomes |'));
    for (const p of PLACEHOLDERS) expect(table, p).toContain(`| \`{${p}}\` |`);
  });
});
