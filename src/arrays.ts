/**
 * Appending one array to another without spreading it into a call's arguments.
 *
 * `target.push(...items)` passes every element as an argument, so it throws
 * `RangeError: Maximum call stack size exceeded` once `items` holds about 120,000 elements (V8 on
 * Node 20; issue 15: a `result` string holding 150,000 small objects). These loops have no limit
 * but memory. src/spreads.test.ts forbids `push(...`, `unshift(...` and `Math.max(...` /
 * `Math.min(...` in src/, so every append of a list goes through here.
 */

/**
 * Append every element of `items` to `target`, in order; returns `target`.
 *
 * @example
 * pushAll([1], [2, 3]) // [1, 2, 3]
 */
export function pushAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}

/**
 * Insert every element of `items` at the front of `target`, in order (what
 * `prependAll(target, items)` does); returns `target`.
 *
 * @example
 * prependAll([3], [1, 2]) // [1, 2, 3]
 */
export function prependAll<T>(target: T[], items: Iterable<T>): T[] {
  const tail = target.splice(0, target.length);
  pushAll(target, items);
  return pushAll(target, tail);
}
