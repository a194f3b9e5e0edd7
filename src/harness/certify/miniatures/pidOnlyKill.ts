/**
 * Miniature broken worker `pidOnlyKill`: the reference worker, except that its peer runner starts
 * the CLI in the worker's own process group and, at a deadline, kills only the CLI's pid, then
 * stops listening. Whatever the CLI started outlives it, so it must fail exactly the checks that
 * cover process-group reaping (research/ce-plugin.md 1.7: `reap` signals the whole group).
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { PeerOutcome, PeerRunner } from '#src/worker/peer.ts';

/** A peer runner that kills only the pid at the hard or idle deadline and does not wait for pipes. */
export const pidOnlyPeer: PeerRunner = (run) =>
  new Promise((resolve) => {
    const started = performance.now();
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let reaped: PeerOutcome['reaped'] = null;
    const child = spawn(run.bin, run.argv, { env: run.env, cwd: run.cwd, stdio: [run.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    const kill = (why: 'idle' | 'hard') => {
      if (reaped === null) {
        reaped = why;
        child.kill('SIGKILL');
      }
    };
    let idle: NodeJS.Timeout | undefined;
    const armIdle = () => {
      if (run.idleMs === null) return;
      if (idle) clearTimeout(idle);
      idle = setTimeout(() => kill('idle'), run.idleMs);
    };
    const hard = setTimeout(() => kill('hard'), Math.max(0, run.deadlineAt - Date.now()));
    armIdle();
    child.stdout?.on('data', (d: Buffer) => {
      out.push(d);
      armIdle();
    });
    child.stderr?.on('data', (d: Buffer) => err.push(d));
    if (run.stdin !== undefined && child.stdin) {
      child.stdin.on('error', () => undefined);
      child.stdin.end(run.stdin);
    }
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      resolve({
        envelope: {
          stdout: Buffer.concat(out).toString('utf8'),
          stderr: Buffer.concat(err).toString('utf8'),
          exitCode: code,
          signal,
          timedOut: reaped !== null,
          elapsedMs: Math.round(performance.now() - started),
        },
        reaped,
        pid: child.pid ?? null,
      });
    };
    child.on('exit', (code, signal) => {
      clearTimeout(hard);
      if (idle) clearTimeout(idle);
      // A CLI that ended by itself: read its output to the end (its pipes close after the exit
      // event). Only after the pid-only kill does this miniature stop listening (its one fault).
      if (reaped === null) {
        child.on('close', () => finish(code, signal));
        return;
      }
      child.stdout?.destroy();
      child.stderr?.destroy();
      finish(code, signal);
    });
  });
