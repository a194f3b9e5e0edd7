/**
 * CI at scale, spawned as a CI job runs it: `run --shard 1/2` and `--shard 2/2` merged by
 * `merge-reports` equal an unsharded run case by case; `diff` of a run against itself exits 0 and
 * against a run with one case changed exits 1, naming the case. Each command and exit code is
 * spawned at least once; further inputs of the same rule run in process (cliTestKit `routecertInProcess`).
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '#src/report/types.ts';
import { copyCorpus, editCase, onlyRun, routecert, routecertInProcess, tempRoot } from './cliTestKit.ts';

let root: Awaited<ReturnType<typeof tempRoot>>;
let whole: { dir: string; report: RunReport };
let shard1: { dir: string; report: RunReport };
let shard2: { dir: string; report: RunReport };

const byId = (r: RunReport) => new Map(r.cases.map((c) => [c.id, { outcome: c.outcome, verdict: c.verdict, route: c.route, problems: c.problems }]));

beforeAll(async () => {
  root = await tempRoot('ci');
  const run = async (name: string, extra: string[]) => {
    const reports = path.join(root.dir, name);
    const r = await routecert(['run', '--no-probes', '--quiet', '--reports', reports, ...extra], { cwd: root.dir });
    expect(r.exitCode, r.stderr).toBe(0);
    return onlyRun(reports);
  };
  // Three independent runs, started together (each its own reports folder).
  [whole, shard1, shard2] = await Promise.all([run('whole', []), run('shard-1', ['--shard', '1/2']), run('shard-2', ['--shard', '2/2'])]);
}, 400_000);
afterAll(() => root.remove());

describe('--shard and merge-reports', { timeout: 240_000 }, () => {
  it('splits the corpus into two disjoint, non-empty shards that cover it', () => {
    const a = shard1.report.cases.map((c) => c.id);
    const b = shard2.report.cases.map((c) => c.id);
    expect(a.length).toBeGreaterThan(50);
    expect(b.length).toBeGreaterThan(50);
    expect(a.filter((id) => b.includes(id))).toEqual([]);
    expect([...a, ...b].sort()).toEqual(whole.report.cases.map((c) => c.id).sort());
    expect(shard1.report.header.shard).toEqual({ index: 1, count: 2 });
  });

  it('merged, the shards equal the unsharded run case by case, with every format written; diff says nothing changed', async () => {
    const out = path.join(root.dir, 'merged');
    const r = await routecert(['merge-reports', path.join(root.dir, 'shard-2'), path.join(root.dir, 'shard-1'), '--reports', out], { cwd: root.dir });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/merged 2 report\(s\): .*shard-1.*\(shard 1\/2\).*shard-2.*\(shard 2\/2\)/);
    const merged = await onlyRun(out);
    expect((await readdir(merged.dir)).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'summary.md']);
    expect(byId(merged.report)).toEqual(byId(whole.report));
    expect(merged.report.summary).toEqual(whole.report.summary);
    expect(merged.report.footer.exitCode).toBe(whole.report.footer.exitCode);
    expect(merged.report.header.shard).toBeUndefined();
    expect(merged.report.header.mergedFrom).toHaveLength(2);
    const d = await routecert(['diff', whole.dir, merged.dir], { cwd: root.dir });
    expect(d.exitCode).toBe(0);
    expect(d.stdout.trim()).toBe(`${whole.report.cases.length} cases in both: ${whole.report.cases.length} unchanged, 0 changed; 0 added, 0 removed; 0 regressions`);
  });

  it('refuses to merge when a shard is missing or given twice', async () => {
    const missing = await routecert(['merge-reports', path.join(root.dir, 'shard-1'), '--reports', path.join(root.dir, 'never')], { cwd: root.dir });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('shard 2/2 missing');
    expect(existsSync(path.join(root.dir, 'never'))).toBe(false);
    const twice = await routecertInProcess(['merge-reports', path.join(root.dir, 'shard-1'), shard1.dir, path.join(root.dir, 'shard-2')], { cwd: root.dir });
    expect(twice.exitCode).toBe(0); // the same file named twice counts once
    const whole2 = await routecertInProcess(['merge-reports', path.join(root.dir, 'shard-1'), path.join(root.dir, 'whole')], { cwd: root.dir });
    expect(whole2.exitCode).toBe(2);
    expect(whole2.stderr).toContain('ran without --shard');
  });
});

describe('diff', { timeout: 240_000 }, () => {
  it('of a run against itself exits 0', async () => {
    const d = await routecert(['diff', whole.dir, path.join(whole.dir, 'report.json')], { cwd: root.dir });
    expect(d.exitCode).toBe(0);
    expect(d.stdout).toContain('0 regressions');
  });

  it('against a run with one case changed exits 1 and names the case; added and removed cases are listed', async () => {
    const cases = path.join(root.dir, 'changed-cases');
    await copyCorpus(cases, (rel) => rel !== path.join('pi', 'json', 'fenced.json'));
    let changed = '';
    await editCase(path.join(cases, 'claude-code/json/prose-only.json'), (c) => {
      changed = c.id as string;
      c.expect = { verdict: 'accepted' };
    });
    const reports = path.join(root.dir, 'changed');
    const r = await routecertInProcess(['run', '--no-probes', '--quiet', '--cases', cases, '--reports', reports], { cwd: root.dir });
    expect(r.exitCode).toBe(1);
    const after = await onlyRun(reports);
    const removed = whole.report.cases.find((c) => c.file.endsWith(path.join('pi', 'json', 'fenced.json')))!;
    const d = await routecert(['diff', whole.dir, after.dir], { cwd: root.dir });
    expect(d.exitCode).toBe(1);
    expect(d.stdout).toMatch(new RegExp(`^REGRESSION ${changed}  claude-code/json: pass \\(dropped-unusable\\) -> fail \\(dropped-unusable\\)`, 'm'));
    expect(d.stdout).toMatch(new RegExp(`^removed    ${removed.id}  pi/json: was pass`, 'm'));
    expect(d.stdout).toMatch(/1 changed; 0 added, 1 removed; 1 regression$/m);
    // The other way round the failing case is fixed: no regression.
    const back = await routecertInProcess(['diff', after.dir, whole.dir, '--json'], { cwd: root.dir });
    expect(back.exitCode).toBe(0);
    const json = JSON.parse(back.stdout) as { regressions: number; added: { id: string }[]; changed: { id: string; regression: boolean }[] };
    expect(json.regressions).toBe(0);
    expect(json.added.map((c) => c.id)).toEqual([removed.id]);
    expect(json.changed).toEqual([expect.objectContaining({ id: changed, regression: false })]);
  });

  it('a lost worker certificate is a regression: certified before, not certified or not there after', async () => {
    const { mkdir, writeFile } = await import('node:fs/promises');
    const base = whole.report.cases[0]!;
    const check = (id: string, outcome: 'pass' | 'fail') => ({ ...base, id: `certify-claude-code-json-${id}`, route: 'certify:claude-code/json', outcome });
    const write = async (name: string, extra: ReturnType<typeof check>[]) => {
      const dir = path.join(root.dir, name);
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, 'report.json'), JSON.stringify({ ...whole.report, cases: [...whole.report.cases, ...extra] }));
      return dir;
    };
    const certified = await write('cert-before', [check('smoke-final', 'pass'), check('retry-once', 'pass')]);
    const gone = await routecertInProcess(['diff', certified, whole.dir], { cwd: root.dir });
    expect(gone.exitCode).toBe(1);
    expect(gone.stdout).toContain('REGRESSION certificate lost: claude-code/json: certified -> no certification in the later run');
    const failing = await write('cert-after', [check('smoke-final', 'pass'), check('retry-once', 'fail')]);
    const lost = await routecertInProcess(['diff', certified, failing], { cwd: root.dir });
    expect(lost.exitCode).toBe(1);
    expect(lost.stdout).toContain('REGRESSION certificate lost: claude-code/json: certified -> not certified');
    expect((await routecertInProcess(['diff', certified, certified], { cwd: root.dir })).exitCode).toBe(0);
  });

  it('exits 2 on a folder of several runs, naming them and the run to give; a --reports folder of one run is that run', async () => {
    // root.dir holds whole/, shard-1/, shard-2/ (and merged/), a run in each: a parent folder, not a run.
    const d = await routecert(['diff', whole.dir, root.dir], { cwd: root.dir });
    expect(d.exitCode).toBe(2);
    expect(d.stderr).toMatch(/is a folder of \d+ runs \(.*\), not a run: diff compares two runs; give one run folder, e.g. .*, or its report.json/);
    expect(d.stderr).not.toContain('shards');
    // `--reports whole` made whole/<time>/: the folder names its one run (the README's `diff release/report.json merged`).
    const same = await routecertInProcess(['diff', path.join(root.dir, 'whole'), whole.dir], { cwd: root.dir });
    expect(same.exitCode, same.stderr).toBe(0);
  });

  it('exits 2 on a folder without a report, saying what to give', async () => {
    const empty = path.join(root.dir, 'no-runs');
    await mkdir(empty, { recursive: true });
    const d = await routecertInProcess(['diff', whole.dir, empty], { cwd: root.dir });
    expect(d.exitCode).toBe(2);
    expect(d.stderr).toContain('holds no report.json, nor any run folder with one: give a run folder');
  });

  it('exits 2 on a JSON file that is no report ("not a routecert report", not "cut short"); a report without its footer is one cut short', async () => {
    const other = path.join(root.dir, 'other.json');
    await writeFile(other, JSON.stringify({ name: 'some-package', version: '1.0.0' }));
    const d = await routecertInProcess(['diff', path.join(whole.dir, 'report.json'), other], { cwd: root.dir });
    expect(d.exitCode).toBe(2);
    expect(d.stderr).toMatch(/other\.json is not a routecert report \(no header and cases\)/);
    expect(d.stderr).not.toMatch(/cut short/);
    const cut = path.join(root.dir, 'cut.json');
    const { footer: _footer, ...rest } = JSON.parse(await readFile(path.join(whole.dir, 'report.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(cut, JSON.stringify(rest));
    const c = await routecertInProcess(['diff', path.join(whole.dir, 'report.json'), cut], { cwd: root.dir });
    expect(c.exitCode).toBe(2);
    expect(c.stderr).toMatch(/cut\.json has no footer: the run that wrote it was cut short/);
  });
});
