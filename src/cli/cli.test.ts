/**
 * A CLI that never lies (issue 13 part 5), spawned as a user runs it: a filter or folder that
 * selects nothing exits 2 and names what exists; numbers are validated; a certificate with no
 * check is refused; judging commands exit non-zero on the wrong verdict; the replay command keeps
 * `--cases` and `--config`; `--version`; NO_COLOR and FORCE_COLOR; the reporters and their files.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectPath } from '#src/paths.ts';
import { copyCorpus, editCase, onlyRun, routecert, tempRoot } from './cliTestKit.ts';

let root: Awaited<ReturnType<typeof tempRoot>>;
let small: string;
/** How many cases the small corpus holds (every claude-code/json case; one of them fails). */
let smallCount = 0;
let failingId = '';
let n = 0;
/** A fresh reports folder under the root. */
const reportsDir = () => path.join(root.dir, `reports-${(n += 1)}`);

beforeAll(async () => {
  root = await tempRoot('cli');
  // Every claude-code/json case, one of them failing (final.json expects retry).
  small = path.join(root.dir, 'small');
  await copyCorpus(small, (rel) => rel.startsWith(`claude-code${path.sep}json${path.sep}`));
  smallCount = (await readdir(path.join(small, 'claude-code/json'))).filter((f) => f.endsWith('.json')).length;
  await editCase(path.join(small, 'claude-code/json/final.json'), (c) => {
    failingId = c.id as string;
    c.expect = { verdict: 'retry' };
  });
}, 60_000);
afterAll(() => root.remove(), 60_000);

