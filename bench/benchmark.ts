/**
 * What a benchmark module exports, and the timing helpers they share.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Milliseconds. */
export type Milliseconds = number;

/**
 * One benchmark, registered in `bench/index.ts`.
 *
 * - `name`: selects it on the command line (`npm run bench -- scan`).
 * - `description`: one line for `--help`.
 * - `options`: the options it reads, as typed (`--quick`, `--sizes=`: a trailing `=` takes a value);
 *   any other option is a usage error (a typo such as `--size=1` would otherwise run the defaults).
 * - `run(argv)`: prints its report to stdout and resolves to an exit code: 0 when every target it
 *   states is met, 1 when one is missed, 2 on a usage error. `argv` holds the arguments that were
 *   not benchmark names (options such as `--sizes=1,2`).
 */
export interface Benchmark {
  name: string;
  description: string;
  options: readonly string[];
  run(argv: readonly string[]): Promise<number>;
}

/**
 * A full garbage collection, run before each timed call so that one call does not pay for the
 * garbage of the previous one. `bin/bench.js` starts node without `--expose-gc`, so the flag is set
 * at run time; when that is not possible this does nothing.
 */
const collectGarbage: () => void = (() => {
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    if (typeof gc === 'function') return gc as () => void;
  } catch {
    // no gc available: timings then include collections caused by earlier runs
  }
  return () => {};
})();

/**
 * Which clock times a call:
 * - `cpu`: CPU time of this process (user + system, `process.cpuUsage()`), which leaves out time
 *   the process waited for a core while other processes ran; it includes V8's parallel GC helper
 *   threads, which only makes figures a little worse. For a synchronous call on an idle machine it
 *   is about the wall time.
 * - `wall`: elapsed time (`performance.now()`), exact on an idle machine, inflated on a busy one.
 */
export type Clock = 'cpu' | 'wall';

/**
 * Time of one call of `fn` on `clock`, in milliseconds, after a full garbage collection. With
 * `primed`, an untimed call of `fn` runs between the collection and the timed call, so the timed
 * call sees the heap as a loop over the same input would (young generation sized for it, the
 * previous call's garbage to collect) and nothing left over from other inputs: a collection alone
 * leaves a shrunken young generation that penalises the first megabytes of a call.
 */
export function timeOnce(fn: () => unknown, clock: Clock = 'cpu', primed = false): Milliseconds {
  collectGarbage();
  if (primed) fn();
  if (clock === 'cpu') {
    const started = process.cpuUsage();
    fn();
    const used = process.cpuUsage(started);
    return (used.user + used.system) / 1000;
  }
  const started = performance.now();
  fn();
  return performance.now() - started;
}

/** Median of `runs` primed timed calls of `fn` (after `warmup` untimed calls), in milliseconds. */
export function medianTime(fn: () => unknown, runs: number, warmup = 1, clock: Clock = 'cpu'): Milliseconds {
  for (let k = 0; k < warmup; k++) fn();
  const times: Milliseconds[] = [];
  for (let k = 0; k < runs; k++) times.push(timeOnce(fn, clock, true));
  return median(times);
}

/** Median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * A seeded pseudo-random generator (mulberry32, public domain): the same seed gives the same
 * inputs on every machine, so figures can be compared across runs. Returns floats in [0, 1).
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
