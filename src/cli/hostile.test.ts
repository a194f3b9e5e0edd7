/**
 * routecert under bad input, faults and signals (issue 23), run as a user runs it: `routecert` spawned
 * on hostile case folders, and every file it writes and everything it prints searched for secrets.
 */
import { execFileSync } from 'node:child_process';
import { chmod, cp, mkdir, readFile, readdir, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa, type ResultPromise } from 'execa';
import { projectPath } from '#src/paths.ts';
import { CANARIES, CANARY_CREDENTIAL_VAR, canaryText, leakedMarkers } from '#src/record/canaries.ts';
import { procStat } from '#src/process/reap.ts';
import { caseId } from '#src/record/caseId.ts';
import type { RunReport } from '#src/report/types.ts';
import { filesUnder, FINDINGS_CASE, onlyRun, routecert, routecertInProcess, tempRoot } from './cliTestKit.ts';

let root: { dir: string; remove: () => Promise<void> };
beforeAll(async () => {
  root = await tempRoot('hostile');
});
afterAll(async () => {
  await root.remove();
});



/** A case (the populated findings review) whose answer, stdout and stderr are edited by `edit`. */
/* eslint-disable @typescript-eslint/no-explicit-any -- a test edits any field of a case */
async function writeFindingsCase(file: string, edit: (c: Record<string, any>, answer: Record<string, any>, envelope: Record<string, any>) => void): Promise<void> {
  const c = JSON.parse(await readFile(FINDINGS_CASE, 'utf8')) as Record<string, any>;
  const envelope = JSON.parse(c.attempts[0].stdout) as Record<string, any>;
  const answer = envelope.structured_output as Record<string, any>;
  const original = c.attempts[0].stdout as string;
  edit(c, answer, envelope);
  // An edit of the answer is serialised into stdout; an edit of stdout itself stays as it is.
  if (c.attempts[0].stdout === original) c.attempts[0].stdout = JSON.stringify(envelope);
  c.id = caseId(c as Parameters<typeof caseId>[0]);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(c, null, 2));
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/**
 * A fake claude at `<dir>/claude` that answers `--version` with a supported version and otherwise
 * hangs with a child, writing its pid and its child's to `<dir>/pids` and its parent's (routecert's)
 * to `<dir>/routecert-pid`.
 */
async function hangingClaude(dir: string): Promise<{ bin: string; pids: string; parent: string }> {
  const pids = path.join(dir, 'pids');
  const parent = path.join(dir, 'routecert-pid');
  const bin = path.join(dir, 'claude');
  await writeFile(bin, `#!/bin/sh\nif [ "$1" = "--version" ]; then echo "2.1.332 (Claude Code)"; exit 0; fi\necho $PPID > ${parent}; sleep 1000 & echo $! >> ${pids}; echo $$ >> ${pids}; wait\n`);
  await chmod(bin, 0o755);
  return { bin, pids, parent };
}

