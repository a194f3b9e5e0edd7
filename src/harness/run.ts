/**
 * `routecert run` as a library call: the corpus cases (and, when a source of live results is given,
 * the hermetic probes), judged, compared, and handed to the reporters. Returns the report and the
 * exit code; never calls `process.exit`.
 *
 * Exit codes (DESIGN.md "Reports and exit codes"): 0 all conform; 1 a conformance failure;
 * 2 usage or configuration error (e.g. a case file that does not load); 3 the run could not be
 * carried out (a probe could not start, a mock failed). The highest applicable code wins.
 */
import { performance } from 'node:perf_hooks';
import type { Contract } from '#src/contract/types.ts';
import { PACKAGE_VERSION } from '#src/paths.ts';
import { loadCorpus, RELEASE_CASE_BYTES, withAttempts } from '#src/record/corpus.ts';
import { releaseMemory } from '#src/memory.ts';
import type { RouteDecoder } from '#src/envelope/types.ts';
import type { Activity, Reporter } from '#src/report/reporter.ts';
import { REPORT_VERSION, type CaseResult, type CliStatus, type RunFault, type RunReport, type RunSummary } from '#src/report/types.ts';
import { matchesFilter, runCase, type CaseFilter } from './runCorpus.ts';
import { pushAll } from '#src/arrays.ts';
import { sealReport } from '#src/report/bound.ts';
import { redactOutput } from '#src/diagnostics/redact.ts';
import { describeThrown } from '#src/diagnostics/thrown.ts';
import { interruption, signalExitCode, whenInterrupted } from '#src/process/interrupt.ts';


/**
 * A source of extra results produced while the run goes on, e.g. hermetic probes of installed CLIs.
 * It reports each result through `emit` and returns the faults and the CLI lines for the header.
 * The sources of a run run at the same time (their `emit` calls are taken one at a time).
 * `sections()`, when present, is called after every source has run and returns the optional report
 * sections it fills (e.g. `startupProbes`, src/harness/startupProbes.ts).
 */
export interface LiveSource {
  clis(): Promise<CliStatus[]>;
  /** `planned(count)`, when given, is told how many results the source is about to emit (for progress). */
  run(emit: (result: CaseResult) => Promise<void>, filter: CaseFilter, planned?: (count: number) => void, activity?: (a: Activity) => void): Promise<RunFault[]>;
  sections?(): Partial<Pick<RunReport, 'startupProbes' | 'versions'>>;
}

/** Options of {@link runConformance}. */
export interface RunOptions {
  /** Folder of case files (default: the bundled fixtures/cases). */
  casesDir: string;
  filter?: CaseFilter;
  reporters?: Reporter[];
  decoders?: RouteDecoder[];
  /** The team's contracts (a config's `contracts`); a case's `contract` names one of them or a preset. */
  contracts?: readonly Contract[];
  live?: LiveSource[];
  /** Largest case file to load, in bytes (`--max-case-mb`); @default DEFAULT_MAX_CASE_BYTES of src/record/corpus.ts. */
  maxCaseBytes?: number;
  /** The command line, for the report header. */
  command?: string;
  /** The command that runs one case alone (default `npx routecert run --case <id>`). */
  replay?: (id: string) => string;
  /** The corpus, when the caller already loaded `casesDir` (the CLI does, to check its filters). */
  corpus?: Awaited<ReturnType<typeof loadCorpus>>;
  /** Keep answer values and long strings whole in what reporters get (`run --full-values`); @default false (bounded, src/report/bound.ts). */
  fullValues?: boolean;
}

/**
 * Call one hook of every reporter; a reporter that throws is that reporter's fault (recorded in
 * `faults`, said on stderr), never the others': they are still called.
 */
async function eachReporter(reporters: readonly Reporter[], faults: RunFault[], call: (r: Reporter) => void | Promise<void> | undefined): Promise<Set<Reporter>> {
  const failed = new Set<Reporter>();
  for (const r of reporters) {
    try {
      await call(r);
    } catch (error) {
      reporterFault(r, faults, error);
      failed.add(r);
    }
  }
  return failed;
}

/** Whether `r` says its `onRunEnd` writes whole files from the report (src/report/reporter.ts `rewrites`); false when reading it fails. */
function rewrites(r: Reporter): boolean {
  try {
    return r.rewrites === true;
  } catch {
    return false;
  }
}

/**
 * Call `onRunEnd` of every reporter so that every reporter fault reaches every report that can
 * still name it: the reporters that write whole files from the report (`rewrites`: json, junit,
 * markdown, html) are called after the others, each with the faults known by then
 * (`reportWith()`); when one of them fails, those called before it are called again with its
 * fault. A reporter that failed is not called again.
 */
