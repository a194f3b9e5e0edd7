/**
 * Giving memory back between large values (issue 24 point 5). V8 frees a large string or buffer that
 * is no longer referenced only at its next full collection, and it schedules one by how much the
 * heap grew, not by what the process holds: a 118 MiB case file's bytes and text, dropped, can
 * still be resident when its 106 MiB envelope is parsed and when the decoder parses its 100 MiB
 * `result` (peak RSS 6x the envelope). routecert asks for a full collection at the few points where
 * it has just let go of such a value, so the next one never sits beside it.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | null | undefined;

/**
 * V8's full garbage collection, reached without starting Node with `--expose-gc`: the flag is set
 * for one new context, its `gc` taken, and the flag reset (so no other context sees `gc`). `null`
 * where this Node does not allow it; then nothing is collected early.
 */
function fullCollection(): (() => void) | null {
  if (collect !== undefined) return collect;
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    collect = typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    collect = null;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
  return collect;
}

/**
 * Collect the garbage now: call it right after dropping the last reference to a large value (a
 * case file's bytes or text, a released case's envelope), never in a loop over small ones (a full
 * collection costs milliseconds). Never throws.
 */
export function releaseMemory(): void {
  try {
    const gc = fullCollection();
    if (!gc) return;
    gc();
    // The pages of large objects that collection freed are given back to the system by a V8 worker
    // thread, later: the 138 MiB text of a case file just parsed was still resident after the
    // collection, while the decoder went on to parse its envelope. The next collection gives queued
    // pages back before it starts, so a scavenge (of an empty young generation: microseconds)
    // returns them now (measured on that case file: RSS 290 MiB after the full collection alone,
    // 153 MiB with the scavenge; src/memory.test.ts).
    (gc as (options?: { type: 'minor' }) => void)({ type: 'minor' });
  } catch {
    // Collection is only an economy of memory: never a failure.
  }
}