/** Resolves once `file` holds `lines` lines, however long that takes; rejects when `ended()` says the process under test ended first. */
async function waitForLines(file: string, lines: number, ended: () => Promise<string | null>): Promise<void> {
  for (;;) {
    if ((await readFile(file, 'utf8').catch(() => '')).trim().split('\n').length >= lines) return;
    const why = await ended();
    if (why !== null) throw new Error(`routecert ended before the fake CLI or worker started: ${why}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * `node bin/routecert.js <args>` started in `dir` as a user starts it (no colour, not in CI), once
 * its fake CLI or worker has written `lines` pids to `pids`, however long that takes.
 */
async function startedRoutecert(args: string[], dir: string, pids: string, lines: number): Promise<{ child: ResultPromise }> {
  const child = execa('node', [projectPath('bin/routecert.js'), ...args], { cwd: dir, reject: false, env: { NO_COLOR: '1', CI: '', GITHUB_ACTIONS: '' }, stdin: 'ignore' });
  let exited = false;
  void child.then(() => (exited = true));
  await waitForLines(pids, lines, async () => (exited ? String((await child).stderr) : null));
  // In an object: an async function returning the child itself would wait for it to end.
  return { child };
}

/**
 * routecert probing a hanging fake Claude, started the way npm starts it: `sh -c <command>` (which
 * does not exec it here: a command follows), the outer sh standing for npm as the shell's parent.
 * Resolves once the fake CLI runs; `parent` is the file holding routecert's pid.
 */
async function probingUnderNpmShell(name: string) {
  const dir = path.join(root.dir, name);
  await mkdir(path.join(dir, 'cases'), { recursive: true });
  await cp(FINDINGS_CASE, path.join(dir, 'cases', 'one.json'));
  const { bin: fake, pids, parent } = await hangingClaude(dir);
  const command = [process.execPath, projectPath('bin/routecert.js'), 'run', '--no-certify', '--no-progress', '--route', 'claude-code/json', '--cases', 'cases', '--reports', 'reports', '--bin', `claude=${fake}`, '--probe-timeout', '600000'];
  const script = `${command.map((a) => `'${a}'`).join(' ')}; true`;
  const npm = execa('sh', ['-c', `sh -c "$1"; true`, 'npm', script], { cwd: dir, reject: false, env: { NO_COLOR: '1', CI: '', GITHUB_ACTIONS: '', npm_command: 'exec' }, stdin: 'ignore' });
  let exited = false;
  void npm.then(() => (exited = true));
  await waitForLines(pids, 2, async () => (exited ? String((await npm).stderr) : null));
  return { dir, npm, pids, parent };
}

describe('redaction: no canary of any shape reaches a file routecert writes or its console', () => {
  it('run: report.json, junit.xml, summary.md, report.html and the console hold placeholders, never a canary', async () => {
    const cases = path.join(root.dir, 'canary-cases');
    const reports = path.join(root.dir, 'canary-reports');
    // Accepted: every canary in the answer (report.json quotes the value) and on stderr.
    await writeFindingsCase(path.join(cases, 'accepted.json'), (c, answer) => {
      answer.notes = canaryText();
      c.attempts[0].stderr = canaryText();
      c.description = `canaries ${CANARIES.email} ${CANARIES.homeColon}`;
    });
    // Failing: the wrong expectation makes every report quote the case's evidence.
    await writeFindingsCase(path.join(cases, 'failing.json'), (c, answer) => {
      answer.findings[0].title = canaryText();
      c.attempts[0].stderr = canaryText();
      c.expect = { verdict: 'retry' };
    });
    // Unusable: the canaries are all the envelope holds, quoted as evidence.
    await writeFindingsCase(path.join(cases, 'prose.json'), (c) => {
      c.attempts[0].stdout = canaryText();
      c.attempts[0].stderr = canaryText();
      c.attempts[0].exitCode = 1;
      c.expect = { verdict: 'accepted' };
    });
    const r = await routecert(['run', '--no-probes', '--no-certify', '--cases', cases, '--reports', reports], {
      cwd: root.dir,
      env: { [CANARY_CREDENTIAL_VAR]: CANARIES.credential },
    });
    expect(r.exitCode, r.stderr).toBe(1);
    const { dir, report } = await onlyRun(reports);
    const written = await filesUnder(dir);
    expect(written.map((w) => path.basename(w.file)).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'summary.md']);
    for (const w of [...written, { file: 'stdout', text: r.stdout }, { file: 'stderr', text: r.stderr }]) {
      expect(leakedMarkers(w.text), `${w.file} leaks`).toEqual([]);
      for (const canary of Object.values(CANARIES)) expect(w.text.includes(canary), `${w.file} holds ${canary}`).toBe(false);
    }
    // Redacted, not lost: the accepted answer is there with its placeholders.
    const accepted = report.cases.find((c) => c.file.endsWith('accepted.json'))!;
    expect(accepted.verdict?.verdict, JSON.stringify(accepted.problems)).toBe('accepted');
    const title = (accepted.verdict as { value: { notes: string } }).value.notes;
    for (const placeholder of ['<redacted:jwt>', '<redacted:aws-key-id>', '<redacted:aws-secret>', '<email>', '<home>:12', '(<home>)', '<session>', '<uuid>', '<redacted:secret>']) {
      expect(title).toContain(placeholder);
    }
  });

  it('record --fix-ids: a case file it rewrites is redacted (and its id recomputed over the redacted content)', async () => {
    const out = path.join(root.dir, 'fix-ids');
    await writeFindingsCase(path.join(out, 'leaky.json'), (c, answer) => {
      answer.findings[0].title = canaryText();
    });
    const r = await routecert(['record', '--fix-ids', '--out', out], { cwd: root.dir, env: { [CANARY_CREDENTIAL_VAR]: CANARIES.credential } });
    expect(r.exitCode, r.stderr).toBe(0);
    const text = await readFile(path.join(out, 'leaky.json'), 'utf8');
    expect(leakedMarkers(text)).toEqual([]);
    const check = await routecertInProcess(['run', '--no-probes', '--no-certify', '--cases', out, '--reports', path.join(root.dir, 'fix-ids-reports')], { cwd: root.dir });
    expect(check.stdout).not.toMatch(/does not match its content/);
  });
});

describe('reports never depend on one case', () => {
  it('a 6,000-deep array in an accepted answer: every report is written, the value bounded with its digest', async () => {
    const cases = path.join(root.dir, 'deep-cases');
    const reports = path.join(root.dir, 'deep-reports');
    // Built as text: JSON.stringify itself cannot nest 6,000 deep on a test worker's stack.
    await writeFindingsCase(path.join(cases, 'deep.json'), (c, answer, envelope) => {
      answer.deep = 'DEEP';
      c.expect = { verdict: 'accepted', origin: 'structured_output' };
      c.attempts[0].stdout = JSON.stringify(envelope).replace('"DEEP"', `${'['.repeat(6000)}${']'.repeat(6000)}`);
    });
    const r = await routecert(['run', '--no-probes', '--no-certify', '--cases', cases, '--reports', reports], { cwd: root.dir });
    expect(r.stderr).not.toMatch(/Maximum call stack/);
    expect(r.exitCode, r.stderr).toBe(0);
    const { dir, report } = await onlyRun(reports);
    expect((await readdir(dir)).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'summary.md']);
    const value = (report.cases[0]!.verdict as { value: Record<string, unknown> }).value;
    expect(value).toMatchObject({ $clipped: 'value', type: 'object', depth: 6001 });
    expect(value.sha256).toMatch(/^[0-9a-f]{64}$/);

    // --full-values keeps it whole, written iteratively.
    const full = path.join(root.dir, 'deep-full');
    const f = await routecert(['run', '--no-probes', '--no-certify', '--cases', cases, '--reports', full, '--full-values', '--reporter', 'json'], { cwd: root.dir });
    expect(f.exitCode, f.stderr).toBe(0);
    const text = await readFile(path.join(full, (await readdir(full))[0]!, 'report.json'), 'utf8');
    expect(text.length).toBeGreaterThan(6000 * 2);
  });

  it('a 3 MiB prose stdout quoted as evidence is clipped: report.json stays small', async () => {
    const cases = path.join(root.dir, 'long-cases');
    const reports = path.join(root.dir, 'long-reports');
    await writeFindingsCase(path.join(cases, 'long.json'), (c) => {
      c.attempts[0].stdout = `prose ${'x'.repeat(3 * 2 ** 20)}`;
      c.expect = { verdict: 'accepted' };
    });
    const r = await routecert(['run', '--no-probes', '--no-certify', '--cases', cases, '--reports', reports], { cwd: root.dir });
    expect(r.exitCode).toBe(1);
    const { dir } = await onlyRun(reports);
    const size = (await stat(path.join(dir, 'report.json'))).size;
    expect(size).toBeLessThan(2 ** 20);
  });

  it('a reporter that throws is that reporter\'s fault: the other reports are still written, exit 3', async () => {
    const dir = path.join(root.dir, 'bad-reporter');
    await mkdir(dir, { recursive: true });
    await cp(FINDINGS_CASE, path.join(dir, 'cases', 'one.json'), { recursive: true });
    await writeFile(
      path.join(dir, 'routecert.config.mjs'),
      `export default { cases: 'cases', contracts: [], reporters: [{ name: 'boom', onRunEnd() { throw new Error('boom at the end'); } }, 'json', 'markdown'] };\n`,
    );
    const r = await routecert(['run', '--no-probes', '--no-certify', '--config', 'routecert.config.mjs', '--cases', 'cases', '--reports', 'reports'], { cwd: dir });
    expect(r.stderr).toMatch(/the boom reporter failed: boom at the end/);
    expect(r.exitCode).toBe(3);
    const { dir: run } = await onlyRun(path.join(dir, 'reports'));
    expect((await readdir(run)).sort()).toEqual(['report.json', 'summary.md']);
  });
});

describe('case discovery is total and honest', () => {
  it('links, loops, a named pipe, a dangling link, a BOM, invalid UTF-8 and a duplicate id: each named, nothing counted twice, no hang', async () => {
    const cases = path.join(root.dir, 'discovery');
    await mkdir(path.join(cases, 'sub'), { recursive: true });
    await cp(FINDINGS_CASE, path.join(cases, 'sub', 'one.json'));
    await symlink('.', path.join(cases, 'dot'));
    await symlink('..', path.join(cases, 'sub', 'up'));
    await symlink('sub', path.join(cases, 'again'));
    execFileSync('mkfifo', [path.join(cases, 'x.json')]);
    await symlink('missing.json', path.join(cases, 'dangling.json'));
    // A link to itself cannot be followed (ELOOP): an entry routecert cannot read, even as root.
    await symlink('selfloop', path.join(cases, 'selfloop'));
    const text = await readFile(FINDINGS_CASE);
    await writeFile(path.join(cases, 'bom.json'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), text]));
    const bad = Buffer.from(text);
    const at = bad.indexOf('populated');
    bad[at] = 0xff;
    await writeFile(path.join(cases, 'utf8.json'), bad);
    await cp(FINDINGS_CASE, path.join(cases, 'copy.json'));

    const r = await routecert(['run', '--no-probes', '--no-certify', '--cases', cases, '--reports', path.join(root.dir, 'discovery-reports')], { cwd: root.dir, timeoutMs: 60_000 });
    expect(r.exitCode, r.stderr).toBe(2);
    const { report } = await onlyRun(path.join(root.dir, 'discovery-reports'));
    expect(report.summary.total).toBe(1);
    const faults = report.faults.map((f) => `${f.file} ${f.where}: ${f.message}`).join('\n');
    expect(faults).toMatch(/bom\.json byte 0: starts with a UTF-8 byte order mark/);
    expect(faults).toMatch(new RegExp(`utf8\\.json byte ${at}: not valid UTF-8 at byte offset ${at}`));
    expect(faults).toMatch(/dangling\.json : a link that cannot be followed/);
    expect(faults).toMatch(/selfloop : a link that cannot be followed: ELOOP/);
    expect(faults).toMatch(/copy\.json \/id: id \w+ is also the id of .*one\.json/);
    expect(r.stderr).toMatch(/x\.json: not a regular file/);
    expect(r.stderr).toMatch(/dot: a link back into a folder it is in \(a loop\)/);
    expect(r.stderr).toMatch(/sub: the same folder as .*again/);
  });

  it('record --fix-ids names a BOM, invalid UTF-8 and a link loop, leaves those files byte for byte, still fixes the others, exit 2', async () => {
    const out = path.join(root.dir, 'fix-ids-hostile');
    await mkdir(out, { recursive: true });
    const text = await readFile(FINDINGS_CASE);
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), text]);
    const bad = Buffer.from(text);
    const at = bad.indexOf('populated');
    bad[at] = 0xff;
    await writeFile(path.join(out, 'bom.json'), bom);
    await writeFile(path.join(out, 'utf8.json'), bad);
    await writeFile(path.join(out, 'stale.json'), text.toString('utf8').replace(/"id": "[0-9a-f]{16}"/, '"id": "0000000000000000"'));
    await symlink('selfloop', path.join(out, 'selfloop'));
    const r = await routecert(['record', '--fix-ids', '--out', out], { cwd: root.dir });
    expect(r.stderr).toMatch(/bom\.json byte 0: starts with a UTF-8 byte order mark/);
    expect(r.stderr).toMatch(new RegExp(`utf8\\.json byte ${at}: not valid UTF-8 at byte offset ${at}`));
    expect(r.stderr).toMatch(/selfloop: a link that cannot be followed: ELOOP/);
    expect(r.stdout).toMatch(/stale\.json: id 0000000000000000 -> [0-9a-f]{16}/);
    expect(r.stdout).toMatch(/1 id\(s\) updated; 3 file\(s\) or folder\(s\) left as they are/);
    expect(r.exitCode).toBe(2);
    expect(await readFile(path.join(out, 'bom.json'))).toEqual(bom);
    expect(await readFile(path.join(out, 'utf8.json'))).toEqual(bad);
  });

  const asRoot = process.getuid?.() === 0;
  it.skipIf(asRoot)(`an unreadable subfolder is a fault that fails the run, not a silent drop${asRoot ? ' (skipped: run as root, who can read every folder)' : ''}`, async () => {
    const cases = path.join(root.dir, 'unreadable');
    await mkdir(path.join(cases, 'locked'), { recursive: true });
    await cp(FINDINGS_CASE, path.join(cases, 'one.json'));
    await cp(FINDINGS_CASE, path.join(cases, 'locked', 'two.json'));
    await chmod(path.join(cases, 'locked'), 0o000);
    try {
      const r = await routecert(['run', '--no-probes', '--no-certify', '--cases', cases, '--reports', path.join(root.dir, 'unreadable-reports')], { cwd: root.dir });
      expect(r.exitCode).toBe(2);
      const { report } = await onlyRun(path.join(root.dir, 'unreadable-reports'));
      expect(report.faults.map((f) => f.message).join('\n')).toMatch(/cannot read this folder/);
      // record --fix-ids walks the folder as run does: the unreadable folder is said, exit 2.
      const fix = await routecert(['record', '--fix-ids', '--out', cases], { cwd: root.dir });
      expect(fix.stderr).toMatch(/locked: cannot read this folder/);
      expect(fix.exitCode).toBe(2);
    } finally {
      await chmod(path.join(cases, 'locked'), 0o755);
    }
  });

  it('diff keeps two results of one id apart: a failing copy is a regression', async () => {
    const dir = path.join(root.dir, 'diff-dup');
    await mkdir(dir, { recursive: true });
    const base = path.join(dir, 'cases');
    await cp(FINDINGS_CASE, path.join(base, 'one.json'));
    const before = await routecert(['run', '--no-probes', '--no-certify', '--cases', base, '--reports', path.join(dir, 'before'), '--reporter', 'json'], { cwd: dir });
    expect(before.exitCode).toBe(0);
    const { report: b } = await onlyRun(path.join(dir, 'before'));
    const after: RunReport = structuredClone(b);
    after.cases.push({ ...structuredClone(b.cases[0]!), file: 'cases/copy.json', outcome: 'fail' });
    await writeFile(path.join(dir, 'after.json'), JSON.stringify(after));
    const d = await routecertInProcess(['diff', path.join(dir, 'before', (await readdir(path.join(dir, 'before')))[0]!, 'report.json'), path.join(dir, 'after.json')], { cwd: dir });
    expect(d.stdout).toMatch(/REGRESSION/);
    expect(d.exitCode).toBe(1);
  });
});

describe('runs and recordings side by side', () => {
  it('two runs started together get a report folder each', async () => {
    const reports = path.join(root.dir, 'together');
    const cases = path.join(root.dir, 'together-cases');
    await cp(FINDINGS_CASE, path.join(cases, 'one.json'));
    const args = ['run', '--no-probes', '--no-certify', '--cases', cases, '--reports', reports, '--reporter', 'json'];
    const [a, b] = await Promise.all([routecert(args, { cwd: root.dir }), routecert(args, { cwd: root.dir })]);
    expect([a.exitCode, b.exitCode]).toEqual([0, 0]);
    const runs = await readdir(reports);
    expect(runs).toHaveLength(2);
    for (const run of runs) expect(JSON.parse(await readFile(path.join(reports, run, 'report.json'), 'utf8')).summary.total).toBe(1);
  });

  it('record --fix-ids never writes through a symlink to a file outside --out', async () => {
    const out = path.join(root.dir, 'link-out');
    const outside = path.join(root.dir, 'outside.json');
    await writeFindingsCase(outside, () => undefined);
    // A stale id: --fix-ids wants to rewrite the file.
    await writeFile(outside, (await readFile(outside, 'utf8')).replace(/"id": "[0-9a-f]{16}"/, '"id": "0000000000000000"'));
    await mkdir(out, { recursive: true });
    await symlink(outside, path.join(out, 'linked.json'));
    const before = await readFile(outside, 'utf8');
    const r = await routecert(['record', '--fix-ids', '--out', out], { cwd: root.dir });
    expect(r.stderr).toMatch(/linked\.json is a symlink: routecert never writes a case through one/);
    expect(r.exitCode).toBe(2);
    expect(await readFile(outside, 'utf8')).toBe(before);
  });

  it('record --from never writes outside --out: not through a linked folder, not into a linked --out; a --name with a .. segment is refused', async () => {
    const dir = path.join(root.dir, 'from-escape');
    const outside = path.join(dir, 'outside');
    await mkdir(outside, { recursive: true });
    await writeFile(path.join(dir, 'capture.txt'), '{"type":"result","is_error":false,"structured_output":{"a":1}}\n');
    const from = (out: string, name: string) => routecert(['record', '--from', 'capture.txt', '--route', 'claude-code/json', '--expect', 'accepted', '--out', out, '--name', name], { cwd: dir });
    // A folder on the way (the route's first folder) links outside --out.
    await mkdir(path.join(dir, 'linked-sub'), { recursive: true });
    await symlink(outside, path.join(dir, 'linked-sub', 'claude-code'));
    const sub = await from('linked-sub', 'via');
    expect(sub.stderr).toMatch(/linked-sub\/claude-code\/json leads outside \S*linked-sub \(through a symlink\)/);
    // --out itself is a link to another folder.
    await symlink(outside, path.join(dir, 'linked-out'));
    const out = await from('linked-out', 'via');
    expect(out.stderr).toMatch(/linked-out is a symlink: routecert never writes cases through one/);
    // A name that climbs out of --out.
    await mkdir(path.join(dir, 'cases'), { recursive: true });
    const climb = await from('cases', '../../../escaped');
    expect(climb.stderr).toContain('--name "../../../escaped": a case name is a file name under the route\'s folder (subfolders allowed, no "..",');
    // A `..` that stays under --out would still land the case in another route's folder: refused too.
    const sideways = await from('cases', 'a/../../../codex/jsonl/x');
    expect(sideways.stderr).toContain('--name "a/../../../codex/jsonl/x": a case name is a file name');
    for (const r of [sub, out, climb, sideways]) expect(r.exitCode, r.stderr).toBe(2);
    // Nothing was made outside --out, not even a folder.
    expect(await readdir(outside)).toEqual([]);
    expect((await readdir(dir)).sort()).toEqual(['capture.txt', 'cases', 'linked-out', 'linked-sub', 'outside']);
    expect(await readdir(path.join(dir, 'cases'))).toEqual([]);
  });
});

describe('signals', () => {
  it('SIGTERM mid-run: the worker and its child are reaped, a partial report marked interrupted is written, exit 143', async () => {
    const dir = path.join(root.dir, 'signal');
    await mkdir(path.join(dir, 'cases'), { recursive: true });
    await cp(FINDINGS_CASE, path.join(dir, 'cases', 'one.json'));
    const pids = path.join(dir, 'pids');
    await writeFile(
      path.join(dir, 'routecert.config.json'),
      JSON.stringify({
        worker: {
          name: 'a worker that hangs with a child',
          command: ['sh', '-c', `sleep 1000 & echo $! >> ${pids}; echo $$ >> ${pids}; wait`, '{prompt}'],
          prompt: 'file',
          artifact: '{outDir}/out.json',
          windowEnv: { hardWindowS: 'PEER_HARD_SECS', retryMinS: 'PEER_RETRY_MIN_SECS' },
        },
        routes: ['claude-code/json'],
        contract: 'pov',
      }),
    );
    // Only the certification source (no startup probes of installed CLIs): the worker starts at once.
    const { child } = await startedRoutecert(['run', '--config', 'routecert.config.json', '--cases', 'cases', '--reports', 'reports', '--no-progress', '--route', 'certify:claude-code/json'], dir, pids, 2);
    const started = (await readFile(pids, 'utf8')).trim().split('\n').map(Number);
    child.kill('SIGTERM');
    const r = await child;
    expect(r.exitCode, String(r.stderr)).toBe(143);
    expect(String(r.stderr)).toMatch(/SIGTERM: stopping/);
    for (const pid of started) {
      const s = procStat(pid);
      expect(s === null || s.state === 'Z', `pid ${pid} still runs`).toBe(true);
    }
    const { report } = await onlyRun(path.join(dir, 'reports'));
    expect(report.footer).toMatchObject({ interrupted: 'SIGTERM', exitCode: 143 });
  }, 180_000);

  it('SIGINT mid-certify: the worker, its child and a setsid escapee are reaped, a partial certificate marked interrupted, exit 130', async () => {
    const dir = path.join(root.dir, 'certify-signal');
    await mkdir(dir, { recursive: true });
    const pids = path.join(dir, 'pids');
    await writeFile(
      path.join(dir, 'routecert.config.json'),
      JSON.stringify({
        worker: {
          name: 'a worker that hangs with a child and an escapee',
          command: ['sh', '-c', `sleep 1000 & echo $! >> ${pids}; setsid sleep 1000 & echo $! >> ${pids}; echo $$ >> ${pids}; wait`, '{prompt}'],
          prompt: 'file',
          artifact: '{outDir}/out.json',
          windowEnv: { hardWindowS: 'PEER_HARD_SECS', retryMinS: 'PEER_RETRY_MIN_SECS' },
        },
        routes: ['claude-code/json'],
        contract: 'pov',
      }),
    );
    // Wait until a worker has written its three pids, however long that takes.
    const { child } = await startedRoutecert(['certify', '--config', 'routecert.config.json', '--reports', 'reports'], dir, pids, 3);
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode, String(r.stderr)).toBe(130);
    expect(String(r.stderr)).toMatch(/interrupted by SIGINT: the certificate is partial/);
    expect(String(r.stdout)).toMatch(/routecert was interrupted by SIGINT before this route was certified[^\n]*\n\s*next step: certify again and let it finish/);
    // Workers started before the signal may have written their pids since: every one is gone.
    for (const pid of (await readFile(pids, 'utf8')).trim().split('\n').map(Number)) {
      const s = procStat(pid);
      expect(s === null || s.state === 'Z', `pid ${pid} still runs`).toBe(true);
    }
    const runs = await readdir(path.join(dir, 'reports'));
    expect(runs).toHaveLength(1);
    const certificate = JSON.parse(await readFile(path.join(dir, 'reports', runs[0]!, 'certificate.json'), 'utf8')) as { footer: Record<string, unknown>; routes: { status: string; blocking?: { id: string }[] }[] };
    expect(certificate.footer).toMatchObject({ interrupted: 'SIGINT', exitCode: 130 });
    expect(certificate.routes.map((x) => [x.status, x.blocking?.[0]?.id])).toEqual([['could-not-run', 'interrupted']]);
  }, 180_000);

  it('SIGKILL to the npm that started routecert through a shell (npx, an npm script): routecert notices, reaps its probes and writes a partial report', async () => {
    const { dir, npm, pids, parent } = await probingUnderNpmShell('npm-killed');
    npm.kill('SIGKILL');
    await npm;
    // routecert goes on under the orphaned shell until it notices: wait for it to end, however long.
    const routecertPid = Number((await readFile(parent, 'utf8')).trim());
    for (;;) {
      const s = procStat(routecertPid);
      if (s === null || s.state === 'Z') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const { report } = await onlyRun(path.join(dir, 'reports'));
    expect(report.footer).toMatchObject({ interrupted: 'SIGTERM', exitCode: 143 });
    for (const pid of (await readFile(pids, 'utf8')).trim().split('\n').map(Number)) {
      const s = procStat(pid);
      expect(s === null || s.state === 'Z', `pid ${pid} still runs`).toBe(true);
    }
  }, 180_000);

  it('SIGINT to npx alone (npm forwards it to the shell it runs routecert through, which keeps it): routecert notices, reaps its probes, writes a partial report, exit 130', async () => {
    const { dir, npm, pids, parent } = await probingUnderNpmShell('npm-sigint');
    const routecertPid = Number((await readFile(parent, 'utf8')).trim());
    const shell = procStat(routecertPid)!.ppid;
    // What npm's signal manager does with a SIGINT to npx: kill(shell, SIGINT).
    process.kill(shell, 'SIGINT');
    const r = await npm;
    expect(String(r.stderr)).toMatch(/SIGINT to the shell npm runs routecert through/);
    const { report } = await onlyRun(path.join(dir, 'reports'));
    expect(report.footer).toMatchObject({ interrupted: 'SIGINT', exitCode: 130 });
    for (const pid of (await readFile(pids, 'utf8')).trim().split('\n').map(Number)) {
      const s = procStat(pid);
      expect(s === null || s.state === 'Z', `pid ${pid} still runs`).toBe(true);
    }
  }, 180_000);

  it('SIGTERM mid-record: the probe is reaped and no case is written from the stopped run (no false recording), exit 143', async () => {
    const dir = path.join(root.dir, 'record-signal');
    await mkdir(dir, { recursive: true });
    const { bin, pids } = await hangingClaude(dir);
    const { child } = await startedRoutecert(['record', '--cli', 'claude', '--bin', `claude=${bin}`, '--route', 'claude-code/json', '--scenario', 'final', '--out', 'cases', '--probe-timeout', '600000'], dir, pids, 2);
    child.kill('SIGTERM');
    const r = await child;
    expect(r.exitCode, String(r.stderr)).toBe(143);
    expect(String(r.stdout)).toMatch(/STOPPED \[1\/1\] claude-code\/json final: routecert was interrupted \(SIGTERM\); no case written/);
    expect(await readdir(path.join(dir, 'cases')).catch(() => [])).toEqual([]);
    for (const pid of (await readFile(pids, 'utf8')).trim().split('\n').map(Number)) {
      const s = procStat(pid);
      expect(s === null || s.state === 'Z', `pid ${pid} still runs`).toBe(true);
    }
  }, 180_000);

  it('a config whose top-level await never settles is an error naming the file after the bound', async () => {
    const dir = path.join(root.dir, 'tla');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'routecert.config.mjs'), 'await new Promise(() => {});\nexport default {};\n');
    const r = await routecert(['run', '--no-probes', '--config', 'routecert.config.mjs'], { cwd: dir, env: { ROUTECERT_CONFIG_TIMEOUT_MS: '1500' }, timeoutMs: 60_000 });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/routecert\.config\.mjs does not load: it did not finish loading within 1\.5 s/);
  });

  it('certification sends SIGTERM first: a worker that ignores it fails the named check term-honoured, one that honours it passes', async () => {
    const dir = path.join(root.dir, 'term');
    await mkdir(dir, { recursive: true });
    await cp(projectPath('examples/bash-worker/peer-worker.sh'), path.join(dir, 'peer-worker.sh'));
    const worker = (command: string[]) => ({
      worker: {
        name: 'bash worker',
        command,
        prompt: 'file',
        artifact: '{outDir}/pov-{routeArg}.json',
        windowEnv: { hardWindowS: 'PEER_HARD_SECS', retryMinS: 'PEER_RETRY_MIN_SECS', idleWindowS: 'PEER_IDLE_SECS' },
        routeNames: { 'claude-code/stream-json': 'claude' },
      },
      routes: ['claude-code/stream-json'],
      contract: 'pov',
    });
    const args = ['{routeArg}', '{schema}', '{prompt}', '{outDir}'];
    await writeFile(path.join(dir, 'good.json'), JSON.stringify(worker(['bash', 'peer-worker.sh', ...args])));
    // The same worker with SIGTERM ignored (inherited by everything it starts).
    await writeFile(path.join(dir, 'deaf.json'), JSON.stringify(worker(['bash', '-c', 'trap "" TERM; exec bash peer-worker.sh "$@"', 'worker', ...args])));
    const good = await routecert(['certify', '--config', 'good.json', '--check', 'term-honoured', '--reports', 'r'], { cwd: dir });
    expect(good.stdout).toMatch(/PASS term-honoured/);
    expect(good.exitCode, good.stdout).toBe(0);
    const deaf = await routecert(['certify', '--config', 'deaf.json', '--check', 'term-honoured', '--reports', 'r'], { cwd: dir });
    expect(deaf.stdout).toMatch(/FAIL term-honoured/);
    expect(deaf.stdout).toMatch(/the worker ignored SIGTERM at routecert's outer deadline/);
    expect(deaf.exitCode).toBe(1);
  }, 180_000);
});