async function endReporters(reporters: readonly Reporter[], faults: RunFault[], reportWith: () => Promise<RunReport>): Promise<void> {
  const ordered = [...reporters.filter((r) => !rewrites(r)), ...reporters.filter((r) => rewrites(r))];
  const handed = new Map<Reporter, number>();
  const failed = new Set<Reporter>();
  const end = async (list: readonly Reporter[]): Promise<void> => {
    for (const r of list) {
      const shown = await reportWith();
      handed.set(r, shown.faults.length);
      for (const f of await eachReporter([r], faults, (x) => x.onRunEnd?.(shown))) failed.add(f);
    }
  };
  await end(ordered);
  // Each round adds a fault or ends: at most one round per reporter.
  for (let round = 0; round < ordered.length; round += 1) {
    const stale = ordered.filter((r) => rewrites(r) && !failed.has(r) && (handed.get(r) ?? 0) < faults.length);
    if (stale.length === 0) break;
    await end(stale);
  }
}

/** Record (once) and say that reporter `r` threw `error`; never throws, whatever was thrown. */
function reporterFault(r: Reporter, faults: RunFault[], error: unknown): void {
  const message = `the ${reporterName(r)} reporter failed: ${describeThrown(error)}`;
  if (!faults.some((f) => f.kind === 'reporter' && f.message === message)) {
    faults.push({ kind: 'reporter', where: reporterName(r), message });
    process.stderr.write(redactOutput(`[routecert] ${message}; the other reporters still ran\n`));
  }
}

/** A reporter's name, or `(unnamed)` when reading it fails or gives no string. */
function reporterName(r: Reporter): string {
  try {
    return typeof r.name === 'string' && r.name !== '' ? r.name : '(unnamed)';
  } catch {
    return '(unnamed)';
  }
}

/**
 * Call `onActivity` of every reporter (a synchronous hook, called from inside the live sources): a
 * reporter that throws, or returns a promise that rejects, is that reporter's fault, never the
 * source's or the run's.
 */
function eachActivity(reporters: readonly Reporter[], faults: RunFault[], a: Activity): void {
  for (const r of reporters) {
    try {
      const returned = r.onActivity?.(a) as unknown;
      if (returned instanceof Promise) returned.catch((error: unknown) => reporterFault(r, faults, error));
    } catch (error) {
      reporterFault(r, faults, error);
    }
  }
}

/**
 * Run the corpus (and live sources) and report.
 *
 * @returns the report (also handed to every reporter's `onRunEnd`) and the exit code.
 */
