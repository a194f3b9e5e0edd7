/**
 * Joining the reports of a sharded run (`routecert run --shard i/n` on n machines) into one report,
 * as if one run had judged every case: cases and faults side by side, CLI lines and startup-probe
 * columns joined, counts and the exit code derived again by the run's own rules
 * ({@link summarise}, {@link exitCodeFor}).
 */
import { summariseStartup, type StartupTable } from '#src/probe/startup.ts';
import type { CliStatus, RunReport } from '#src/report/types.ts';
import { exitCodeFor, summarise } from './run.ts';

/** Raised when the reports cannot be one run (shards missing or repeated, a case in two reports); `code` is stable. */
export class MergeReportsError extends Error {
  readonly code = 'ROUTECERT_MERGE_REPORTS';
  constructor(message: string) {
    super(`[routecert] ${message}`);
    this.name = 'MergeReportsError';
  }
}

/** One report to merge and where it came from (named in errors and in `header.mergedFrom`). */
export interface ReportSource {
  file: string;
  report: RunReport;
}

function mergeStartup(tables: StartupTable[]): StartupTable | undefined {
  if (tables.length === 0) return undefined;
  const columns = new Map<string, StartupTable['columns'][number]>();
  for (const t of tables) for (const c of t.columns) if (!columns.has(c.cli) || (c.installed && !columns.get(c.cli)!.installed)) columns.set(c.cli, c);
  const rows = new Map<string, StartupTable['rows'][number]>();
  for (const t of tables) {
    for (const row of t.rows) {
      const seen = rows.get(row.id);
      if (!seen) rows.set(row.id, { ...row, cells: [...row.cells] });
      else for (const cell of row.cells) if (!seen.cells.some((c) => c.cli === cell.cli && c.route === cell.route)) seen.cells.push(cell);
    }
  }
  const mergedRows = [...rows.values()];
  return { columns: [...columns.values()], rows: mergedRows, summary: summariseStartup(mergedRows), durationMs: tables.reduce((m, t) => Math.max(m, t.durationMs), 0) };
}

/**
 * Merge shard reports into one.
 *
 * @param command the command line for the merged header (e.g. `routecert merge-reports a b`).
 * @throws {MergeReportsError} when no report is given, the shards disagree on their count, a shard
 *   index is missing or repeated, a sharded report is mixed with a whole one, or a case id is in two reports.
 */
export function mergeReports(sources: readonly ReportSource[], command = 'routecert merge-reports'): RunReport {
  if (sources.length === 0) throw new MergeReportsError('merge-reports needs at least one report');
  const sharded = sources.filter((s) => s.report.header.shard);
  if (sharded.length > 0) {
    if (sharded.length !== sources.length) {
      throw new MergeReportsError(`some reports are shards and some are not: ${sources.filter((s) => !s.report.header.shard).map((s) => s.file).join(', ')} ran without --shard`);
    }
    const counts = new Set(sharded.map((s) => s.report.header.shard!.count));
    if (counts.size > 1) throw new MergeReportsError(`the shards come from different splits (--shard i/${[...counts].join(', i/')}); merge the reports of one split`);
    const count = [...counts][0]!;
    const seen = new Map<number, string>();
    for (const s of sharded) {
      const i = s.report.header.shard!.index;
      if (seen.has(i)) throw new MergeReportsError(`shard ${i}/${count} is there twice: ${seen.get(i)} and ${s.file}`);
      seen.set(i, s.file);
    }
    const missing = Array.from({ length: count }, (_, k) => k + 1).filter((i) => !seen.has(i));
    if (missing.length > 0) throw new MergeReportsError(`shard ${missing.map((i) => `${i}/${count}`).join(', ')} missing: the merged report would not hold every case (got ${[...seen.keys()].sort((a, b) => a - b).map((i) => `${i}/${count}`).join(', ')})`);
  }
  const ordered = [...sources].sort((a, b) => (a.report.header.shard?.index ?? 0) - (b.report.header.shard?.index ?? 0));
  const owner = new Map<string, string>();
  const cases = [];
  for (const s of ordered) {
    for (const c of s.report.cases) {
      const other = owner.get(c.id);
      if (other !== undefined) throw new MergeReportsError(`case ${c.id} is in two reports (${other} and ${s.file}): they are not shards of one run`);
      owner.set(c.id, s.file);
      cases.push(c);
    }
  }
  const faults = ordered.flatMap((s) => s.report.faults);
  const clis = new Map<string, CliStatus>();
  for (const s of ordered) for (const c of s.report.header.clis) if (!clis.has(c.name) || (c.installed && !clis.get(c.name)!.installed)) clis.set(c.name, c);
  const first = ordered[0]!.report;
  const { shard: _shard, ...header } = first.header;
  const startupProbes = mergeStartup(ordered.flatMap((s) => (s.report.startupProbes ? [s.report.startupProbes] : [])));
  const startedAt = ordered.map((s) => s.report.header.startedAt).sort()[0]!;
  const finishedAt = ordered.map((s) => s.report.footer.finishedAt).sort().at(-1)!;
  return {
    reportVersion: first.reportVersion,
    header: { ...header, startedAt, command, clis: [...clis.values()], mergedFrom: ordered.map((s) => s.file) },
    cases,
    faults,
    summary: summarise(cases, faults),
    ...(startupProbes ? { startupProbes } : {}),
    footer: { finishedAt, durationMs: ordered.reduce((m, s) => Math.max(m, s.report.footer.durationMs), 0), exitCode: exitCodeFor(cases, faults) },
  };
}
