/**
 * The run was interrupted (issue 23 point 6): SIGINT or SIGTERM reached routecert (or the process
 * that started it went away, e.g. `npx` was signalled). One flag for the whole process: the CLI
 * sets it ({@link interrupt}); runners read it ({@link interruption}) to stop starting work, and
 * wait on {@link whenInterrupted} to stop waiting for work in flight; every process group
 * routecert started is reaped ({@link reapEverything}).
 */
import { reap, trackedRuns, type ReapReport } from './reap.ts';

/** The exit code of a run ended by `signal`: 128 + its number (SIGINT 130, SIGTERM 143). */
export function signalExitCode(signal: 'SIGINT' | 'SIGTERM'): 130 | 143 {
  return signal === 'SIGINT' ? 130 : 143;
}

let state: { signal: 'SIGINT' | 'SIGTERM'; at: number } | null = null;
let wake: (() => void) | undefined;
const interrupted = new Promise<void>((resolve) => (wake = resolve));
const controller = new AbortController();

/** The signal that interrupted the run, or `null` while it goes on. */
export function interruption(): 'SIGINT' | 'SIGTERM' | null {
  return state?.signal ?? null;
}

/** Resolves when the run is interrupted (never otherwise). */
export function whenInterrupted(): Promise<void> {
  return interrupted;
}

/** Aborted when the run is interrupted: pass it where an `AbortSignal` is taken. */
export const interruptSignal: AbortSignal = controller.signal;

/** Mark the run interrupted by `signal` (the first signal wins). */
export function interrupt(signal: 'SIGINT' | 'SIGTERM'): void {
  if (state) return;
  state = { signal, at: Date.now() };
  controller.abort(signal);
  wake?.();
}

/**
 * Reap every run still tracked (src/process/reap.ts `trackRun`: probes, fake-CLI workers): SIGTERM
 * to each group and marked process, SIGKILL after `termGraceMs`. Resolves when all are gone.
 */
export async function reapEverything(termGraceMs = 500): Promise<ReapReport[]> {
  return Promise.all(trackedRuns().map((t) => reap({ ...t, termGraceMs })));
}

let leftBehind: string | null = null;

/**
 * Say that work was abandoned that may keep the event loop alive (a config whose top-level await
 * never settled): the CLI then exits as soon as its command returns instead of waiting for it.
 */
export function abandonWork(what: string): void {
  leftBehind ??= what;
}

/** Whether the CLI must exit when its command returns (interrupted, or work was abandoned). */
export function mustExitWhenDone(): boolean {
  return state !== null || leftBehind !== null;
}