export async function runConformance(options: RunOptions): Promise<{ report: RunReport; exitCode: number }> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const reporters = options.reporters ?? [];
  const filter = options.filter ?? {};
  const clis: CliStatus[] = [];
  for (const live of options.live ?? []) pushAll(clis, (await live.clis()));
  const header: RunReport['header'] = {
    tool: 'routecert',
    toolVersion: PACKAGE_VERSION,
    startedAt,
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    command: options.command ?? 'routecert run',
    corpus: options.casesDir,
    clis,
    ...(filter.shard ? { shard: filter.shard } : {}),
  };
  const cases: CaseResult[] = [];
  const faults: RunFault[] = [];
  // Each reporter gets a sealed copy (src/report/bound.ts `sealReport`): bounded and redacted once,
  // frozen, so one that changes it fails alone. A signal stops the redaction of long values.
  const seal = async <T>(value: T): Promise<T> => (await sealReport(value, { fullValues: options.fullValues ?? false, stop: () => interruption() !== null })).sealed;
  await eachReporter(reporters, faults, (r) => r.onRunStart?.(header));
  const emit = async (result: CaseResult): Promise<void> => {
    if (interruption()) return;
    const shown = await seal(result);
    // The report keeps what reporters were shown: a case is redacted once (the report sealed at the
    // end takes it as it is), and its full texts (a 200 MiB `result`) are not held to the end of the
    // run unless `--full-values` asks for them.
    cases.push(shown);
    await eachReporter(reporters, faults, (r) => r.onCaseResult?.(shown));
  };

  const corpus = options.corpus ?? (await loadCorpus(options.casesDir, { releaseAbove: RELEASE_CASE_BYTES, ...(options.maxCaseBytes === undefined ? {} : { maxBytes: options.maxCaseBytes }) }));
  for (const e of corpus.errors) faults.push({ kind: 'case-file', file: e.file, where: e.where, message: e.message });
  const contracts = new Map<string, Contract>((options.contracts ?? []).map((c) => [c.name, c]));
  const selected = corpus.cases.filter((loaded) => matchesFilter(loaded.case, filter));
  await eachReporter(reporters, faults, (r) => r.onPlanned?.('corpus', selected.length));
  for (const listed of selected) {
    if (interruption()) break;
    // A large case (released when listed, src/record/corpus.ts) is read again here, judged, and let
    // go before the next one is read: large cases never sit in memory side by side.
    const { loaded, errors } = await withAttempts(listed, options.maxCaseBytes === undefined ? {} : { maxBytes: options.maxCaseBytes });
    if (!loaded) for (const e of errors) faults.push({ kind: 'case-file', file: e.file, where: e.where, message: e.message });
    else await emit(await runCase(loaded, { contracts, ...(options.decoders ? { decoders: options.decoders } : {}), ...(options.replay ? { replay: options.replay } : {}) }));
    if (listed.released) releaseMemory();
  }
  // The live sources run side by side, not one after another (issue 24): the scenario probes and the
  // startup table ask one shared pool of CLI runs (src/probe/pool.ts), so the cores stay busy to the
  // last CLI run, and the certification's runs, which mostly wait out a worker's windows, overlap
  // them. Their results are reported one at a time; their faults are listed in source order.
  let turn = Promise.resolve();
  const emitInTurn = (result: CaseResult): Promise<void> => {
    const next = turn.then(() => emit(result));
    turn = next.catch(() => undefined);
    return next;
  };
  const activity = (a: Activity): void => eachActivity(reporters, faults, a);
  const ranFaults = interruption()
    ? []
    : await Promise.all(
        (options.live ?? []).map(async (live, i): Promise<RunFault[]> => {
          const planned = (count: number) => {
            void eachReporter(reporters, faults, (r) => r.onPlanned?.(`live-${i}`, count));
          };
          try {
            // An interruption stops waiting: the source's processes are reaped by the signal handler.
            return await Promise.race([live.run(emitInTurn, filter, planned, activity), whenInterrupted().then(() => [] as RunFault[])]);
          } catch (error) {
            return [{ kind: 'internal', message: `a live source failed: ${(error as Error).message}` }];
          }
        }),
      );
  await turn;
  for (const ran of ranFaults) pushAll(faults, ran);

  const sections = (interruption() ? {} : Object.assign({}, ...(options.live ?? []).map((live) => live.sections?.() ?? {}))) as Partial<Pick<RunReport, 'startupProbes' | 'versions'>>;
  const finishedAt = new Date().toISOString();
  const durationMs = Math.round(performance.now() - started);
  /** The report as it stands: the faults known now, and the signal if one came (also while the report is sealed). */
  const reportNow = (): RunReport => {
    const stoppedBy = interruption();
    const reporterFailed = faults.some((f) => f.kind === 'reporter');
    const exitCode = stoppedBy ? signalExitCode(stoppedBy) : reporterFailed ? Math.max(exitCodeFor(cases, faults), 3) : exitCodeFor(cases, faults);
    return {
      reportVersion: REPORT_VERSION,
      header,
      cases,
      faults: [...faults],
      summary: summarise(cases, faults),
      ...sections,
      // A partial report: the run was stopped by a signal; the cases above are those judged before it.
      footer: { finishedAt, durationMs, exitCode, ...(stoppedBy ? { interrupted: stoppedBy } : {}) },
    };
  };
  // What the reporters are handed, sealed again only when a fault or a signal came since (the cases
  // are sealed already: sealing the report again redacts its header and faults only).
  let shown: RunReport | null = null;
  const shownNow = async (): Promise<RunReport> => {
    const current = reportNow();
    if (shown === null || shown.faults.length !== current.faults.length || shown.footer.interrupted !== current.footer.interrupted) {
      shown = await seal(current);
      // A signal that came while the report was sealed: seal it again, marked interrupted.
      if (interruption() && !shown.footer.interrupted) shown = await seal(reportNow());
    }
    return shown;
  };
  await endReporters(reporters, faults, shownNow);
  const report = reportNow();
  return { report, exitCode: report.footer.exitCode };
}

/** Counts by outcome and verdict. */
export function summarise(cases: CaseResult[], faults: RunFault[]): RunSummary {
  const byVerdict: Record<string, number> = {};
  for (const c of cases) if (c.verdict) byVerdict[c.verdict.verdict] = (byVerdict[c.verdict.verdict] ?? 0) + 1;
  return {
    total: cases.length,
    pass: cases.filter((c) => c.outcome === 'pass').length,
    fail: cases.filter((c) => c.outcome === 'fail').length,
    error: cases.filter((c) => c.outcome === 'error').length,
    skip: cases.filter((c) => c.outcome === 'skip').length,
    byVerdict,
    faults: faults.length,
  };
}

/**
 * 3 for probe/mock faults or probe errors, or a worker route whose certification could not run or
 * whose adapter is broken; else 2 for case-file faults or case errors; else 1 for failures or a
 * worker route not certified; else 0. A certification's route status is the engine's (each result's
 * `certificate`), so `run` exits as `routecert certify` does on the same worker: a route that could
 * not run (no corpus case to smoke it) was exit 0 in `run`, its checks all skipped, and exit 3 in `certify`.
 */
export function exitCodeFor(cases: CaseResult[], faults: RunFault[]): number {
  const route = (status: NonNullable<CaseResult['certificate']>['status']) => cases.some((c) => c.certificate?.status === status);
  if (faults.some((f) => f.kind === 'probe' || f.kind === 'mock' || f.kind === 'internal' || f.kind === 'reporter') || cases.some((c) => c.outcome === 'error' && c.caught === 'probe')) return 3;
  if (route('could-not-run') || route('adapter-broken')) return 3;
  if (faults.some((f) => f.kind === 'case-file') || cases.some((c) => c.outcome === 'error')) return 2;
  if (cases.some((c) => c.outcome === 'fail') || route('not-certified')) return 1;
  return 0;
}
