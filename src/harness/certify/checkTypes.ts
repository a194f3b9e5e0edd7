/**
 * The types of a certificate's checks (./checks.ts holds the checks themselves), alone so that the
 * modules that define checks (./argvChecks.ts, ./failureChecks.ts, ./consumer.ts) import no module
 * that imports them.
 */
import type { VerdictName } from '#src/contract/types.ts';
import type { LoadedCase } from '#src/record/corpus.ts';
import type { ShimAttempt } from '#src/harness/shim/plan.ts';
import type { RunObservation, RunWindows } from './execute.ts';
import type { CertifyRoute } from './routes.ts';
import type { CertifiedRules } from './rules.ts';

/** What every check can read: the route, the corpus, the schema and prompt sent, and routecert's own judgement. */
export interface CheckEnv {
  route: CertifyRoute;
  cases: readonly LoadedCase[];
  schema: Record<string, unknown>;
  prompt: string;
  marker: string;
  /** How the worker declares it hands the schema to the CLI on this route (`worker.schemaChannel`): the route's flag, or the prompt. */
  schemaChannel: 'flag' | 'prompt';
  /** The adapter declares an idle-window variable (the worker claims idle detection). */
  adapterHasIdle: boolean;
  /** The worker runs in routecert's process (`worker.run`): it is aborted, never signalled. */
  inProcess?: boolean;
  /** The position of the non-final answer in attempt `index` of `c`, as routecert's pov contract reads it. */
  nonfinalPosition(c: LoadedCase, index: number): string | null;
  /** The smoke cases of this route (a well-formed final; a prose-only answer), when the corpus has them. */
  smoke: { final?: LoadedCase; prose?: LoadedCase };
  /** The contract's rules the checks derive from (src/harness/certify/rules.ts). */
  rules: CertifiedRules;
  /** The contract's anchor key. */
  anchor: string;
  /** Compare the artifact with the whole answer (`worker.artifact.strict`), not only the schema's properties. */
  strict: boolean;
  /** Members left out of every artifact comparison (`worker.publish.exclude`, `worker.artifact.ignore`). */
  ignore: readonly string[];
  /** The answer the contract accepts from an attempt (a derived one, too), or `undefined` when it accepts none. */
  acceptedValue(attempt: ShimAttempt): unknown;
  /** Distinct answers valid for the schema, generated from it (src/harness/certify/generated.ts), for checks whose input the corpus lacks. */
  generated: readonly Record<string, unknown>[];
  /** The project's own cases of the contract (config `cases`), as recorded; `undefined` when certifying against routecert's bundled corpus. */
  recorded?: readonly LoadedCase[];
}

/** One run a check needs. `data` is for the check's own judge. */
export interface PlannedRun {
  label: string;
  attempts: ShimAttempt[];
  cases: LoadedCase[];
  windows?: Partial<RunWindows>;
  /** ms after the worker's first CLI call at which routecert kills it; @default hard window + `OUTER_GRACE_MS` (./checks.ts). */
  outerDeadlineMs?: number;
  data?: Record<string, unknown>;
}

/** The plan of a check: its runs, or why it is skipped. */
export type CheckPlan = { runs: PlannedRun[] } | { skip: string };

/**
 * A check's judgement: pass or fail, with the evidence either way; `skip` instead when what the
 * check judges never happened (e.g. no retry to judge) and another check says why.
 */
export interface CheckJudgement {
  pass: boolean;
  evidence: string[];
  skip?: string;
}

/** A run with what was planned and what was observed. */
export interface JudgedRun {
  planned: PlannedRun;
  observed: RunObservation;
}

/**
 * A named check.
 * - `stage`: `smoke` runs first (a failure means the adapter is broken); `check` runs next;
 *   `records` plans no run and judges the fake CLI records of every other run.
 * - `covers`: the behaviours it pins (`finality`, `deadline`, ...), so a miniature worker's expected
 *   failures can be named by behaviour.
 * - `expectedVerdict`: the pov verdict the worker should reach, for reports; `null` for argv checks.
 * - `requires`: the contract rule the check exists for; returns why it does not apply to this
 *   contract (then it is skipped), or `null` (issue 10 part 4: checks derive from the contract).
 * - `reads`: the checks whose runs a `records` check judges (`retry-paragraph` reads the retry
 *   `retry-once` plans): choosing the check alone (`--check`) runs them too, so it is judged, not skipped;
 * - `judge` gets its own runs and, as `all`, every run of the route so far (records checks).
 */
export interface CheckDefinition {
  id: string;
  title: string;
  stage: 'smoke' | 'check' | 'records';
  covers: readonly string[];
  expectedVerdict: VerdictName | null;
  reads?: readonly string[];
  requires?(rules: CertifiedRules): string | null;
  plan(env: CheckEnv): CheckPlan;
  judge(runs: JudgedRun[], env: CheckEnv, all: readonly JudgedRun[]): CheckJudgement;
}
