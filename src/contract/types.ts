/**
 * Verdicts: named outcome categories, never a bare boolean (DESIGN.md "Words": verdict).
 * Each arm carries its evidence lines and only its own fields (STYLE.md item 4).
 */
import type { Candidate, Decoded, Envelope } from '#src/envelope/types.ts';

/** The verdict names, in the order reports list them. */
export const VERDICTS = [
  'accepted',
  'retry',
  'dropped-nonfinal',
  'dropped-unusable',
  'startup-rejected',
  'provider-error',
  'timeout',
  'crashed',
] as const;

/** One of {@link VERDICTS}. */
export type VerdictName = (typeof VERDICTS)[number];

interface VerdictBase {
  /** Bounded, human-readable lines that justify the verdict (see src/diagnostics). */
  evidence: string[];
  /** 0-based index of the attempt this verdict was reached on. */
  attempt: number;
}

/** A candidate met the contract: `value` is what the consumer publishes. */
export interface AcceptedVerdict extends VerdictBase {
  verdict: 'accepted';
  origin: Candidate['origin'];
  value: unknown;
  /** Contract score of the chosen candidate (pov: 2). */
  score: number;
}

/**
 * The answer is not usable yet and the policy allows one more attempt on the same route:
 * `reason` names why, `addendum` is the paragraph appended to the prompt.
 */
export interface RetryVerdict extends VerdictBase {
  verdict: 'retry';
  reason: string;
  addendum: string;
  /** Time left in the hard window when the decision was taken (ms). */
  remainingMs: number;
}

/** A schema-valid answer that never became final (missing `final` is non-final: fail closed). */
export interface DroppedNonfinalVerdict extends VerdictBase {
  verdict: 'dropped-nonfinal';
  /** The non-final candidate that was dropped. */
  value: unknown;
}

/** The CLI ran and answered, but nothing in its envelope meets the contract. */
export interface DroppedUnusableVerdict extends VerdictBase {
  verdict: 'dropped-unusable';
}

/** The CLI refused to start (e.g. it rejected the schema) before any model call. */
export interface StartupRejectedVerdict extends VerdictBase {
  verdict: 'startup-rejected';
  /** The CLI's own message, verbatim. */
  message: string;
}

/** The provider API answered an error (HTTP status when known). */
export interface ProviderErrorVerdict extends VerdictBase {
  verdict: 'provider-error';
  status: number | null;
}

/** The run outlived its deadline and was ended; whatever it printed is discarded. */
export interface TimeoutVerdict extends VerdictBase {
  verdict: 'timeout';
}

/** The process died without an envelope (signal, or a non-zero exit with nothing readable). */
export interface CrashedVerdict extends VerdictBase {
  verdict: 'crashed';
  exitCode: number | null;
  signal: string | null;
}

/** Tagged union of every verdict; switch on `verdict`. */
export type Verdict =
  | AcceptedVerdict
  | RetryVerdict
  | DroppedNonfinalVerdict
  | DroppedUnusableVerdict
  | StartupRejectedVerdict
  | ProviderErrorVerdict
  | TimeoutVerdict
  | CrashedVerdict;

/**
 * What every contract offers the runner: its name, the anchor key that makes an object a candidate,
 * and `judge`, which turns one attempt's envelope into a verdict without throwing.
 * `context.attempt` is 0-based; `context.elapsedMs` is the time spent on the route so far (ms).
 */
export interface Contract {
  name: string;
  anchor: string;
  judge(
    envelope: Envelope,
    decoded: Decoded,
    context: { attempt: number; elapsedMs: number },
  ): Verdict;
}
