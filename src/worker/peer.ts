/**
 * Running one peer CLI attempt with a hard deadline and an idle window, in its own process group,
 * so that reaping it takes every process it started. The result is an {@link Envelope}.
 *
 * Reaping follows ce-pov's `reap` (research/ce-plugin.md section 1.7): SIGTERM to the process group,
 * then SIGKILL after a grace; after the peer exits, the group is sent SIGKILL again so nothing it
 * started outlives the attempt. Idle = stdout has not grown for the idle window (ce-pov watches
 * PEERLOG growth, i.e. stdout).
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { Envelope, Milliseconds } from '#src/envelope/types.ts';

/**
 * One attempt to run.
 * - `bin`, `argv`: the executable (looked up on `env.PATH`) and its arguments;
 * - `env`: the whole environment of the peer; `cwd`: its working folder;
 * - `stdin`: written then closed; `undefined` = the null device;
 * - `deadlineAt`: the hard deadline as a `Date.now()` timestamp (ms);
 * - `idleMs`: reap when stdout has not grown for this long (ms); `null` = no idle detection;
 * - `killGraceMs`: between SIGTERM and SIGKILL (ms); @default 1000;
 * - `signal`: aborting it reaps the peer at once (the worker itself was asked to stop);
 * - `onLog`: receives one line per reaping decision.
 */
export interface PeerRun {
  bin: string;
  argv: string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
  stdin?: string;
  deadlineAt: number;
  idleMs: Milliseconds | null;
  killGraceMs?: Milliseconds;
  signal?: AbortSignal;
  onLog?: (line: string) => void;
}

/**
 * What one attempt left: the envelope (with `timedOut` set when it was reaped), why it was reaped
 * (`idle`, `hard`, `aborted`, or `null`), the peer's pid (= its process group), and `spawnError`
 * when it could not start (e.g. `ENOENT`: the CLI is not on PATH).
 */
export interface PeerOutcome {
  envelope: Envelope;
  reaped: 'idle' | 'hard' | 'aborted' | null;
  pid: number | null;
  spawnError?: string;
}

/** How a peer attempt is run; the reference worker's is {@link runPeer}. */
export type PeerRunner = (run: PeerRun) => Promise<PeerOutcome>;

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is gone.
  }
}

/**
 * Run one peer attempt. Never throws; a spawn failure is reported in `spawnError`.
 *
 * @example
 * const { envelope, reaped } = await runPeer({ bin: 'claude', argv, env: process.env, stdin: prompt, deadlineAt: Date.now() + 600_000, idleMs: 180_000 });
 */
export function runPeer(run: PeerRun): Promise<PeerOutcome> {
  const started = performance.now();
  const graceMs = run.killGraceMs ?? 1000;
  return new Promise((resolve) => {
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let reaped: PeerOutcome['reaped'] = null;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let spawnError: string | undefined;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];
    let idleTimer: NodeJS.Timeout | undefined;

    const child = spawn(run.bin, run.argv, {
      env: run.env,
      cwd: run.cwd,
      detached: true,
      stdio: [run.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    const pid = child.pid ?? null;

    const finish = () => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      if (idleTimer) clearTimeout(idleTimer);
      run.signal?.removeEventListener('abort', onAbort);
      const envelope: Envelope = {
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        timedOut: reaped !== null,
        elapsedMs: Math.round(performance.now() - started),
      };
      resolve({ envelope, reaped, pid, ...(spawnError === undefined ? {} : { spawnError }) });
    };

    const reap = (why: NonNullable<PeerOutcome['reaped']>, line: string) => {
      if (reaped !== null || exit !== null || pid === null) return;
      reaped = why;
      run.onLog?.(line);
      killGroup(pid, 'SIGTERM');
      timers.push(setTimeout(() => killGroup(pid, 'SIGKILL'), graceMs));
    };
    const onAbort = () => reap('aborted', 'worker asked to stop; reaping peer process group');
    const armIdle = () => {
      if (idleTimer) clearTimeout(idleTimer);
      const idleMs = run.idleMs!;
      idleTimer = setTimeout(() => reap('idle', `peer output idle ${idleMs / 1000}s; reaping peer process group`), idleMs);
    };

    child.on('error', (error) => {
      spawnError = error.message;
      if (pid === null) {
        exit = { code: null, signal: null };
        finish();
      }
    });
    child.stdout?.on('data', (d: Buffer) => {
      stdout.push(d);
      if (run.idleMs !== null && reaped === null) armIdle();
    });
    child.stderr?.on('data', (d: Buffer) => stderr.push(d));
    if (run.stdin !== undefined && child.stdin) {
      child.stdin.on('error', () => undefined); // EPIPE: the peer did not read its prompt
      child.stdin.end(run.stdin);
    }

    if (pid !== null) {
      const hardMs = Math.max(0, run.deadlineAt - Date.now());
      timers.push(setTimeout(() => reap('hard', `peer reached the hard deadline after ${Math.round(hardMs / 100) / 10}s; reaping peer process group`), hardMs));
      if (run.idleMs !== null) armIdle();
      if (run.signal?.aborted) onAbort();
      else run.signal?.addEventListener('abort', onAbort, { once: true });
    }

    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // Whatever the peer started in its group goes with it.
      if (pid !== null) killGroup(pid, 'SIGKILL');
      // A process that left the group may still hold the pipes: stop waiting for them after a grace.
      timers.push(
        setTimeout(() => {
          child.stdout?.destroy();
          child.stderr?.destroy();
          finish();
        }, graceMs),
      );
    });
    child.on('close', () => {
      if (exit === null) exit = { code: child.exitCode, signal: child.signalCode };
      finish();
    });
  });
}
