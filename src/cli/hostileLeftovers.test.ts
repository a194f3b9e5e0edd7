/**
 * Issue 23's leftovers (session 4, h23r), each repeated as a user meets it: routecert spawned on
 * a case folder, a reporter module or a record command, and what it writes and prints read back.
 * - redaction leaves the usage lines CLIs print alone (`tokens = 1532.`) and still hides every canary;
 * - the console is redacted on whole lines: a canary split across two writes is hidden;
 * - a reporter fault raised in `onRunEnd` reaches report.json and every other report;
 * - `--full-values` redacts each long value once, and SIGINT while it does gives the partial report;
 * - `record` refuses a symlink on the way to `--out` inside the working folder.
 */
import { chmod, mkdir, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANARIES, CANARY_CREDENTIAL_VAR, canaryText, LOOKALIKES } from '#src/record/canaries.ts';
import { caseId } from '#src/record/caseId.ts';
import { canaryLeaks, filesUnder, FINDINGS_CASE, onlyRun, routecert, tempRoot } from './cliTestKit.ts';

/** No canary (nor any marker of one) in any of `texts`. */
const expectNoCanary = (texts: { file: string; text: string }[]): void => expect(canaryLeaks(texts)).toEqual([]);

let root: { dir: string; remove: () => Promise<void> };
beforeAll(async () => {
  root = await tempRoot('hostile-leftovers');
});
afterAll(async () => {
  if (!process.env.KEEP) await root.remove();
});

const CANARY_ENV = { [CANARY_CREDENTIAL_VAR]: CANARIES.credential };



/** The populated findings case with its answer, stdout or stderr edited by `edit`, written to `file` with its id recomputed. */
/* eslint-disable @typescript-eslint/no-explicit-any -- a test edits any field of a case */
async function writeFindingsCase(file: string, edit: (c: Record<string, any>, answer: Record<string, any>) => void): Promise<void> {
  const c = JSON.parse(await readFile(FINDINGS_CASE, 'utf8')) as Record<string, any>;
  const envelope = JSON.parse(c.attempts[0].stdout) as Record<string, any>;
  edit(c, envelope.structured_output as Record<string, any>);
  if (c.attempts[0].exitCode === 0) c.attempts[0].stdout = JSON.stringify(envelope);
  else c.attempts[0].stdout = c.attempts[0].stderr;
  c.id = caseId(c as Parameters<typeof caseId>[0]);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(c, null, 2));
}
/* eslint-enable @typescript-eslint/no-explicit-any */

describe('redaction hides secrets, not the usage lines CLIs print', () => {
  it('run: every report and the console keep `tokens = 1532.` and the other look-alikes whole, and hold no canary', async () => {
    const dir = path.join(root.dir, 'lookalikes');
    const usage = LOOKALIKES.join('\n');
    // Accepted: the look-alikes in the answer (report.json quotes it); failing: on stderr, quoted as evidence.
    await writeFindingsCase(path.join(dir, 'cases', 'accepted.json'), (c, answer) => {
      answer.notes = `${usage}\n${canaryText()}`;
      c.attempts[0].stderr = `${usage}\n${canaryText()}`;
      c.expect = { verdict: 'accepted', origin: 'structured_output' };
    });
    await writeFindingsCase(path.join(dir, 'cases', 'prose.json'), (c) => {
      c.attempts[0].stderr = `${usage}\n${canaryText()}`;
      c.attempts[0].exitCode = 1;
      c.expect = { verdict: 'accepted' };
    });
    const r = await routecert(['run', '--no-probes', '--no-certify', '--cases', 'cases', '--reports', 'reports', '--reporter', 'verbose', '--reporter', 'json', '--reporter', 'markdown', '--reporter', 'html'], { cwd: dir, env: CANARY_ENV });
    expect(r.exitCode, r.stderr).toBe(1);
    const { dir: run, report } = await onlyRun(path.join(dir, 'reports'));
    const written = await filesUnder(run);
    expectNoCanary([...written, { file: 'stdout', text: r.stdout }, { file: 'stderr', text: r.stderr }]);
    const notes = (report.cases.find((c) => c.file.endsWith('accepted.json'))!.verdict as { value: { notes: string } }).value.notes;
    for (const line of LOOKALIKES) expect(notes, 'report.json').toContain(line);
    // The failing case's stderr is quoted as evidence (its head and tail): the counts at its head are there.
    const html = written.find((w) => w.file.endsWith('report.html'))!.text;
    for (const count of ['tokens = 1532.', 'Tokens: 1,532 in / 31 out', 'output_tokens=31ms', 'tokens=~1532', 'tokens: 200/1000 (20%)']) expect(html, 'report.html').toContain(count);
    expect(r.stdout, 'the console').toContain('tokens = 1532.');
  }, 120_000);
});

