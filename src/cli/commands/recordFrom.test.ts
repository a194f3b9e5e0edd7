/**
 * A capture keeps how its run ended: a run cut off by the worker's deadline or ended by a signal
 * (a helper fed a real codex capture killed mid-turn, `"timedOut": true`, to `record --from`: the
 * flag was dropped, the case was a clean exit 0, judged `crashed`, never `timeout`).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routecertInProcess, tempRoot } from '../cliTestKit.ts';
import { parseCapture } from './recordFrom.ts';

const codexCut = '{"type":"thread.started","thread_id":"t"}\n{"type":"turn.started"}\n';

describe('parseCapture', () => {
  it('reads signal, timedOut and elapsedMs from the JSON of an envelope', () => {
    const c = parseCapture(JSON.stringify({ stdout: codexCut, exitCode: null, signal: 'SIGTERM', timedOut: true, elapsedMs: 600_000 }));
    expect(c).toMatchObject({ stdout: codexCut, exitCode: null, signal: 'SIGTERM', timedOut: true, elapsedMs: 600_000 });
  });

  it('reads `--- signal: SIGKILL ---` and `--- timed out ---` lines of a pasted capture, and keeps them out of stdout', () => {
    const c = parseCapture(`${codexCut}--- stderr ---\nkilled\n--- signal: SIGKILL ---\n--- timed out ---\n`);
    expect(c.stdout).toBe(codexCut);
    expect(c.stderr).toBe('killed\n');
    expect(c.signal).toBe('SIGKILL');
    expect(c.timedOut).toBe(true);
    expect(c.exitCode).toBeNull();
  });

  it('says nothing of a signal or a deadline when the capture does not', () => {
    const c = parseCapture(`${codexCut}--- exit code: 0 ---\n`);
    expect(c.signal).toBeUndefined();
    expect(c.timedOut).toBeUndefined();
    expect(c.exitCode).toBe(0);
  });
});

describe('a JSON capture whose fields do not say what they must', { timeout: 120_000 }, () => {
  let root: Awaited<ReturnType<typeof tempRoot>>;
  beforeAll(async () => {
    root = await tempRoot('record-from-fields');
  });
  afterAll(() => root.remove());

  it('is refused naming the JSON Pointer (a string exit code, a misspelt field), never recorded as a clean exit 0', () => {
    expect(() => parseCapture(JSON.stringify({ stdout: '{}', exitCode: '1' }))).toThrow(/\/exitCode must be an integer \(-255 to 255\) or null, not "1"/);
    expect(() => parseCapture(JSON.stringify({ stdout: '{}', exit_code: 1 }))).toThrow('/exit_code is no field of a capture; did you mean "exitCode"?');
    expect(() => parseCapture(JSON.stringify({ stdout: '{}', exitCode: 1, timedout: true }))).toThrow('/timedout is no field of a capture; did you mean "timedOut"?');
    expect(() => parseCapture('{"type":"result"}\n--- stderr ---\nboom\n--- exit code: abc ---\n')).toThrow('line 4: "--- exit code: abc ---" is not a marker routecert reads');
    for (const name of ['returncode', 'status', 'code']) expect(() => parseCapture(JSON.stringify({ stdout: '{}', [name]: 1 }))).toThrow(`/${name} is no field of a capture; did you mean "exitCode"?`);
    // A tool's own field beside them is left alone.
    expect(parseCapture(JSON.stringify({ stdout: '{}', exitCode: 1, cmd: 'claude -p' })).exitCode).toBe(1);
  });

  it('record --from exits 2 and writes nothing', async () => {
    const file = path.join(root.dir, 'string-exit.json');
    await writeFile(file, JSON.stringify({ stdout: '{"type":"result"}', stderr: 'Error: process exited unexpectedly', exitCode: '1' }));
    const r = await routecertInProcess(['record', '--from', file, '--route', 'claude-code/json', '--expect', 'crashed', '--out', path.join(root.dir, 'string-exit-out')], { cwd: root.dir });
    expect(r.exitCode, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain('/exitCode must be an integer');
    expect(r.stdout).not.toContain('wrote');
  });
});

describe('record --from a capture cut off by its deadline', { timeout: 120_000 }, () => {
  let root: Awaited<ReturnType<typeof tempRoot>>;
  beforeAll(async () => {
    root = await tempRoot('record-from-timeout');
  });
  afterAll(async () => {
    await root.remove();
  });

  it('is a timeout case with --timed-out, and a crash ended by the signal with --signal', async () => {
    await writeFile(path.join(root.dir, 'cut.txt'), codexCut);
    const timedOut = await routecertInProcess(['record', '--from', 'cut.txt', '--route', 'codex/jsonl', '--expect', 'timeout', '--timed-out', '--signal', 'term', '--out', 'cases', '--name', 'cut'], { cwd: root.dir });
    expect(timedOut.exitCode, timedOut.stdout + timedOut.stderr).toBe(0);
    expect(timedOut.stdout).toContain('ended by SIGTERM, timed out');
    expect(timedOut.stdout).toContain('PASS: timeout');
    const killed = await routecertInProcess(['record', '--from', 'cut.txt', '--route', 'codex/jsonl', '--expect', 'crashed', '--signal', 'SIGKILL', '--out', 'cases', '--name', 'killed'], { cwd: root.dir });
    expect(killed.exitCode, killed.stdout + killed.stderr).toBe(0);
    expect(killed.stdout).toContain('exited on SIGKILL');
    const bad = await routecertInProcess(['record', '--from', 'cut.txt', '--route', 'codex/jsonl', '--expect', 'crashed', '--signal', 'SIGNOPE', '--out', 'cases'], { cwd: root.dir });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('Expected a signal name such as SIGTERM or SIGKILL.');
  });
});
