import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeReapFixtures } from './fixtures.ts';
import { canSweepProc, findMarked, newRunMark, procStat, reap, RUN_MARK_VAR } from './reap.ts';
import { supervise } from './supervise.ts';

const root = mkdtempSync(path.join(tmpdir(), 'routecert-reap-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function running(pid: number): boolean {
  const s = procStat(pid);
  return s !== null && s.state !== 'Z' && s.state !== 'X';
}

async function until(cond: () => boolean, withinMs = 30_000): Promise<void> {
  const end = Date.now() + withinMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function readPid(file: string): number {
  return Number(readFileSync(file, 'utf8'));
}

describe.skipIf(!canSweepProc)('reap', () => {
  it('kills a grandchild that left the group and the session (double fork + setsid) and ignores SIGTERM', async () => {
    const dir = mkdtempSync(path.join(root, 'case-'));
    const f = writeReapFixtures(dir);
    const mark = newRunMark();
    const child = spawn(process.execPath, [f.escapee, f.escapeePid, 'hang'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'], env: { PATH: process.env.PATH ?? '', ...mark.env } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await until(() => out.includes('ready'));
    const grandchild = readPid(f.escapeePid);
    expect(procStat(grandchild)!.sid, 'the grandchild is in a session of its own').not.toBe(procStat(child.pid!)!.sid);
    expect(procStat(grandchild)!.pgid).not.toBe(child.pid);
    expect(findMarked(mark.id).sort()).toEqual([child.pid!, grandchild].sort());

    // The process-group kill alone (what routecert did before the mark) misses the grandchild.
    await reap({ pgid: child.pid!, termGraceMs: 0 });
    expect(running(grandchild), 'a group kill does not reach the grandchild').toBe(true);

    const report = await reap({ pgid: child.pid!, mark: mark.id, termGraceMs: 300 });
    expect(report.killed, 'the grandchild ignored SIGTERM and needed SIGKILL').toContain(grandchild);
    expect(report.survivors).toEqual([]);
    expect(findMarked(mark.id)).toEqual([]);
    expect(running(grandchild)).toBe(false);
  }, 60_000);

  it('finds the mark only as a whole environment entry of the run', async () => {
    const mark = newRunMark();
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore', env: { X: `${RUN_MARK_VAR}=${mark.id}x`, OTHER: `${mark.id}` } });
    try {
      await until(() => procStat(other.pid!) !== null);
      expect(findMarked(mark.id)).toEqual([]);
    } finally {
      other.kill('SIGKILL');
    }
  });
});

describe.skipIf(!canSweepProc)('supervise', () => {
  it('at the deadline, leaves no process of the run, not even a setsid grandchild that ignores SIGTERM', async () => {
    const dir = mkdtempSync(path.join(root, 'case-'));
    const f = writeReapFixtures(dir);
    // Generous deadline: the script is ready within it on any machine; it then hangs.
    const r = await supervise({ argv: [process.execPath, f.escapee, f.escapeePid, 'hang'], env: { PATH: process.env.PATH ?? '' }, cwd: dir, timeoutMs: 8000, termGraceMs: 300 });
    expect(r.stdout).toBe('ready\n');
    expect(r.timedOut).toBe(true);
    const grandchild = readPid(f.escapeePid);
    expect(running(grandchild)).toBe(false);
    expect(r.reaped.killed).toContain(grandchild);
    expect(r.reaped.survivors).toEqual([]);
  }, 60_000);

  it('judges a CLI that exits 0 while its child holds stdout open on what it printed (no timeout)', async () => {
    const dir = mkdtempSync(path.join(root, 'case-'));
    const f = writeReapFixtures(dir);
    const line = JSON.stringify({ type: 'result', structured_output: { ok: true } });
    const r = await supervise({ argv: [process.execPath, f.holder, f.holderPid, line], env: { PATH: process.env.PATH ?? '' }, cwd: dir, timeoutMs: 50_000, termGraceMs: 300 });
    expect(r.timedOut).toBe(false);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`${line}\n`);
    expect(running(readPid(f.holderPid))).toBe(false);
    expect(r.reaped.survivors).toEqual([]);
  }, 60_000);

  it('reports a binary that cannot start', async () => {
    const r = await supervise({ argv: [path.join(root, 'no-such-cli')], env: {}, cwd: root, timeoutMs: 10_000 });
    expect(r.spawnError).toMatch(/ENOENT/);
    expect(r.exitCode).toBeNull();
  });
});
