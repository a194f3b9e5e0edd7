/**
 * The largest JSON Schema routecert reads (issue 23 point 3): compiling, linting or sending a schema
 * costs time and memory far beyond its size (a 10 MB schema took 3 min and 3.6 GB to load), so a
 * larger file is refused before it is read, with an error naming the file, its size and the limit.
 * Production schemas sent to model CLIs are kilobytes; `ROUTECERT_MAX_SCHEMA_MB` raises the limit.
 */
import { statSync } from 'node:fs';
import { NUMERIC_VARIABLES, numericVariable } from '#src/envNumbers.ts';

/** Default largest schema file: 2 MiB. */
export const DEFAULT_MAX_SCHEMA_BYTES = 2 * 2 ** 20;

/**
 * The limit in force: `ROUTECERT_MAX_SCHEMA_MB` (MiB, > 0) or {@link DEFAULT_MAX_SCHEMA_BYTES} when it
 * is unset or empty. An invalid value also gives the default here; the command line refuses it first
 * (src/envNumbers.ts).
 */
export function maxSchemaBytes(env: NodeJS.ProcessEnv = process.env): number {
  const mb = numericVariable(NUMERIC_VARIABLES.maxSchemaMb, env);
  return mb !== undefined ? Math.round(mb * 2 ** 20) : DEFAULT_MAX_SCHEMA_BYTES;
}

/** A size as people read it: `10.2 KiB` under a MiB, else `2.0 MiB`. */
function shownSize(bytes: number): string {
  return bytes < 2 ** 20 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}

/**
 * Why `file` is too large (or not a regular file) to read as a schema, or `null` when it may be
 * read. A file that cannot be stat'ed gives `null` (the read that follows reports it).
 */
export function schemaSizeProblem(file: string, env: NodeJS.ProcessEnv = process.env): string | null {
  let size: number;
  try {
    const info = statSync(file);
    if (!info.isFile()) return `schema ${file} is not a regular file`;
    size = info.size;
  } catch {
    return null;
  }
  const limit = maxSchemaBytes(env);
  if (size <= limit) return null;
  return `schema ${file} is ${shownSize(size)}, over the ${shownSize(limit)} limit for a schema (set ROUTECERT_MAX_SCHEMA_MB to raise it)`;
}

/**
 * The bytes of `value`'s compact JSON, counted iteratively (any depth), stopping as soon as the
 * count passes `stopAbove`: an inline schema is measured without building its text.
 */
function jsonBytesUpTo(value: unknown, stopAbove: number): number {
  let bytes = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && bytes <= stopAbove) {
    const v = stack.pop();
    if (typeof v === 'string') bytes += Buffer.byteLength(v) + 2;
    else if (Array.isArray(v)) {
      bytes += 2 + Math.max(0, v.length - 1);
      for (const item of v) stack.push(item);
    } else if (typeof v === 'object' && v !== null) {
      const entries = Object.entries(v);
      bytes += 2 + Math.max(0, entries.length - 1);
      for (const [k, item] of entries) {
        bytes += Buffer.byteLength(k) + 3;
        stack.push(item);
      }
    } else bytes += String(v).length;
  }
  return bytes;
}

/**
 * Why the inline schema `value` (a config's `schema: { ... }`, a schema object handed to
 * `defineContract`) is too large to compile, or `null`: the same limit as a schema file
 * ({@link maxSchemaBytes}), counted on its compact JSON. `label` names where it comes from.
 */
export function inlineSchemaSizeProblem(value: unknown, label: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const limit = maxSchemaBytes(env);
  if (jsonBytesUpTo(value, limit) <= limit) return null;
  return `${label} is over the ${shownSize(limit)} limit for a schema (set ROUTECERT_MAX_SCHEMA_MB to raise it)`;
}