describe('filters and folders that select nothing exit 2 and name what exists', { timeout: 180_000 }, () => {
  it('--route nosuchcli', async () => {
    const r = await routecert(['run', '--no-probes', '--route', 'nosuchcli', '--reports', reportsDir()], { cwd: root.dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--route nosuchcli selects nothing');
    expect(r.stderr).toMatch(/Routes: .*claude-code\/json.*codex\/jsonl/);
    expect(r.stdout).not.toContain('0 cases');
  });

  it('--route claude: did you mean claude-code?', async () => {
    const r = await routecert(['run', '--no-probes', '--route', 'claude'], { cwd: root.dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--route claude selects nothing; did you mean "claude-code"');
  });

  it('--cases /nonexistent exits 2 before probing anything (probes on)', async () => {
    const missing = path.join(root.dir, 'no-such-folder');
    const reports = reportsDir();
    const r = await routecert(['run', '--cases', missing, '--reports', reports], { cwd: root.dir, timeoutMs: 60_000 });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`--cases ${missing}: no such folder`);
    expect(r.stdout).toBe('');
    expect(existsSync(reports)).toBe(false);
  });

  it('--contract nosuch names the contracts; --tag and --case too', async () => {
    const r = await routecert(['run', '--no-probes', '--contract', 'nosuch'], { cwd: root.dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--contract nosuch selects nothing\. Contracts: .*pov/);
    const t = await routecert(['run', '--no-probes', '--cases', small, '--tag', 'finall'], { cwd: root.dir });
    expect(t.exitCode).toBe(2);
    expect(t.stderr).toContain('--tag finall selects nothing; did you mean "final"');
    const c = await routecert(['run', '--no-probes', '--cases', small, '--case', 'ffffffffffff'], { cwd: root.dir });
    expect(c.exitCode).toBe(2);
    expect(c.stderr).toContain(`--case ffffffffffff is no case id (nor a prefix of one) in ${small}`);
  });

  it('a folder whose only case file is broken names that file, not "holds no case file"', async () => {
    const fs = await import('node:fs/promises');
    const broken = path.join(root.dir, 'broken-only');
    await fs.mkdir(path.join(broken, 'r'), { recursive: true });
    await fs.writeFile(path.join(broken, 'r', 'x.json'), '{"id": 1');
    const r = await routecert(['run', '--no-probes', '--cases', broken], { cwd: root.dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).not.toContain('holds no case file');
    expect(r.stderr).toMatch(/no case of .*broken-only could be loaded[\s\S]*x\.json .*not valid JSON/);
  });

  it('a folder without case files exits 2', async () => {
    const r = await routecert(['run', '--no-probes', '--cases', path.join(small, 'claude-code')], { cwd: root.dir });
    expect(r.exitCode).toBe(1); // the folder holds cases (one fails)
    const empty = path.join(root.dir, 'empty');
    await import('node:fs/promises').then((fs) => fs.mkdir(empty, { recursive: true }));
    const e = await routecert(['run', '--no-probes', '--cases', empty], { cwd: root.dir });
    expect(e.exitCode).toBe(2);
    expect(e.stderr).toContain('holds no case file');
  });
});

describe('a route only the startup probes cover', { timeout: 180_000 }, () => {
  it('--route claude-code/text builds that startup column with the --bin candidate and is not "nothing was judged"', async () => {
    // A stand-in Claude Code that refuses every schema at start-up, as 2.1.332 refuses a `_meta` root.
    const bin = path.join(root.dir, 'claude-refuses');
    const fs = await import('node:fs/promises');
    await fs.writeFile(bin, '#!/bin/sh\nif [ "$1" = "--version" ]; then echo "2.1.332 (Claude Code)"; exit 0; fi\necho "Error: --json-schema is not a valid JSON Schema: stand-in" >&2\nexit 1\n');
    await fs.chmod(bin, 0o755);
    const empty = path.join(root.dir, 'no-cases');
    await fs.mkdir(empty, { recursive: true });
    const reports = reportsDir();
    const r = await routecert(['run', '--route', 'claude-code/text', '--bin', `claude=${bin}`, '--no-certify', '--cases', empty, '--reports', reports], { cwd: root.dir });
    expect(r.stderr).not.toContain('nothing was judged');
    expect(r.exitCode).toBe(0);
    const report = JSON.parse(await readFile(path.join(reports, (await readdir(reports))[0]!, 'report.json'), 'utf8')) as { startupProbes?: { rows: { cells: { cli: string; version: string; outcome: string }[] }[] } };
    const cells = report.startupProbes?.rows.flatMap((row) => row.cells) ?? [];
    expect(cells.length).toBeGreaterThan(0);
    // Every cell is the candidate's (the stand-in refuses all), none the installed CLI's.
    expect(new Set(cells.map((c) => `${c.cli} ${c.outcome}`))).toEqual(new Set(['claude rejected']));
  });
});

describe('a reader that closes the pipe early (`| head -1`)', { timeout: 180_000 }, () => {
  it('is no crash: no EPIPE stack, and the exit code is the run\'s', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn('node', [projectPath('bin/routecert.js'), 'run', '--no-probes', '--cases', small, '--reports', reportsDir()], { cwd: root.dir, env: { ...process.env, NO_COLOR: '1', CI: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // Read the first chunk, then close our end, as `head -1` does.
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(stderr).not.toContain('EPIPE');
    expect(code).toBe(1); // the small corpus holds one failing case
  });
});

describe('numbers and names are validated', { timeout: 180_000 }, () => {
  it.each([
    [['run', '--no-probes', '--probe-timeout', 'abc'], /option '--probe-timeout <ms>' argument 'abc' is invalid\. Expected an integer >= 1 \(ms\)/],
    [['record', '--probe-timeout', '-5'], /argument '-5' is invalid/],
    [['probe', '--cli', 'claude', '--probe-timeout', '1.5'], /argument '1\.5' is invalid/],
    [['certify', '--concurrency', 'many'], /argument 'many' is invalid/],
    [['run', '--no-probes', '--shard', '3/2'], /option '--shard <i\/n>' argument '3\/2' is invalid/],
    [['run', '--no-probes', '--reporter', 'junt'], /Unknown reporter "junt"; did you mean "junit"\?/],
    [['run', '--no-probes', '--reporter', 'default', '--output-file', 'x.xml'], /must say which reporter writes it/],
  ])('%j exits 2', async (args, message) => {
    const r = await routecert(args, { cwd: root.dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it('certify --check nosuch exits 2 and writes no certificate', async () => {
    const reports = reportsDir();
    const r = await routecert(['certify', '--config', projectPath('routecert.config.ts'), '--check', 'nosuch', '--reports', reports], { cwd: root.dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/unknown check "nosuch"\. Checks: .*retry-once/);
    expect(existsSync(reports)).toBe(false);
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
    const b = await routecert(['lint'], { cwd: bare });
    expect(b.exitCode).toBe(2);
    expect(b.stderr).toContain('no paths given, no routecert.config.* with contracts here');
  });

  it('lint on a missing file exits 2', async () => {
    const r = await routecert(['lint', path.join(root.dir, 'missing.schema.json')], { cwd: root.dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('no such file or folder');
  });

  it('--version prints the package version', async () => {
    const pkg = JSON.parse(await readFile(projectPath('package.json'), 'utf8')) as { version: string };
    const r = await routecert(['--version'], { cwd: root.dir });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim()).toBe(pkg.version);
  });
});

describe('judging commands', { timeout: 180_000 }, () => {
  const codex = existsSync(projectPath('probes/node_modules/.bin/codex'));
  it.skipIf(!codex)(`probe --cli codex passes as the README writes it (the pov schema in its OpenAI-strict form); the plain pov schema is refused, exit 1${codex ? '' : ' (skipped: codex not installed; npm run probes:install)'}`, async () => {
    const r = await routecert(['probe', '--cli', 'codex'], { cwd: root.dir, timeoutMs: 120_000 });
    expect(r.stdout).toContain('PASS: accepted');
    expect(r.exitCode).toBe(0);
    const plain = await routecert(['probe', '--cli', 'codex', '--schema', projectPath('schemas/contracts/pov.schema.json')], { cwd: root.dir, timeoutMs: 120_000 });
    expect(plain.stdout).toContain('verdict: startup-rejected');
    expect(plain.stdout).toContain('FAIL: expected accepted, got startup-rejected');
    expect(plain.exitCode).toBe(1);
  });

  it('run exits 1 on a failing case and its replay command keeps --cases and --config', async () => {
    const reports = reportsDir();
    const config = projectPath('routecert.config.ts');
    const r = await routecert(['run', '--no-probes', '--cases', small, '--config', config, '--reports', reports, '--quiet'], { cwd: root.dir });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain(`replay: npx routecert run --case ${failingId} --cases ${small} --config ${config} --no-probes`);
    const { report } = await onlyRun(reports);
    expect(report.cases.find((c) => c.id === failingId)?.replay).toBe(`npx routecert run --case ${failingId} --cases ${small} --config ${config} --no-probes`);
    // The replay command, run as printed, judges that one case of that corpus.
    const again = await routecert(['run', '--case', failingId, '--cases', small, '--config', config, '--no-probes', '--reports', reportsDir()], { cwd: root.dir });
    expect(again.exitCode).toBe(1);
    expect(again.stdout).toContain('1 cases: 0 passed, 1 failed');
  });
});

describe('colours', { timeout: 180_000 }, () => {
  const ESC = '\u001b[';
  it('none into a pipe by default; FORCE_COLOR=1 forces them; NO_COLOR wins over FORCE_COLOR; FORCE_COLOR=0 turns them off even with CI=true', async () => {
    const args = ['run', '--no-probes', '--cases', small, '--reports', reportsDir(), '--quiet'];
    const plain = await routecert(args, { cwd: root.dir, env: { NO_COLOR: undefined } });
    expect(plain.stdout).not.toContain(ESC);
    const forced = await routecert(args, { cwd: root.dir, env: { NO_COLOR: undefined, FORCE_COLOR: '1' } });
    expect(forced.stdout).toContain(ESC);
    const both = await routecert(args, { cwd: root.dir, env: { NO_COLOR: '1', FORCE_COLOR: '1' } });
    expect(both.stdout).not.toContain(ESC);
    const zero = await routecert(args, { cwd: root.dir, env: { NO_COLOR: undefined, FORCE_COLOR: '0', CI: 'true' } });
    expect(zero.stdout).not.toContain(ESC);
  });
});

describe('reporters', { timeout: 180_000 }, () => {
  it('--reporter junit --output-file junit=<file> writes that file (and report.json in the run folder), nothing else', async () => {
    const reports = reportsDir();
    const file = path.join(root.dir, 'ci', 'junit.xml');
    const r = await routecert(['run', '--no-probes', '--cases', small, '--reports', reports, '--reporter', 'junit', '--output-file', `junit=${file}`], { cwd: root.dir });
    expect(r.exitCode).toBe(1);
    expect(await readFile(file, 'utf8')).toContain('<testsuites');
    const { dir } = await onlyRun(reports);
    expect((await readdir(dir)).sort()).toEqual(['report.json']);
    expect(r.stdout).not.toContain('PASS ');
  });

  it("a config's reporters: built-in names and a reporter object of its own", async () => {
    const config = path.join(root.dir, 'reporters.config.mts'); // .mts: the temp root has no package.json saying ESM
    const seen = path.join(root.dir, 'seen.txt');
    await import('node:fs/promises').then((fs) =>
      fs.writeFile(
        config,
        [
          `import { writeFileSync } from 'node:fs';`,
          `import reference from ${JSON.stringify(projectPath('routecert.config.ts'))};`,
          `import type { Reporter } from ${JSON.stringify(projectPath('src/index.ts'))};`,
          `let n = 0;`,
          `const mine: Reporter = { name: 'mine', onCaseResult() { n += 1; }, onRunEnd(r) { writeFileSync(${JSON.stringify(seen)}, \`\${n} \${r.summary.fail}\`); } };`,
          `export default { ...reference, reporters: ['dot', mine] };`,
        ].join('\n'),
        'utf8',
      ),
    );
    const reports = reportsDir();
    const r = await routecert(['run', '--no-probes', '--cases', small, '--config', config, '--reports', reports], { cwd: root.dir });
    expect(r.exitCode).toBe(1);
    expect(r.stdout.split('\n')[0]).toMatch(new RegExp(`^[.F]{${smallCount}}$`));
    expect(await readFile(seen, 'utf8')).toBe(`${smallCount} 1`);
    const { dir } = await onlyRun(reports);
    expect(await readdir(dir)).toEqual(['report.json']);
  });

  it('--reporter dot prints one mark per case, then the failing case and the summary', async () => {
    const r = await routecert(['run', '--no-probes', '--cases', small, '--reports', reportsDir(), '--reporter', 'dot'], { cwd: root.dir });
    expect(r.stdout.split('\n')[0]).toMatch(new RegExp(`^[.F]{${smallCount}}$`));
    expect(r.stdout).toContain(`FAIL  accepted`);
    expect(r.stdout).toContain(`${smallCount} cases: ${smallCount - 1} passed, 1 failed`);
  });

  it('on GitHub Actions: ::error annotations with the case file and id, and the step summary', async () => {
    const summary = path.join(root.dir, 'step-summary.md');
    const r = await routecert(['run', '--no-probes', '--cases', small, '--reports', reportsDir(), '--quiet'], {
      cwd: small,
      env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary },
    });
    expect(r.exitCode).toBe(1);
    const line = r.stdout.split('\n').find((l) => l.startsWith('::error '));
    expect(line).toMatch(new RegExp(`^::error file=claude-code/json/final\\.json,title=${failingId}::expected verdict retry, got accepted%0Aexpected retry, got accepted from structured_output \\(claude-code/json, contract pov\\)%0A`));
    expect(await readFile(summary, 'utf8')).toContain('## Not passing');
  });
});