describe('the console is redacted a whole line at a time', () => {
  it('a reporter that prints every canary split in two writes, at every offset, on stdout and stderr: the console holds none, the lines are all there', async () => {
    const dir = path.join(root.dir, 'split-writes');
    await mkdir(path.join(dir, 'cases'), { recursive: true });
    await writeFindingsCase(path.join(dir, 'cases', 'one.json'), () => undefined);
    const canaries = Object.values(CANARIES);
    await writeFile(
      path.join(dir, 'split.mjs'),
      `const canaries = ${JSON.stringify(canaries)};
export default {
  name: 'split',
  onRunEnd() {
    let n = 0;
    for (const c of canaries) for (let at = 1; at < c.length; at += 1) for (const stream of [process.stdout, process.stderr]) {
      stream.write('split ' + c.slice(0, at));
      stream.write(c.slice(at) + ' end ' + n++ + '\\n');
    }
  },
};
`,
    );
    const r = await routecert(['run', '--no-probes', '--no-certify', '--cases', 'cases', '--reports', 'reports', '--reporter', './split.mjs', '--reporter', 'json'], { cwd: dir, env: CANARY_ENV });
    expect(r.exitCode, r.stderr).toBe(0);
    expectNoCanary([{ file: 'stdout', text: r.stdout }, { file: 'stderr', text: r.stderr }]);
    const lines = canaries.reduce((n, c) => n + c.length - 1, 0) * 2;
    for (const [text, first] of [[r.stdout, 0], [r.stderr, 1]] as const) {
      const seen = new Set([...text.matchAll(/ end (\d+)$/gm)].map((m) => Number(m[1])));
      expect(Array.from({ length: lines / 2 }, (_, i) => 2 * i + first).filter((n) => !seen.has(n))).toEqual([]);
    }
  }, 120_000);
});

