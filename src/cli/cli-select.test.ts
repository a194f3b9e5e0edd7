/**
 * A CLI that never lies (issue 13 part 5), spawned as a user runs it: a filter or folder that
 * selects nothing exits 2 and names what exists; a route only the startup probes cover is judged.
 * (Its other commands: cli-args.test.ts, cli-run.test.ts.)
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectPath } from '#src/paths.ts';
import { BUNDLED_CASES, copyCorpus, routecert, routecertInProcess, smallCorpus, tempRoot } from './cliTestKit.ts';

let root: Awaited<ReturnType<typeof tempRoot>>;
/** Every claude-code/json case of the corpus, one of them failing (cliTestKit `smallCorpus`). */
let small: string;
let n = 0;
/** A fresh reports folder under the root. */
const reportsDir = () => path.join(root.dir, `reports-${(n += 1)}`);

beforeAll(async () => {
  root = await tempRoot('cli-select');
  ({ dir: small } = await smallCorpus(path.join(root.dir, 'small')));
}, 60_000);
afterAll(() => root.remove(), 60_000);

// The first test is spawned as a user runs routecert; the others hold each filter and folder to the
// same rule in process (cliTestKit `routecertInProcess`).
describe('filters and folders that select nothing exit 2 and name what exists', { timeout: 180_000 }, () => {
  it('--route nosuchcli', async () => {
    const r = await routecert(['run', '--no-probes', '--route', 'nosuchcli', '--reports', reportsDir()], { cwd: root.dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--route nosuchcli selects nothing');
    expect(r.stderr).toMatch(/Routes: .*claude-code\/json.*codex\/jsonl/);
    expect(r.stdout).not.toContain('0 cases');
  });

  it('--route claude: did you mean claude-code?', async () => {
    const r = await routecertInProcess(['run', '--no-probes', '--route', 'claude'], { cwd: root.dir });
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
    const r = await routecertInProcess(['run', '--no-probes', '--contract', 'nosuch'], { cwd: root.dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--contract nosuch selects nothing\. Contracts: .*pov/);
    const t = await routecertInProcess(['run', '--no-probes', '--cases', small, '--tag', 'finall'], { cwd: root.dir });
    expect(t.exitCode).toBe(2);
    expect(t.stderr).toContain('--tag finall selects nothing; did you mean "final"');
    const c = await routecertInProcess(['run', '--no-probes', '--cases', small, '--case', 'ffffffffffff'], { cwd: root.dir });
    expect(c.exitCode).toBe(2);
    expect(c.stderr).toContain(`--case ffffffffffff is no case id (nor a prefix of one) in ${small}`);
  });

  it('a folder whose only case file is broken names that file, not "holds no case file"', async () => {
    const fs = await import('node:fs/promises');
    const broken = path.join(root.dir, 'broken-only');
    await fs.mkdir(path.join(broken, 'r'), { recursive: true });
    await fs.writeFile(path.join(broken, 'r', 'x.json'), '{"id": 1');
    const r = await routecertInProcess(['run', '--no-probes', '--cases', broken], { cwd: root.dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).not.toContain('holds no case file');
    expect(r.stderr).toMatch(/no case of .*broken-only could be loaded[\s\S]*x\.json .*not valid JSON/);
  });

  it('a folder without case files exits 2', async () => {
    const r = await routecertInProcess(['run', '--no-probes', '--cases', path.join(small, 'claude-code')], { cwd: root.dir });
    expect(r.exitCode).toBe(1); // the folder holds cases (one fails)
    const empty = path.join(root.dir, 'empty');
    await import('node:fs/promises').then((fs) => fs.mkdir(empty, { recursive: true }));
    const e = await routecertInProcess(['run', '--no-probes', '--cases', empty], { cwd: root.dir });
    expect(e.exitCode).toBe(2);
    expect(e.stderr).toContain('holds no case file');
  });
});

describe('other selections that select nothing exit 2, naming what exists (hnew finding 8)', { timeout: 180_000 }, () => {
  it('record --fix-ids on a folder with no case file names the folder (it printed "0 id(s) updated", exit 0)', async () => {
    const empty = path.join(root.dir, 'no-cases');
    await mkdir(empty, { recursive: true });
    const r = await routecert(['record', '--fix-ids', '--out', 'no-cases'], { cwd: root.dir });
    expect(r.exitCode, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain('record --fix-ids: no case file (*.json) in no-cases: nothing to fix (name your cases folder with --out <dir>)');
    expect(r.stdout).not.toContain('id(s) updated');
  });

  it('run --generic for a route no selected case has names the route and the routes present (the spec went unused, exit 0)', async () => {
    const reports = reportsDir();
    const r = await routecertInProcess(['run', '--no-probes', '--cases', small, '--generic', 'nosuch/json=key=answer', '--reports', reports], { cwd: root.dir });
    expect(r.exitCode, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain('--generic nosuch/json=... decodes nothing: no selected case of');
    expect(r.stderr).toContain('has route nosuch/json');
    expect(r.stderr).toContain('Routes of the selected cases: claude-code/json.');
    expect(existsSync(reports)).toBe(false);
    // On the bundled corpus the message names it, not routecert's install path on this machine.
    const bundled = await routecertInProcess(['run', '--no-probes', '--route', 'claude-code/json', '--generic', 'nosuch/json=key=answer', '--reports', reports], { cwd: root.dir });
    expect(bundled.exitCode, bundled.stdout + bundled.stderr).toBe(2);
    expect(bundled.stderr).toContain("no selected case of the bundled corpus (routecert's fixtures/cases) has route nosuch/json");
    expect(bundled.stderr).not.toContain(BUNDLED_CASES);
  });

  it('under --no-probes certification is off, and says so: a filter naming it is refused with the reason, a config\'s worker is named uncertified', async () => {
    const reports = reportsDir();
    const route = await routecertInProcess(['run', '--no-probes', '--route', 'certify:grok/json', '--reports', reports], { cwd: root.dir });
    expect(route.exitCode).toBe(2);
    expect(route.stderr).toContain('certification (routes certify:<route>, case ids certify-...) is off under --no-probes');
    // With certification on, a misspelt check id is refused before anything runs (the route's prefix let it through, and nothing was judged).
    const typo = await routecertInProcess(['run', '--case', 'certify-grok-json-retry-onse', '--reports', reports], { cwd: root.dir });
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toContain('--case certify-grok-json-retry-onse is no case id (nor a prefix of one) in the bundled corpus');
    expect(typo.stderr).toContain('did you mean "certify-grok-json-retry-once"?');
    const worker = await routecertInProcess(['run', '--no-probes', '--config', projectPath('examples/bash-worker/routecert.config.ts'), '--route', 'grok/json', '--reports', reports], { cwd: root.dir });
    expect(worker.exitCode, worker.stderr).toBe(0);
    expect(worker.stderr).toMatch(/worker \S+ of .*routecert\.config\.ts is not certified in this run \(--no-probes turns certification off\)/);
  });

  it('an empty --shard stays exit 0 and says so (README: a fixed CI matrix), but diff of two reports with nothing in them is exit 2: nothing was compared', async () => {
    const one = path.join(root.dir, 'one-case');
    await copyCorpus(one, (rel) => rel === path.join('claude-code', 'json', 'final.json'));
    const runs: { reports: string; stdout: string }[] = [];
    for (const i of [1, 2]) {
      const reports = reportsDir();
      const r = await routecertInProcess(['run', '--no-probes', '--cases', one, '--shard', `${i}/2`, '--reports', reports], { cwd: root.dir });
      expect(r.exitCode, r.stdout + r.stderr).toBe(0);
      runs.push({ reports, stdout: r.stdout });
    }
    const empty = runs.find((x) => x.stdout.includes('holds no case of this selection'));
    expect(empty, runs.map((x) => x.stdout).join('\n---\n')).toBeDefined();
    const [run] = await readdir(empty!.reports);
    const report = path.join(empty!.reports, run!);
    const d = await routecertInProcess(['diff', report, report], { cwd: root.dir });
    expect(d.exitCode, d.stdout + d.stderr).toBe(2);
    expect(d.stderr).toContain('diff: nothing was compared: neither');
    expect(d.stdout).not.toContain('0 regressions');
    // A report that holds a case still compares with itself: exit 0.
    const full = runs.find((x) => x !== empty)!;
    const [fullRun] = await readdir(full.reports);
    const f = await routecertInProcess(['diff', path.join(full.reports, fullRun!), path.join(full.reports, fullRun!)], { cwd: root.dir });
    expect(f.exitCode, f.stderr).toBe(0);
  });
});

describe('a route only the startup probes cover', { timeout: 400_000 }, () => {
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
