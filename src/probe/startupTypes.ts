/**
 * The startup table as `report.json` carries it (`startupProbes`): which schemas each installed
 * schema-flag CLI takes, by version, next to what its lint profile predicts. The data shapes only;
 * src/probe/startup.ts runs the probes and fills them, reporters read them.
 */
import type { Milliseconds } from '#src/envelope/types.ts';

/** A canary group: the kind of keyword a canary schema carries (src/probe/canaries.ts). */
export type CanaryGroup = 'baseline' | 'custom-keyword' | 'standard-annotation' | 'draft-keyword';

/** What a startup probe showed. */
export type StartupOutcome = 'accepted' | 'rejected' | 'fault';

/** Who refused: the CLI before calling the model (`startup`), or the provider mock (`provider`). */
export type StartupStage = 'startup' | 'provider';

/**
 * What the CLI's lint profile predicts: `rejected` (an error finding), `accepted` (no finding at
 * all), `unknown` (warnings only: the profile does not know; no agreement is claimed either way).
 */
export type StartupExpectation = 'accepted' | 'rejected' | 'unknown';

/** The kind of a table row: a production schema, a canary group, or a schema under one output format. */
export type StartupRowKind = 'production' | CanaryGroup | 'output-format';

/**
 * What one startup probe showed.
 *
 * - `outcome`, `stage`: see the module comment; `stage` is `null` unless rejected.
 * - `message`: the CLI's or provider's refusal, or the fault, as one line without ANSI colours
 *   (at most 400 characters, src/probe/startup.ts `STARTUP_MESSAGE_LIMIT_CHARS`); `null` when accepted.
 * - `exitCode`: the CLI's exit code (`null`: killed or never ran).
 * - `requests`: how many requests reached the provider mock.
 * - `elapsedMs`: spawn to exit, in ms.
 */
export interface StartupObservation {
  outcome: StartupOutcome;
  stage: StartupStage | null;
  message: string | null;
  exitCode: number | null;
  requests: number;
  elapsedMs: Milliseconds;
}

/**
 * One cell: one CLI (at one version, on one route) and one row.
 *
 * - the {@link StartupObservation} fields;
 * - `expected`, `because`: from src/probe/startup.ts `lintExpectation` with the CLI's `profile`;
 * - `agrees`: observation and expectation agree (`null` when the expectation is `unknown` or the
 *   probe was a fault);
 * - `listed`: production rows only: `profiles.json` sends this schema to this CLI's profile. A listed
 *   schema that is rejected is a broken production route.
 */
export interface StartupCell extends StartupObservation {
  cli: string;
  version: string | null;
  route: string;
  profile: string | null;
  expected: StartupExpectation;
  because: string[];
  agrees: boolean | null;
  listed?: boolean;
}

/** A row of the table: its subject's description (without schema and payload) and one cell per CLI that ran it. */
export interface StartupRow {
  id: string;
  kind: StartupRowKind;
  label: string;
  keyword: string;
  pointer: string;
  format: string | null;
  cells: StartupCell[];
}

/**
 * A column of the table: a CLI as found. `installed: false` columns have no cells (`note` says how
 * to install).
 */
export interface StartupColumn {
  cli: string;
  version: string | null;
  installed: boolean;
  profile: string | null;
  routes: string[];
  note: string;
}

/**
 * Counts over every cell: `cells`, `accepted`, `rejected`, `faults`; `disagreements`: cells whose
 * outcome contradicts the lint profile; `listedRejected`: production schemas rejected by a CLI that
 * profiles.json sends them to.
 */
export interface StartupSummary {
  cells: number;
  accepted: number;
  rejected: number;
  faults: number;
  disagreements: number;
  listedRejected: number;
}

/**
 * The startup table: keyword (row) x CLI version (column) -> accepted / rejected with the CLI's
 * message. `durationMs`: wall time of the whole table. This is `report.json`'s `startupProbes`.
 */
export interface StartupTable {
  columns: StartupColumn[];
  rows: StartupRow[];
  summary: StartupSummary;
  durationMs: Milliseconds;
}
