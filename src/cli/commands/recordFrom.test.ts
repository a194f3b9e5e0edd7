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
