/**
 * `routecert diff <before> <after>`: compare two reports case by case (src/report/diff.ts) and
 * print each difference. Exit 0 when nothing regressed, 1 on a regression (a case that now fails or
 * errors, a new run fault), 2 when a report cannot be read or neither holds anything to compare.
 */
import path from 'node:path';
import { diffReports, diffText } from '#src/report/diff.ts';
import { InvalidReportError, readReport } from '#src/harness/readReport.ts';
import { UsageError } from '../options.ts';
import { findReports } from './mergeReports.ts';

/**
 * The one report `p` names: a report.json, a run folder, or a `--reports` folder holding one run
 * (the README's `diff release/report.json merged`). A folder that holds several runs (`reports/`)
 * is refused naming them, with the newest as the example of what to give.
 */
async function one(p: string): Promise<string> {
  let found: string[];
  try {
    found = await findReports(p, 2);
  } catch (error) {
    if (error instanceof UsageError && error.message.includes('holds no report.json')) {
      throw new UsageError(`${p}: holds no report.json, nor any run folder with one: give a run folder (reports/<run>/, which \`routecert run\` prints as its last line) or a report.json`);
    }
    throw error;
  }
  // A --reports folder that holds one run (`merge-reports ... --reports merged`) names that run.
  if (found.length === 1) return found[0]!;
  const runs = found.map((f) => path.dirname(f));
  const newest = [...runs].sort((a, b) => path.basename(a).localeCompare(path.basename(b))).at(-1)!;
  const shown = runs.length <= 4 ? runs.join(', ') : `${runs.slice(0, 3).join(', ')}, ... (${runs.length} in all)`;
  throw new UsageError(`${p} is a folder of ${runs.length} run${runs.length === 1 ? '' : 's'} (${shown}), not a run: diff compares two runs; give one run folder, e.g. ${newest}, or its report.json`);
}

/** Diff; returns the exit code. */
export async function diffCommand(before: string, after: string, opts: { json?: boolean }): Promise<number> {
  try {
    const a = await readReport(await one(before));
    const b = await readReport(await one(after));
    // Two reports with nothing in them compare nothing: an error, not "0 regressions" (an empty shard's report passed green).
    const empty = (r: typeof a) => r.cases.length === 0 && (r.startupProbes?.rows.length ?? 0) === 0;
    if (empty(a) && empty(b)) {
      throw new UsageError(`[routecert] diff: nothing was compared: neither ${before} nor ${after} holds a case or a startup probe (a run that selected nothing, e.g. an empty --shard?); diff reports of runs that judged something, or the merged reports of a sharded run (\`routecert merge-reports\`)`);
    }
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