describe('--full-values: each long value redacted once, a slice at a time', () => {
  it('SIGINT while a long answer is redacted stops it: the partial report is marked interrupted, the answer a clipped preview, exit 130', async () => {
    const dir = path.join(root.dir, 'full-values-sigint');
    await writeFindingsCase(path.join(dir, 'cases', 'a.json'), () => undefined);
    // 3 Mi characters of prose: redacted in slices (2 Mi and more), the last line a canary.
    const prose = 'the quick brown fox jumps over 13 lazy dogs; tokens = 1532.\n'.repeat(52_429);
    await writeFindingsCase(path.join(dir, 'cases', 'b.json'), (c, answer) => {
      answer.notes = `${prose}${CANARIES.github}\n`;
      c.expect = { verdict: 'accepted', origin: 'structured_output' };
    });
    // The signal is sent when case a's result is reported, and handled at the first turn of the
    // event loop after it: case b is judged without one (its file is in memory), so that turn is
    // the first pause of its redaction. Nothing is timed.
    await writeFile(path.join(dir, 'sigint.mjs'), "let sent = false;\nexport default { name: 'sigint', onCaseResult() { if (!sent) { sent = true; process.kill(process.pid, 'SIGINT'); } } };\n");
    const r = await routecert(['run', '--no-probes', '--no-certify', '--cases', 'cases', '--reports', 'reports', '--reporter', './sigint.mjs', '--reporter', 'json', '--full-values'], { cwd: dir });
    expect(r.stderr).toMatch(/SIGINT: stopping/);
    expect(r.exitCode, r.stderr).toBe(130);
    const { report } = await onlyRun(path.join(dir, 'reports'));
    expect(report.footer.interrupted).toBe('SIGINT');
    expect(report.cases.map((c) => path.basename(c.file))).toEqual(['a.json', 'b.json']);
    // Bounded as without --full-values: a typed preview with its size and digest.
    expect((report.cases[1]!.verdict as { value: unknown }).value).toMatchObject({ $clipped: 'value', type: 'object', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect((report.cases[1]!.verdict as { value: { bytes: number } }).value.bytes).toBeGreaterThan(prose.length);
    expectNoCanary([{ file: 'report.json', text: JSON.stringify(report) }]);
  }, 120_000);

  it('without a signal the long answer is kept whole, redacted, and reads back equal', async () => {
    const dir = path.join(root.dir, 'full-values-whole');
    const prose = 'input tokens: 200, output tokens: 31. The fox at /home/canaryuser/x said so.\n'.repeat(40_000);
    await writeFindingsCase(path.join(dir, 'cases', 'b.json'), (c, answer) => {
      answer.notes = `${prose}${CANARIES.github}\n`;
      c.expect = { verdict: 'accepted', origin: 'structured_output' };
    });
    const r = await routecert(['run', '--no-probes', '--no-certify', '--cases', 'cases', '--reports', 'reports', '--reporter', 'json', '--full-values'], { cwd: dir });
    expect(r.exitCode, r.stderr).toBe(0);
    const { report } = await onlyRun(path.join(dir, 'reports'));
    const notes = (report.cases[0]!.verdict as { value: { notes: string } }).value.notes;
    expect(notes).toBe(`${prose.replaceAll('/home/canaryuser', '<home>')}<redacted:token>\n`);
  }, 120_000);
});

describe('a reporter fault raised in onRunEnd reaches every report', () => {
  it('a reporter listed after json that throws in onRunEnd, and a markdown report that cannot be written: both faults are in report.json and junit.xml, exit 3', async () => {
    const dir = path.join(root.dir, 'late-fault');
    await writeFindingsCase(path.join(dir, 'cases', 'one.json'), () => undefined);
    await writeFile(path.join(dir, 'boom.mjs'), `export default { name: 'boom', onRunEnd() { throw new Error('webhook refused ${CANARIES.github}'); } };\n`);
    // A folder where summary.md should be: the markdown reporter fails when it writes.
    await mkdir(path.join(dir, 'summary-is-a-folder'), { recursive: true });
    const r = await routecert(
      ['run', '--no-probes', '--no-certify', '--cases', 'cases', '--reports', 'reports', '--reporter', 'json', '--reporter', 'junit', '--reporter', 'markdown', '--reporter', './boom.mjs', '--output-file', 'markdown=summary-is-a-folder'],
      { cwd: dir },
    );
    expect(r.exitCode, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/the boom reporter failed: webhook refused <redacted:token>/);
    expect(r.stderr).toMatch(/the markdown reporter failed: .*EISDIR/);
    const { dir: run, report } = await onlyRun(path.join(dir, 'reports'));
    expect(report.faults.map((f) => `${f.kind} ${f.where}`).sort()).toEqual(['reporter boom', 'reporter markdown']);
    expect(report.summary.faults).toBe(2);
    expect(report.footer.exitCode).toBe(3);
    const junit = await readFile(path.join(run, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/the boom reporter failed/);
    expect(junit).toMatch(/the markdown reporter failed/);
    expectNoCanary([{ file: 'report.json', text: JSON.stringify(report) }, { file: 'junit.xml', text: junit }, { file: 'stderr', text: r.stderr }]);
  }, 120_000);
});

describe('record never writes through a symlink on the way to --out', () => {
  it('record of a probe: a linked route (probes) folder under --out, a linked folder above --out, a linked fixtures/ for the default --out: each refused, nothing written outside', async () => {
    const dir = path.join(root.dir, 'record-links');
    const outside = path.join(root.dir, 'record-links-outside');
    await mkdir(outside, { recursive: true });
    await mkdir(dir, { recursive: true });
    const answer = { type: 'result', subtype: 'success', is_error: false, result: '', session_id: 'x', structured_output: { notes: 'n' } };
    await writeFile(path.join(dir, 'answer.json'), `${JSON.stringify(answer)}\n`);
    const fake = path.join(dir, 'fake-claude.sh');
    await writeFile(fake, `#!/bin/sh\nif [ "$1" = "--version" ]; then echo "2.1.332 (Claude Code)"; exit 0; fi\ncat > /dev/null\ncat '${dir}/answer.json'\n`);
    await chmod(fake, 0o755);
    const record = (out: string[]) => routecert(['record', '--cli', 'claude', '--route', 'claude-code/json', '--scenario', 'final', ...out, '--bin', `claude=${fake}`, '--probe-timeout', '60000'], { cwd: dir });
    // The route's folder under --out (where the probe's case goes) links outside.
    await mkdir(path.join(dir, 'cases'), { recursive: true });
    await symlink(outside, path.join(dir, 'cases', 'claude-code'));
    const probes = await record(['--out', 'cases']);
    expect(probes.stdout + probes.stderr).toMatch(/cases\/claude-code\/json leads outside \S*cases \(through a symlink\)/);
    // A folder above --out, inside the working folder, links outside.
    await symlink(outside, path.join(dir, 'linked'));
    const above = await record(['--out', 'linked/cases']);
    expect(above.stdout + above.stderr).toMatch(/linked is a symlink \(to \S+\) on the way to \S*linked\/cases: routecert never writes cases through one/);
    // No --out: fixtures/cases of the working folder, whose fixtures/ links outside.
    await symlink(outside, path.join(dir, 'fixtures'));
    const fixtures = await record([]);
    expect(fixtures.stdout + fixtures.stderr).toMatch(/fixtures is a symlink \(to \S+\) on the way to \S*fixtures\/cases/);
    for (const r of [probes, above, fixtures]) expect(r.exitCode, r.stdout + r.stderr).not.toBe(0);
    // Nothing was made outside, not even a folder.
    expect(await readdir(outside)).toEqual([]);
  }, 180_000);
});
