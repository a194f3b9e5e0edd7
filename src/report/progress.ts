/**
 * Progress of a long run (hermetic probes take minutes): corpus cases and probes done of their
 * totals, other live results (certification checks), and the time elapsed.
 *
 * - On a terminal (`tty: true`): one status line at the bottom, redrawn as results arrive and each
 *   second; {@link ProgressReporter.wrap} gives the other console reporters a `write` that clears
 *   the line first and redraws it after, so the two never mix.
 * - Elsewhere (CI logs): a plain line every `intervalMs` (default 20 s), e.g.
 *   `[routecert] progress: cases 222/222, probes 12/40, startup probes 3/18 (claude 2.1.332 pov.schema.json), 1m05s elapsed`.
 *
 * A phase that emits few results (the startup table, the certification) reports through
 * `onActivity`: its line names what runs and how many steps of how many are done.
 *
 * Totals come from the `onPlanned` hook (src/report/reporter.ts). Nothing is printed at the end:
 * the summary is the console reporter's.
 */
import type { Activity, Reporter } from './reporter.ts';

/** Options: where to write (stderr), terminal or not, the CI line period (ms), the clock and timers (tests pass fakes). */
export interface ProgressOptions {
  write: (text: string) => void;
  tty: boolean;
  intervalMs?: number;
  now?: () => number;
  setInterval?: (fn: () => void, ms: number) => { unref?: () => void };
  clearInterval?: (handle: unknown) => void;
}

/** A reporter that shows progress, and wraps other writers so they do not garble its status line. */
export interface ProgressReporter extends Reporter {
  /** A `write` for another console reporter: clears the status line, writes, redraws it. */
  wrap(write: (text: string) => void): (text: string) => void;
  /** The current progress as one line (without a prefix). */
  line(): string;
}

/** `1m05s`, `42s`. */
export function formatElapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

/** The progress reporter (see the module comment). */
export function progressReporter(options: ProgressOptions): ProgressReporter {
  const now = options.now ?? (() => Date.now());
  const every = options.setInterval ?? ((fn: () => void, ms: number) => setInterval(fn, ms));
  const stop = options.clearInterval ?? ((h: unknown) => clearInterval(h as NodeJS.Timeout));
  const intervalMs = options.intervalMs ?? 20_000;
  let started = now();
  let casesTotal = 0;
  let probesTotal = 0;
  let cases = 0;
  let probes = 0;
  let other = 0;
  const phases = new Map<string, Activity>();
  let shown = false;
  let timer: unknown;
  const line = (): string => {
    const parts = [`cases ${cases}/${casesTotal}`];
    if (probesTotal > 0 || probes > 0) parts.push(`probes ${probes}/${probesTotal}`);
    if (other > 0) parts.push(`other results ${other}`);
    for (const a of phases.values()) {
      if (a.total !== null && a.done >= a.total) continue;
      parts.push(`${a.phase} ${a.done}/${a.total ?? '?'}${a.running ? ` (${a.running})` : ''}`);
    }
    return `${parts.join(', ')}, ${formatElapsed(now() - started)} elapsed`;
  };
  const clear = () => {
    if (options.tty && shown) options.write('\r\u001b[K');
    shown = false;
  };
  const draw = () => {
    if (!options.tty) return;
    options.write(`\r\u001b[K${line()}`);
    shown = true;
  };
  return {
    name: 'progress',
    line,
    wrap(write) {
      return (text: string) => {
        clear();
        write(text);
        if (timer !== undefined) draw();
      };
    },
    onRunStart() {
      started = now();
      const handle = every(() => (options.tty ? draw() : options.write(`[routecert] progress: ${line()}\n`)), options.tty ? 1000 : intervalMs);
      handle.unref?.();
      timer = handle;
    },
    onPlanned(source, count) {
      if (source === 'corpus') casesTotal += count;
      else probesTotal += count;
    },
    onActivity(activity) {
      phases.set(activity.phase, activity);
      draw();
    },
    onCaseResult(result) {
      if (result.source === 'probe') probes += 1;
      else if (result.route.startsWith('certify:')) other += 1;
      else cases += 1;
      draw();
    },
    onRunEnd() {
      if (timer !== undefined) stop(timer);
      timer = undefined;
      clear();
    },
  };
}
