/**
 * A CLI that never lies (issue 13 part 5), spawned as a user runs it: numbers and names are
 * validated (exit 2 naming the bad argument); a certificate with no check is refused; `lint`
 * without a path; `--version`. (Its other commands: cli-select.test.ts, cli-run.test.ts.)
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificateProblems } from '#src/harness/certify/certificate.ts';
import { projectPath } from '#src/paths.ts';
import { routecert, routecertInProcess, tempRoot } from './cliTestKit.ts';

let root: Awaited<ReturnType<typeof tempRoot>>;
let n = 0;
/** A fresh reports folder under the root. */
const reportsDir = () => path.join(root.dir, `reports-${(n += 1)}`);

beforeAll(async () => {
  root = await tempRoot('cli-args');
  // A claude candidate outside the supported version range (record --bin claude=old-claude).
  await writeFile(path.join(root.dir, 'old-claude'), '#!/bin/sh\necho "0.0.1 (Claude Code)"\n', { mode: 0o755 });
}, 60_000);
afterAll(() => root.remove(), 60_000);

describe('numbers and names are validated', { timeout: 180_000 }, () => {
  it.each([
    [['run', '--no-probes', '--probe-timeout', 'abc'], /option '--probe-timeout <ms>' argument 'abc' is invalid\. Expected an integer >= 1 \(ms\)/],
    [['record', '--probe-timeout', '-5'], /argument '-5' is invalid/],
    [['probe', '--cli', 'claude', '--probe-timeout', '1.5'], /argument '1\.5' is invalid/],
    [['certify', '--concurrency', 'many'], /argument 'many' is invalid/],
    // A selection that records nothing is said before the CLI is looked at (it was "not installed", exit 3, without the pinned CLI;
    // here a candidate outside the supported range stands for any CLI that cannot be recorded: its refusal is another message).
    [['record', '--route', 'claude-code/nosuch', '--bin', 'claude=old-claude'], /nothing to record\. Routes of claude: claude-code\/json, claude-code\/stream-json/],
    [['record', '--scenario', 'nosuch', '--bin', 'claude=old-claude'], /nothing to record\. .*Scenarios: final,/],
    [['run', '--no-probes', '--shard', '3/2'], /option '--shard <i\/n>' argument '3\/2' is invalid/],
    [['run', '--no-probes', '--reporter', 'junt'], /Unknown reporter "junt"; did you mean "junit"\?/],
    [['run', '--no-probes', '--reporter', 'default', '--output-file', 'x.xml'], /no reporter chosen writes a file \(default writes to the console\): choose one and name it, e.g. --reporter junit --output-file junit=x.xml/],
    [['run', '--no-probes', '--reporter', 'junit', '--reporter', 'html', '--output-file', 'x.xml'], /must say which reporter writes it \(e.g. junit=x.xml\): the file-writing reporters chosen are junit, html/],
  ].map(([args, message], i) => [args, message, i === 0] as [string[], RegExp, boolean]))('%j exits 2', async (args, message, spawned) => {
    // The first spawned as a user runs it; the others hold each option to the same rule in process.
    const r = spawned ? await routecert(args, { cwd: root.dir }) : await routecertInProcess(args, { cwd: root.dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it('certify --check nosuch exits 2 and writes no certificate', async () => {
    const reports = reportsDir();
    const r = await routecert(['certify', '--config', projectPath('routecert.config.ts'), '--check', 'nosuch', '--reports', reports], { cwd: root.dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/unknown check "nosuch"\. Checks: .*retry-once/);
    expect(existsSync(reports)).toBe(false);
    // A misspelt check gets a suggestion; a check the pov contract has no rule for is refused (it was
    // skipped, then "not-certified", exit 1, for a worker that did nothing wrong), and not offered.
    const typo = await routecertInProcess(['certify', '--config', projectPath('routecert.config.ts'), '--check', 'retry-onc', '--reports', reports], { cwd: root.dir });
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toContain('unknown check "retry-onc" (did you mean "retry-once"?)');
    const inapplicable = await routecertInProcess(['certify', '--config', projectPath('routecert.config.ts'), '--check', 'last-shaped-wins', '--reports', reports], { cwd: root.dir });
    expect(inapplicable.exitCode).toBe(2);
    expect(inapplicable.stderr).toMatch(/--check: "last-shaped-wins" \(.+\) does not apply to contract pov, so it would certify nothing\. Checks of this contract: /);
    expect(inapplicable.stderr.slice(inapplicable.stderr.indexOf('Checks of this contract'))).not.toContain('last-shaped-wins');
    expect(existsSync(reports)).toBe(false);
  });

  it('certify --check <id> is a partial run, not a certificate: exit 0, status partial, and the console, certificate.md and certificate.json say how many checks did not run and why', async () => {
    const reports = reportsDir();
    const r = await routecert(['certify', '--config', projectPath('examples/bash-worker/routecert.config.ts'), '--route', 'claude-code/stream-json', '--check', 'missing-final', '--reports', reports], { cwd: root.dir });
    // The checks that ran passed: exit 0, but never read as certified.
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/=> partial: 1 passed, 0 failed, 0 skipped, (\d+) not run/);
    expect(r.stdout).not.toContain('=> certified');
    const notRun = Number(/, (\d+) not run/.exec(r.stdout)![1]);
    expect(notRun).toBeGreaterThan(20);
    expect(r.stdout).toContain(`${notRun} check(s) did not run: not selected by --check missing-final (a partial run, not a certification`);
    const [run] = await (await import('node:fs/promises')).readdir(reports);
    const json = JSON.parse(await readFile(path.join(reports, run!, 'certificate.json'), 'utf8')) as { routes: { status: string; notSelected?: { ids: string[]; reason: string } }[] };
    expect(json.routes[0]!.status).toBe('partial');
    expect(json.routes[0]!.notSelected?.ids).toHaveLength(notRun);
    expect(json.routes[0]!.notSelected?.ids).toContain('retry-once');
    expect(json.routes[0]!.notSelected?.reason).toBe('not selected by --check missing-final');
    expect(await certificateProblems(json)).toEqual([]);
    const md = await readFile(path.join(reports, run!, 'certificate.md'), 'utf8');
    expect(md).toContain('## claude-code/stream-json: partial');
    expect(md).toContain(`**${notRun} check(s) did not run: not selected by --check missing-final`);
  });

  it('certify --check of a check that applies on none of the routes certified: exit 2, the SKIP line and a next step (it was "not-certified", exit 1, as if the worker had failed)', async () => {
    const reports = reportsDir();
    const r = await routecert(['certify', '--config', projectPath('examples/bash-worker/routecert.config.ts'), '--route', 'grok/json', '--check', 'idle-window', '--reports', reports], { cwd: root.dir });
    expect(r.exitCode, r.stdout + r.stderr).toBe(2);
    expect(r.stdout).toMatch(/SKIP idle-window +grok\/json is buffered/);
    expect(r.stdout).toContain('=> partial: 0 passed, 0 failed, 1 skipped');
    expect(r.stderr).toContain('--check idle-window applies on none of the routes certified (grok/json; each SKIP line above says why): only the smoke ran');
    const [run] = await (await import('node:fs/promises')).readdir(reports);
    const json = JSON.parse(await readFile(path.join(reports, run!, 'certificate.json'), 'utf8')) as { footer: { exitCode: number } };
    expect(json.footer.exitCode).toBe(2);
    expect(await certificateProblems(json)).toEqual([]);
  });

  it("lint with no path: the working folder's config when it has contracts; neither a config nor schemas/contracts exits 2", async () => {
    const fs = await import('node:fs/promises');
    const team = path.join(root.dir, 'lint-team');
    await fs.mkdir(path.join(team, 'schemas'), { recursive: true });
    await fs.writeFile(path.join(team, 'schemas', 'answer.schema.json'), JSON.stringify({ type: 'object', required: ['answer'], properties: { answer: { type: 'string' }, _meta: { type: 'string' } }, additionalProperties: false }));
    await fs.writeFile(path.join(team, 'routecert.config.json'), JSON.stringify({ contracts: [{ name: 'answer', schema: 'schemas/answer.schema.json', anchor: 'answer', finality: 'none', selection: 'score', clis: ['claude'] }] }));
    const r = await routecert(['lint'], { cwd: team });
    expect(r.stderr).not.toContain('schemas/contracts');
    expect(r.stdout).toContain('contract answer (clis: claude)');
    const bare = path.join(root.dir, 'lint-bare');
    await fs.mkdir(bare, { recursive: true });
    const b = await routecertInProcess(['lint'], { cwd: bare });
    expect(b.exitCode).toBe(2);
    expect(b.stderr).toContain('no paths given, no routecert.config.* with contracts here');
  });

  it('lint --config with paths lints both: a schema with errors beside a clean config fails (it once passed, the paths dropped)', async () => {
    const fs = await import('node:fs/promises');
    const team = path.join(root.dir, 'lint-both');
    await fs.mkdir(path.join(team, 'schemas'), { recursive: true });
    await fs.mkdir(path.join(team, 'new'), { recursive: true });
    await fs.writeFile(path.join(team, 'schemas', 'answer.schema.json'), JSON.stringify({ type: 'object', required: ['answer'], properties: { answer: { type: 'string' } }, additionalProperties: false }));
    await fs.writeFile(path.join(team, 'routecert.config.json'), JSON.stringify({ contracts: [{ name: 'answer', schema: 'schemas/answer.schema.json', anchor: 'answer', finality: 'none', selection: 'score', clis: ['codex'] }] }));
    // codex (OpenAI strict mode) refuses a property missing from `required` and an open object.
    await fs.writeFile(path.join(team, 'new', 'x.schema.json'), JSON.stringify({ type: 'object', required: ['a'], properties: { a: { type: 'string' }, b: { type: 'string' } } }));
    const clean = await routecertInProcess(['lint', '--config', 'routecert.config.json'], { cwd: team });
    expect(clean.exitCode, clean.stderr).toBe(0);
    // A named folder holding the contract's own schema lints that schema once, by its contract's CLIs.
    const overlap = await routecertInProcess(['lint', '--config', 'routecert.config.json', 'schemas'], { cwd: team });
    expect(overlap.stdout.match(/answer\.schema\.json/g), overlap.stdout).toHaveLength(1);
    expect(overlap.stdout).toContain('routecert lint: 1 file, no findings');
    expect(overlap.exitCode).toBe(0);
    const both = await routecertInProcess(['lint', '--config', 'routecert.config.json', '--profile', 'codex', 'new'], { cwd: team });
    expect(both.stdout).toContain('contract answer (clis: codex)');
    expect(both.stdout).toMatch(/new[\\/]x\.schema\.json/);
    expect(both.exitCode, both.stdout).toBe(1);
    await fs.mkdir(path.join(team, 'empty'), { recursive: true });
    const empty = await routecertInProcess(['lint', '--config', 'routecert.config.json', 'empty'], { cwd: team });
    expect(empty.stderr).toContain('nothing to lint: no *.schema.json file under empty');
    expect(empty.exitCode).toBe(2);
  });

  it('lint on a missing file exits 2', async () => {
    const r = await routecert(['lint', path.join(root.dir, 'missing.schema.json')], { cwd: root.dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('no such file or folder');
  });

  it('--version prints the package version (from the checkout\'s sources through tsx, not the tests\' build)', async () => {
    const pkg = JSON.parse(await readFile(projectPath('package.json'), 'utf8')) as { version: string };
    // Every other spawn runs the run's one build (ROUTECERT_DIST, suites/_helpers/cliBuild.globalSetup.ts).
    const r = await routecert(['--version'], { cwd: root.dir, env: { ROUTECERT_DIST: undefined } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim()).toBe(pkg.version);
  });
});
