/**
 * What a run produces, as report writers read it. Writers read verdicts; they never make them.
 * `report.json` is this object serialised (schema: schemas/report.schema.json, `reportVersion` 1).
 */
import type { Verdict } from '#src/contract/types.ts';
import type { AttemptJudgement } from '#src/contract/judgeCase.ts';
import type { StartupTable } from '#src/probe/startupTypes.ts';

/** The version of report.json's shape; bumped on any incompatible change. */
export const REPORT_VERSION = 1;

/**
 * The outcome of one case:
 * - `pass`: the verdict matched the expectation;
 * - `fail`: it did not (a conformance failure: JUnit `<failure>`);
 * - `error`: the case could not be judged (a bad case file, a probe that could not run, a crash in
 *   routecert: JUnit `<error>`); `caught` says who caught it;
 * - `skip`: a known bug, with its issue link.
 */
export type CaseOutcome = 'pass' | 'fail' | 'error' | 'skip';

/** One case's result. `replay` is the command that runs this case alone. */
export interface CaseResult {
  id: string;
  file: string;
  description: string;
  route: string;
  contract: string;
  cli: { name: string; version: string };
  source: 'recorded' | 'documented' | 'issue' | 'generated' | 'probe' | 'unknown';
  scenario?: string;
  tags: string[];
  outcome: CaseOutcome;
  expected: { verdict: string; origin?: string; attempt?: number } | null;
  verdict: Verdict | null;
  attempts: AttemptJudgement[];
  /** Why the case failed, errored or was skipped; warnings for a passing case. */
  problems: string[];
  caught: 'routecert' | 'probe' | null;
  replay: string;
  durationMs: number;
  /**
   * Live probes only: how the probed envelope's shape differs from the recorded case of the same
   * route and slug, when the CLI version differs (src/harness/drift.ts). Information, never a failure.
   */
  drift?: string[];
  /**
   * Certification results only (route `certify:<route>`): the status the certification engine gave
   * the whole route (src/harness/certify/certificate.ts), and how many of its checks the run's
   * filters left out (`partial`, never `certified`, when any was).
   */
  certificate?: { status: 'certified' | 'not-certified' | 'partial' | 'adapter-broken' | 'could-not-run'; notRun: number };
}

/**
 * A problem outside any one case (a case file that does not load, a probe that could not start, a
 * reporter that failed: `where` names it).
 */
export interface RunFault {
  kind: 'case-file' | 'probe' | 'mock' | 'internal' | 'reporter';
  file?: string;
  where?: string;
  message: string;
}

/** A line about a CLI the run looked for: installed or not, and what to do. */
export interface CliStatus {
  name: string;
  installed: boolean;
  version: string | null;
  bin: string | null;
  note: string;
}

/**
 * One probed CLI version against the recorded corpus: `cli` and `version` as discovered, `bin` (a
 * candidate or the pinned install), `corpus` (the `--cases` folder, as given), `recorded` (the CLI
 * versions of the recorded cases compared), `result` (src/harness/drift.ts `VersionResult`),
 * `probes` (how many ran) and `driftLines` (how many drift lines they gave).
 */
export interface VersionStatus {
  cli: string;
  version: string | null;
  corpus: string;
  recorded: string[];
  result: string;
  probes: number;
  driftLines: number;
}

/** Counts by outcome and by verdict. */
export interface RunSummary {
  total: number;
  pass: number;
  fail: number;
  error: number;
  skip: number;
  byVerdict: Record<string, number>;
  faults: number;
}

/** The whole run. Opens with a header and closes with a footer; a report without a footer was cut short. */
export interface RunReport {
  reportVersion: typeof REPORT_VERSION;
  header: {
    tool: 'routecert';
    toolVersion: string;
    startedAt: string;
    node: string;
    platform: string;
    command: string;
    corpus: string;
    clis: CliStatus[];
    /** Set when the run was one shard (`--shard i/n`); absent in a whole or merged run. */
    shard?: { index: number; count: number };
    /** Set in a report made by `routecert merge-reports`: the shard reports it joined. */
    mergedFrom?: string[];
  };
  cases: CaseResult[];
  faults: RunFault[];
  summary: RunSummary;
  /**
   * Optional: the startup table (schema x CLI version -> accepted / rejected with the CLI's message),
   * when the run probed installed schema-flag CLIs (src/harness/startupProbes.ts).
   */
  startupProbes?: StartupTable;
  /**
   * Optional: each probed CLI version's result against the recorded corpus (`--cases`), issue 12:
   * `same`, `drifted (still conforms)`, `drifted (breaks: <cases>)` or `broken` (src/harness/drift.ts).
   */
  versions?: VersionStatus[];
  /** `interrupted`: the signal that stopped the run (a partial report; exit code 130 or 143). */
  footer: { finishedAt: string; durationMs: number; exitCode: number; interrupted?: 'SIGINT' | 'SIGTERM' };
}
