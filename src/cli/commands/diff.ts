/**
 * `routecert diff <before> <after>`: compare two reports case by case (src/report/diff.ts) and
 * print each difference. Exit 0 when nothing regressed, 1 on a regression (a case that now fails or
 * errors, a new run fault), 2 when a report cannot be read.
 */
import { diffReports, diffText } from '#src/report/diff.ts';
import { InvalidReportError, readReport } from '#src/harness/readReport.ts';
import { UsageError } from '../options.ts';
import { findReports } from './mergeReports.ts';

async function one(p: string): Promise<string> {
  const found = await findReports(p, 0);
  if (found.length !== 1) throw new UsageError(`${p}: give one run folder or one report.json`);
  return found[0]!;
}

/** Diff; returns the exit code. */
export async function diffCommand(before: string, after: string, opts: { json?: boolean }): Promise<number> {
  try {
    const a = await readReport(await one(before));
    const b = await readReport(await one(after));
    const d = diffReports(a, b);
    process.stdout.write(opts.json ? `${JSON.stringify(d, null, 2)}\n` : diffText(d));
    return d.regressions > 0 ? 1 : 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof InvalidReportError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    if (error instanceof SyntaxError) {
      process.stderr.write(`[routecert] a report is not JSON: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
