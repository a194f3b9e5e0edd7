/**
 * The engine behind `routecert lint <paths...> [--profile p]... [--format json]`: lints files and
 * folders, prints the findings for a person (text) or a program (JSON), and returns the exit code.
 * It never calls `process.exit`; the CLI maps the returned code.
 */
import { lintFiles, type FileLintResult } from '#src/schema/lint.ts';
import { PROFILE_NAMES } from '#src/schema/profiles.ts';
import type { LintFinding } from '#src/schema/types.ts';

/** Output formats of {@link runLint}. */
export const LINT_FORMATS = ['text', 'json'] as const;

/**
 * Arguments of {@link runLint}.
 *
 * - `paths`: files and folders (folders are searched for `*.schema.json`).
 * - `profiles`: check every file against these; when absent or empty, each file gets its folder
 *   manifest's profiles (`profiles.json`), or `portable`.
 * - `format`: `text` (grouped by file, with a summary line) or `json` (an array of findings).
 */
export interface LintArgv {
  paths: string[];
  profiles?: string[];
  format: 'text' | 'json';
  /** `--max-warnings N`: more than N warnings fail the lint (ESLint's option); @default no limit. */
  maxWarnings?: number;
}

/**
 * The exit code of a lint, as linters have it (ESLint's `--max-warnings`): 1 when any finding is an
 * error, or when there are more than `maxWarnings` warnings; else 0 (warnings print and pass).
 */
export function lintExitCode(findings: readonly { severity: string }[], maxWarnings?: number): 0 | 1 {
  const errors = findings.filter((f) => f.severity === 'error').length;
  const warnings = findings.length - errors;
  return errors > 0 || (maxWarnings !== undefined && warnings > maxWarnings) ? 1 : 0;
}

/** The line saying why warnings failed a lint (`--max-warnings`), or `''`. */
export function maxWarningsLine(findings: readonly { severity: string }[], maxWarnings?: number): string {
  const warnings = findings.filter((f) => f.severity !== 'error').length;
  return maxWarnings !== undefined && warnings > maxWarnings ? `[routecert] lint: ${warnings} warning(s), more than --max-warnings ${maxWarnings}: exit 1\n` : '';
}

/** Where {@link runLint} writes; each call gets whole lines, newline included. */
export interface LintIo {
  stdout(s: string): void;
  stderr(s: string): void;
}

const USAGE = 'Usage: routecert lint <paths...> [--profile <name>]... [--format text|json]';

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** `file:pointer` (or `file:line:column` for invalid JSON); the root pointer prints as `(root)`. */
function location(result: FileLintResult, finding: LintFinding): string {
  const file = finding.file ?? result.file;
  if (finding.line !== undefined && finding.column !== undefined) return `${file}:${finding.line}:${finding.column}`;
  return `${file}:${finding.pointer === '' ? '(root)' : finding.pointer}`;
}

/**
 * Renders results for a person: one block per file (a header with the profiles it was checked
 * against, then one line per finding: `file:pointer  keyword  profile/rule  severity: message (hint)`),
 * then a summary line.
 */
export function formatText(results: readonly FileLintResult[]): string {
  const lines: string[] = [];
  let errors = 0;
  let warnings = 0;
  let dirty = 0;
  for (const result of results) {
    const from = result.manifest !== undefined ? `; from ${result.manifest}` : '';
    const profiles = result.profiles.length > 0 ? ` (profiles: ${result.profiles.join(', ')}${from})` : '';
    if (result.findings.length === 0) {
      lines.push(`${result.file}  ok${profiles}`);
      continue;
    }
    dirty++;
    lines.push(`${result.file}${profiles}`);
    for (const finding of result.findings) {
      if (finding.severity === 'error') errors++;
      else warnings++;
      const keyword = finding.keyword === '' ? '-' : finding.keyword;
      lines.push(`  ${location(result, finding)}  ${keyword}  ${finding.profile}/${finding.rule}  ${finding.severity}: ${finding.message} (${finding.hint})`);
    }
  }
  const files = results.length;
  lines.push(
    errors + warnings === 0
      ? `routecert lint: ${plural(files, 'file')}, no findings`
      : `routecert lint: ${plural(files, 'file')}, ${plural(errors, 'error')}, ${plural(warnings, 'warning')} in ${plural(dirty, 'file')}`,
  );
  return lines.join('\n') + '\n';
}

/**
 * Runs the lint and prints its report.
 *
 * @returns the exit code: 0 when no finding is an error (warnings print; `maxWarnings` caps them),
 *   1 when one is or the warnings exceed `maxWarnings` ({@link lintExitCode}), 2 for a
 *   usage error (no path, unknown format, unknown profile: the message, prefixed `[routecert]`,
 *   lists the valid values; paths that hold no `*.schema.json` at all), 3 when the lint itself could not run (an internal fault; see DESIGN.md
 *   "Reports and exit codes").
 * @example
 * const code = await runLint(
 *   { paths: ['schemas/contracts'], format: 'text' },
 *   { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s) },
 * );
 */
export async function runLint(argv: LintArgv, io: LintIo): Promise<number> {
  if (argv.paths.length === 0) {
    io.stderr(`[routecert] lint needs at least one file or folder.\n${USAGE}\n`);
    return 2;
  }
  if (!(LINT_FORMATS as readonly string[]).includes(argv.format)) {
    io.stderr(`[routecert] unknown format "${String(argv.format)}". Valid formats: ${LINT_FORMATS.join(', ')}\n`);
    return 2;
  }
  const profiles = argv.profiles !== undefined && argv.profiles.length > 0 ? argv.profiles : undefined;
  const unknown = (profiles ?? []).filter((name) => !PROFILE_NAMES.includes(name));
  if (unknown.length > 0) {
    const names = unknown.map((name) => `"${name}"`).join(', ');
    io.stderr(`[routecert] unknown profile ${names}. Valid profiles: ${PROFILE_NAMES.join(', ')}\n`);
    return 2;
  }
  let results: FileLintResult[];
  try {
    results = await lintFiles(argv.paths, profiles === undefined ? {} : { profiles });
  } catch (error) {
    io.stderr(`[routecert] lint could not run: ${(error as Error).message}\n`);
    return 3;
  }
  // Paths that hold no schema file at all lint nothing: a usage error, never an empty success.
  const empty = results.filter((result) => result.findings.some((f) => f.rule === 'no-schema-files'));
  if (empty.length === results.length) {
    io.stderr(`[routecert] lint: nothing to lint: no *.schema.json file under ${empty.map((r) => r.file).join(', ')}. Name schema files *.schema.json, or pass the files themselves.\n`);
    return 2;
  }
  const findings = results.flatMap((result) => result.findings);
  if (argv.format === 'json') io.stdout(JSON.stringify(findings, null, 2) + '\n');
  else io.stdout(formatText(results));
  io.stderr(maxWarningsLine(findings, argv.maxWarnings));
  return lintExitCode(findings, argv.maxWarnings);
}
