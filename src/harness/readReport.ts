/**
 * Reading `report.json` back (`routecert diff`): {@link readReport} validates a report against
 * schemas/report.schema.json and rejects one without a footer, which was cut short. Apart from
 * src/report/json.ts, which writes it, because validation needs the contract's validator.
 */
import { readFile } from 'node:fs/promises';
import { compileValidator } from '#src/contract/validator.ts';
import { projectPath } from '#src/paths.ts';
import type { RunReport } from '#src/report/types.ts';
import { describeJsonSyntaxError } from '#src/schema/jsonError.ts';

/** Raised by {@link readReport} for a report that does not validate; `code` is stable. */
export class InvalidReportError extends Error {
  readonly code: 'ROUTECERT_INVALID_REPORT' | 'ROUTECERT_REPORT_MISSING_FOOTER';
  constructor(code: InvalidReportError['code'], message: string) {
    super(message);
    this.name = 'InvalidReportError';
    this.code = code;
  }
}

/**
 * Read and validate a report.json.
 *
 * @throws InvalidReportError with code `ROUTECERT_REPORT_MISSING_FOOTER` when the footer is missing
 *   (the run was cut short), `ROUTECERT_INVALID_REPORT` for any other schema problem.
 */
export async function readReport(file: string): Promise<RunReport> {
  const text = await readFile(file, 'utf8');
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new InvalidReportError('ROUTECERT_INVALID_REPORT', `[routecert] ${file} is not a routecert report: not JSON (${describeJsonSyntaxError(text, error)}). Give a report.json, or the run folder, that routecert run wrote.`);
  }
  // Another JSON file (`diff report.json package.json`) is not a report cut short.
  if (typeof value !== 'object' || value === null || Array.isArray(value) || typeof value.header !== 'object' || !Array.isArray(value.cases)) {
    throw new InvalidReportError('ROUTECERT_INVALID_REPORT', `[routecert] ${file} is not a routecert report (no header and cases). Give a report.json, or the run folder, that routecert run wrote.`);
  }
  if (value.footer === undefined) {
    throw new InvalidReportError('ROUTECERT_REPORT_MISSING_FOOTER', `[routecert] ${file} has no footer: the run that wrote it was cut short.`);
  }
  const schema = JSON.parse(await readFile(projectPath('schemas/report.schema.json'), 'utf8')) as Record<string, unknown>;
  const problems = compileValidator(schema)(value);
  if (problems.length > 0) throw new InvalidReportError('ROUTECERT_INVALID_REPORT', `[routecert] ${file} is not a valid report: ${problems.join('; ')}`);
  return value as unknown as RunReport;
}
