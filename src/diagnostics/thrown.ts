/**
 * What code of someone else's threw (a reporter, a worker run in process, a config), in words,
 * whatever it threw: `throw Object.create(null)` or an Error whose `message` getter throws must not
 * turn the report of one fault into a second, uncaught one.
 */

/**
 * An Error's message (its stack with `stack`), a thrown string or value as `String()` gives it, or
 * `a value that cannot be shown ([object Object])` when even that throws. Never throws.
 *
 * @example
 * describeThrown(Object.create(null)) // 'a value that cannot be shown ([object Object])'
 */
export function describeThrown(error: unknown, options: { stack?: boolean } = {}): string {
  try {
    if (error instanceof Error) return String((options.stack ? error.stack : undefined) ?? error.message);
    return String(error);
  } catch {
    return `a value that cannot be shown (${Object.prototype.toString.call(error)})`;
  }
}
