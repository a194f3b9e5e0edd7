/**
 * `routecert merge-reports <paths...>`: join the report.json of shard runs into one run folder with
 * every format (report.json, junit.xml, summary.md, report.html), print the summary, and exit with
 * the merged run's code (0 all conform, 1 a conformance failure, 2 the reports cannot be merged,
 * 3 a shard could not carry out its run).
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { mergeReports, MergeReportsError, type ReportSource } from '#src/harness/mergeReports.ts';
import { InvalidReportError, readReport } from '#src/harness/readReport.ts';
import { summaryText } from '#src/report/console.ts';
import { createReporters, FILE_REPORTERS, type BuiltinReporterName } from '#src/report/registry.ts';
import { outputFiles, shownPath, UsageError } from '../options.ts';
import { createRunFolder } from './run.ts';

/** Options of `routecert merge-reports`. */
export interface MergeReportsCommandOptions {
  reports: string;
  reporter?: BuiltinReporterName[];
  outputFile?: string[];
}

/** Every report.json at or under `p` (a file, a run folder, or a folder of run folders, 4 levels deep), sorted. */
export async function findReports(p: string, depth = 4): Promise<string[]> {
  let info;
  try {
    info = await stat(p);
  } catch {
    throw new UsageError(`${p}: no such file or folder`);
  }
  if (info.isFile()) return [p];
  const found: string[] = [];
  const walk = async (dir: string, left: number): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    if (entries.some((e) => e.isFile() && e.name === 'report.json')) {
      found.push(path.join(dir, 'report.json'));
      return;
    }
    if (left === 0) return;
    for (const e of entries.filter((x) => x.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) await walk(path.join(dir, e.name), left - 1);
  };
  await walk(p, depth);
  if (found.length === 0) throw new UsageError(`${p}: holds no report.json (give the run folders of the shards, or their report.json files)`);
  return found;
}

/** Merge; returns the exit code. */
export async function mergeReportsCommand(paths: string[], opts: MergeReportsCommandOptions, commandLine: string): Promise<number> {
  try {
    const files = [...new Set((await Promise.all(paths.map((p) => findReports(p)))).flat())];
    const sources: ReportSource[] = [];
    for (const file of files) sources.push({ file: shownPath(file), report: await readReport(file) });
    sources.sort((a, b) => (a.report.header.shard?.index ?? 0) - (b.report.header.shard?.index ?? 0));
    const merged = mergeReports(sources, `routecert ${commandLine}`);
    const chosen = opts.reporter?.length ? opts.reporter : (['json', 'junit', 'markdown', 'html', ...(process.env.GITHUB_ACTIONS === 'true' ? (['github'] as const) : [])] as BuiltinReporterName[]);
    const withJson: BuiltinReporterName[] = chosen.includes('json') ? chosen : [...chosen, 'json'];
    const outputs = outputFiles(opts.outputFile ?? [], withJson);
    const dir = await createRunFolder(opts.reports);
    const reporters = createReporters(withJson, { dir, files: outputs });
    for (const r of reporters) await r.onRunStart?.(merged.header);
    for (const r of reporters) await r.onPlanned?.('corpus', merged.cases.length);
    for (const c of merged.cases) for (const r of reporters) await r.onCaseResult?.(c);
    for (const r of reporters) await r.onRunEnd?.(merged);
    const consoleChosen = withJson.some((n) => !(FILE_REPORTERS as readonly string[]).includes(n) && n !== 'github');
    process.stdout.write(`merged ${sources.length} report(s): ${sources.map((s) => `${s.file}${s.report.header.shard ? ` (shard ${s.report.header.shard.index}/${s.report.header.shard.count})` : ''}`).join(', ')}\n`);
    if (!consoleChosen) process.stdout.write(summaryText(merged));
    const written = withJson.filter((n) => (FILE_REPORTERS as readonly string[]).includes(n));
    process.stdout.write(`reports: ${shownPath(dir)}/ (${written.join(', ')})\n`);
    return merged.footer.exitCode;
  } catch (error) {
    if (error instanceof UsageError || error instanceof MergeReportsError || error instanceof InvalidReportError) {
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
