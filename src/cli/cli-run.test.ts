/**
 * A CLI that never lies (issue 13 part 5), spawned as a user runs it: judging commands exit
 * non-zero on the wrong verdict; the replay command keeps `--cases` and `--config`; a reader that
 * closes the pipe early; NO_COLOR and FORCE_COLOR; the reporters and their files. (Its other
 * commands: cli-select.test.ts, cli-args.test.ts.)
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectPath } from '#src/paths.ts';
import { onlyRun, routecert, routecertInProcess, smallCorpus, tempRoot } from './cliTestKit.ts';

let root: Awaited<ReturnType<typeof tempRoot>>;
/** Every claude-code/json case of the corpus, one of them failing (cliTestKit `smallCorpus`). */
let small: string;
let smallCount = 0;
let failingId = '';
let n = 0;
/** A fresh reports folder under the root. */
const reportsDir = () => path.join(root.dir, `reports-${(n += 1)}`);

beforeAll(async () => {
  root = await tempRoot('cli-run');
  ({ dir: small, count: smallCount, failing: failingId } = await smallCorpus(path.join(root.dir, 'small')));
}, 60_000);
afterAll(() => root.remove(), 60_000);

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
    const again = await routecertInProcess(['run', '--case', failingId, '--cases', small, '--config', config, '--no-probes', '--reports', reportsDir()], { cwd: root.dir });
    expect(again.exitCode).toBe(1);
    expect(again.stdout).toContain('1 cases: 0 passed, 1 failed');
  });

  it('a passing case whose id no longer matches its content says so, in --quiet and dot runs too (a hand edit is not silent)', async () => {
    const dir = path.join(root.dir, 'stale-id');
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, 'final.json');
    const c = JSON.parse(await readFile(projectPath('fixtures/cases/pi/json/final.json'), 'utf8')) as { id: string };
    c.id = '0000000000000000';
    await writeFile(file, `${JSON.stringify(c, null, 2)}\n`);
    for (const extra of [['--quiet'], ['--reporter', 'dot']]) {
      const r = await routecertInProcess(['run', '--no-probes', '--cases', dir, '--reports', reportsDir(), ...extra], { cwd: root.dir });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toContain('1 cases: 1 passed');
      expect(r.stdout).toMatch(/1 passing case with warnings \(0000000000000000 .*final\.json\): id 0000000000000000 does not match its content \(expected [0-9a-f]{16}\); re-save it with `npx routecert record --fix-ids` \(the config's cases folder/);
    }
    const quiet = await routecertInProcess(['run', '--no-probes', '--cases', dir, '--reports', reportsDir(), '--quiet'], { cwd: root.dir });
    expect(quiet.stdout).toMatch(/PASS .*0000000000000000[^\n]*\n\s+warning: id 0000000000000000 does not match its content/);
  });
});

describe('colours', { timeout: 180_000 }, () => {
  const ESC = '\u001b[';
  it('none into a pipe by default; FORCE_COLOR=1 forces them; NO_COLOR wins over FORCE_COLOR; FORCE_COLOR=0 turns them off even with CI=true; --color and --no-color win over both', async () => {
    const args = ['run', '--no-probes', '--cases', small, '--reports', reportsDir(), '--quiet'];
    const plain = await routecert(args, { cwd: root.dir, env: { NO_COLOR: undefined } });
    expect(plain.stdout).not.toContain(ESC);
    const forced = await routecert(args, { cwd: root.dir, env: { NO_COLOR: undefined, FORCE_COLOR: '1' } });
    expect(forced.stdout).toContain(ESC);
    const both = await routecert(args, { cwd: root.dir, env: { NO_COLOR: '1', FORCE_COLOR: '1' } });
    expect(both.stdout).not.toContain(ESC);
    const zero = await routecert(args, { cwd: root.dir, env: { NO_COLOR: undefined, FORCE_COLOR: '0', CI: 'true' } });
    expect(zero.stdout).not.toContain(ESC);
    // The command line beats the environment (no-color.org): --color under NO_COLOR, --no-color under FORCE_COLOR.
    const flag = await routecert([...args, '--color'], { cwd: root.dir, env: { NO_COLOR: '1' } });
    expect(flag.stdout).toContain(ESC);
    const noFlag = await routecert([...args, '--no-color'], { cwd: root.dir, env: { NO_COLOR: undefined, FORCE_COLOR: '1' } });
    expect(noFlag.stdout).not.toContain(ESC);
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
    const r = await routecertInProcess(['run', '--no-probes', '--cases', small, '--reports', reportsDir(), '--reporter', 'dot'], { cwd: root.dir });
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
