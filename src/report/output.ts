/**
 * Where a file-writing reporter writes: `file` when given (`--output-file junit=ci/junit.xml`),
 * else `<dir>/<defaultName>`. Parent folders are created. Every byte written goes through the one
 * redaction of output (src/diagnostics/redact.ts `redactOutput`).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { redactOutput } from '#src/diagnostics/redact.ts';
import { writeJson } from './bound.ts';

/** Options of every file-writing reporter: the run folder, or a file of its own. */
export interface OutputOptions {
  /** The run folder (`reports/<run>`); the reporter writes its default file name there. */
  dir?: string;
  /** A file of its own, overriding `dir`. */
  file?: string;
}

/** The path a reporter writes to. @throws Error when neither `file` nor `dir` is given. */
export function outputPath(options: OutputOptions, defaultName: string): string {
  if (options.file) return path.resolve(options.file);
  if (options.dir) return path.join(options.dir, defaultName);
  throw new Error(`[routecert] the ${defaultName} reporter needs a folder (dir) or a file`);
}

/** Write `text` (UTF-8, redacted) to the reporter's path; returns the path. */
export async function writeOutput(options: OutputOptions, defaultName: string, text: string): Promise<string> {
  const file = outputPath(options, defaultName);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, redactOutput(text), 'utf8');
  return file;
}

/**
 * Write `value` as JSON to the reporter's path: iteratively, in chunks, every string redacted
 * (src/report/bound.ts `writeJson`); returns the path.
 */
export async function writeJsonOutput(options: OutputOptions, defaultName: string, value: unknown): Promise<string> {
  const file = outputPath(options, defaultName);
  await mkdir(path.dirname(file), { recursive: true });
  await writeJson(file, value);
  return file;
}
