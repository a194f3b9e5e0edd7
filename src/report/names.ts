/**
 * The built-in reporter names and the file each writes into the run folder (null: the console).
 * Kept apart from the reporters themselves so the CLI checks `--reporter` without loading them.
 */
export const BUILTIN_REPORTERS = {
  default: null,
  verbose: null,
  dot: null,
  json: 'report.json',
  junit: 'junit.xml',
  markdown: 'summary.md',
  html: 'report.html',
  github: null,
} as const;

/** A built-in reporter's name. */
export type BuiltinReporterName = keyof typeof BUILTIN_REPORTERS;

/** Every built-in name, in `--help` order. */
export const REPORTER_NAMES = Object.keys(BUILTIN_REPORTERS) as BuiltinReporterName[];

/** The built-in reporters that write a file (`--output-file <name>=<path>`). */
export const FILE_REPORTERS = REPORTER_NAMES.filter((n) => BUILTIN_REPORTERS[n] !== null);

/** True when `name` is a built-in reporter. */
export function isBuiltinReporter(name: string): name is BuiltinReporterName {
  return Object.hasOwn(BUILTIN_REPORTERS, name);
}
