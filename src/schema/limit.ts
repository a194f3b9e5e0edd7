/**
 * The largest JSON Schema routecert reads (issue 23 point 3): compiling, linting or sending a schema
 * costs time and memory far beyond its size (a 10 MB schema took 3 min and 3.6 GB to load), so a
 * larger file is refused before it is read, with an error naming the file, its size and the limit.
 * Production schemas sent to model CLIs are kilobytes; `ROUTECERT_MAX_SCHEMA_MB` raises the limit.
 */
import { statSync } from 'node:fs';

/** Default largest schema file: 2 MiB. */
export const DEFAULT_MAX_SCHEMA_BYTES = 2 * 2 ** 20;

/** The limit in force: `ROUTECERT_MAX_SCHEMA_MB` (MiB, > 0) or {@link DEFAULT_MAX_SCHEMA_BYTES}. */
export function maxSchemaBytes(env: NodeJS.ProcessEnv = process.env): number {
  const mb = Number(env.ROUTECERT_MAX_SCHEMA_MB);
  return Number.isFinite(mb) && mb > 0 ? Math.round(mb * 2 ** 20) : DEFAULT_MAX_SCHEMA_BYTES;
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
  const mib = (n: number): string => `${(n / 2 ** 20).toFixed(1)} MiB`;
  return `schema ${file} is ${mib(size)}, over the ${mib(limit)} limit for a schema (set ROUTECERT_MAX_SCHEMA_MB to raise it)`;
}
