/**
 * Run one child under supervision: its own process group, a per-run mark in its environment, a
 * hard deadline, and {@link reap} of everything it started, both at the deadline and after it exits.
 *
 * Exit is not a hang: a CLI that prints its envelope and exits while a child of its own (an MCP
 * server, a tool process) still holds stdout open is judged on what it printed. When the child
 * exits, whatever it left running is reaped (the holders of the pipe die, so everything already
 * written is still read to the end); routecert stops waiting for the pipes at most
 * {@link PIPE_CLOSE_GRACE_MS} later.
 */
import { pushAll } from '#src/arrays.ts';
import { spawn } from 'node:child_process';
import type { Milliseconds } from '#src/envelope/types.ts';
import { DEFAULT_TERM_GRACE_MS, newRunMark, reap, trackRun, type ReapReport } from './reap.ts';
import { capture, captureBytes } from './capture.ts';
import { interruptSignal } from './interrupt.ts';

/** How long to wait for stdout/stderr to close once the child exited and its leftovers were reaped (ms). */
export const PIPE_CLOSE_GRACE_MS: Milliseconds = 1000;

/**
 * Options of {@link supervise}.
 * - `argv`: executable and arguments;
 * - `env`: the WHOLE environment (nothing inherited); the run mark is added;
 * - `cwd`; `stdin`: written then closed (`undefined`: the null device);
 * - `timeoutMs`: hard deadline from spawn; then the run is reaped and `timedOut` is set;
 * - `termGraceMs`: SIGTERM-to-SIGKILL grace of each reap; @default {@link DEFAULT_TERM_GRACE_MS}.
 */
export interface SuperviseOptions {
  argv: readonly string[];
  env: Record<string, string>;
  cwd: string;
  stdin?: string;
  timeoutMs: Milliseconds;
  termGraceMs?: Milliseconds;
  /** Aborting it ends the run as the deadline does (reaped, `timedOut`), e.g. a deadline counted from an event. */
  signal?: AbortSignal;
  /** Bytes kept of stdout and of stderr each (head and tail, src/process/capture.ts); @default src/process/capture.ts `captureBytes()`. */
  captureBytes?: number;
}

/**
 * What a supervised run left.
 * - `stdout`, `stderr`: UTF-8 text, read to EOF or until {@link PIPE_CLOSE_GRACE_MS} after exit, at most
 *   `captureBytes` of each (head and tail; a cut stream holds a `[routecert] <stream> cut: ...`
 *   line where it was cut, and a cut stdout is also said on stderr's last line);
 * - `outputBytes`: every byte each stream carried; `cut`: the streams that were cut;
 * - `exitCode`, `signal`: of the child itself (`null` when it was signalled / exited);
 * - `timedOut`: the deadline passed before the child exited;
 * - `pid`: the child's pid = its process group; `null` when it never started;
 * - `elapsedMs`: spawn to exit (not including reaping);
 * - `leftovers`: pids of processes of the run still running after the child exited (before reaping:
 *   descendants that outlived the CLI), and `reaped`: what the reaps did;
 * - `spawnError`: why it could not start (ENOENT, EACCES), else absent.
 */
export interface SupervisedResult {
  stdout: string;
  stderr: string;
  outputBytes: { stdout: number; stderr: number };
  cut: ('stdout' | 'stderr')[];
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  pid: number | null;
  elapsedMs: Milliseconds;
  reaped: ReapReport;
  spawnError?: string;
}

/**
 * Spawn `argv[0]` detached with a run mark, wait for it (deadline `timeoutMs`), reap everything it
 * started, and return what it printed. Never throws; a child that cannot start gives `spawnError`.
 *
 * @example
 * const r = await supervise({ argv: ['claude', '-p'], env, cwd, stdin: 'hi', timeoutMs: 30_000 });
 * r.reaped.survivors // => [] (nothing of the run is running any more)
 */
export async function supervise(options: SuperviseOptions): Promise<SupervisedResult> {
  const mark = newRunMark();
  const termGraceMs = options.termGraceMs ?? DEFAULT_TERM_GRACE_MS;
  const started = performance.now();
  const stdout = capture('stdout', options.captureBytes ?? captureBytes());
  const stderr = capture('stderr', options.captureBytes ?? captureBytes());
  const merged: ReapReport = { terminated: [], killed: [], survivors: [] };
  const addReport = (r: ReapReport): void => {
    pushAll(merged.terminated, r.terminated);
    pushAll(merged.killed, r.killed);
    merged.survivors = r.survivors;
  };
  let spawnError: string | undefined;
  let timedOut = false;
  // An interrupted run (SIGINT/SIGTERM) starts nothing new.
  if (interruptSignal.aborted) {
    return { stdout: '', stderr: '', outputBytes: { stdout: 0, stderr: 0 }, cut: [], exitCode: null, signal: null, timedOut: false, pid: null, elapsedMs: 0, reaped: merged, spawnError: 'routecert was interrupted' };
  }
  const child = spawn(options.argv[0]!, options.argv.slice(1), {
    cwd: options.cwd,
    env: { ...options.env, ...mark.env },
    detached: true,
    stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  const pid = child.pid ?? null;
  const untrack = trackRun({ ...(pid !== null ? { pgid: pid } : {}), mark: mark.id });
  child.stdout?.on('data', (d: Buffer) => stdout.push(d));
  child.stderr?.on('data', (d: Buffer) => stderr.push(d));
  if (options.stdin !== undefined && child.stdin) {
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.stdin);
  }
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  let deadlineReap: Promise<void> | undefined;
  const expire = (): void => {
    if (timedOut) return;
    timedOut = true;
    deadlineReap = reap({ ...(pid !== null ? { pgid: pid } : {}), mark: mark.id, termGraceMs }).then(addReport);
  };
  const timer = setTimeout(expire, options.timeoutMs);
  options.signal?.addEventListener('abort', expire, { once: true });
  interruptSignal.addEventListener('abort', expire, { once: true });
  const exit = await new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    child.on('error', (error) => {
      spawnError = error.message;
      resolve({ code: null, signal: null });
    });
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
  const elapsedMs = Math.round(performance.now() - started);
  clearTimeout(timer);
  options.signal?.removeEventListener('abort', expire);
  interruptSignal.removeEventListener('abort', expire);
  await deadlineReap;
  // Whatever the child left running goes now; the pipes then reach EOF with nothing lost.
  addReport(await reap({ ...(pid !== null ? { pgid: pid } : {}), mark: mark.id, termGraceMs }));
  let graceTimer: NodeJS.Timeout | undefined;
  await Promise.race([closed, new Promise<void>((r) => (graceTimer = setTimeout(r, PIPE_CLOSE_GRACE_MS)))]);
  clearTimeout(graceTimer);
  child.stdout?.destroy();
  child.stderr?.destroy();
  untrack();
  const out = stdout.result();
  const err = stderr.result();
  const cut = [...(out.cut ? (['stdout'] as const) : []), ...(err.cut ? (['stderr'] as const) : [])];
  return {
    stdout: out.text,
    stderr: out.cut ? `${err.text}${err.text.endsWith('\n') || err.text === '' ? '' : '\n'}[routecert] stdout cut: ${out.totalBytes} bytes in all, ${options.captureBytes ?? captureBytes()} kept (head and tail)\n` : err.text,
    outputBytes: { stdout: out.totalBytes, stderr: err.totalBytes },
    cut,
    exitCode: exit.code,
    signal: exit.signal,
    timedOut,
    pid,
    elapsedMs,
    reaped: merged,
    ...(spawnError !== undefined ? { spawnError } : {}),
  };
}
