/**
 * Verdicts: named outcome categories, never a bare boolean (DESIGN.md "Words": verdict).
 * Each arm carries its evidence lines and only its own fields (STYLE.md item 4).
 */
import type { Candidate, Decoded, DecodeOptions } from '#src/envelope/types.ts';
import type { NormalizedContractDefinition } from './define.ts';
import type { UsageTotals } from '#src/policy/usage.ts';

/** The verdict names, in the order reports list them. */
export const VERDICTS = [
  'accepted',
  'retry',
  'dropped-nonfinal',
  'dropped-unusable',
  'invalid_structured_output',
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
  /**
   * Token usage summed over every attempt (turn) of the case up to this one, each numeric field of
   * the provider's usage object deep, keyed by its dotted path (`input_tokens`,
   * `prompt_tokens_details.cached_tokens`). Set by contracts that keep a usage ledger (role-output,
   * DESIGN.md "Contracts in the mission" item 3); absent otherwise.
   */
  usage?: UsageTotals;
}

/**
 * Which tier of a tolerant parser produced a value (DESIGN.md "Contracts in the mission" item 4):
 * - `strict-json`: the whole reply (or the structured field) is one JSON object;
 * - `embedded-block`: a JSON object inside prose or a Markdown code fence;
 * - `raw-fallback`: no JSON object at all; the raw text was wrapped as an event. Flagged: it never
 *   certifies a route.
 */
export type ParseTier = 'strict-json' | 'embedded-block' | 'raw-fallback';

/** A candidate met the contract: `value` is what the consumer publishes. */
export interface AcceptedVerdict extends VerdictBase {
  verdict: 'accepted';
  origin: Candidate['origin'];
  value: unknown;
  /** Contract score of the chosen candidate (pov: 2). */
  score: number;
  /** The parser tier the value came from, for contracts with a tolerant parser (event). */
  tier?: ParseTier;
  /** Set when the value was found only in free text (no envelope recognised), which `textFallback` allowed. */
  fromText?: true;
}

/**
 * The answer is not usable yet and the policy allows one more attempt on the same route:
 * `reason` names why, `addendum` is the paragraph appended to the prompt. An in-session correction
 * (role-output) is this arm too: `reason` is `correction: <shape>` and `addendum` is the correction
 * message sent as the next turn of the same session.
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
  /** The parser tier reached, for contracts with a tolerant parser (event: `raw-fallback` is flagged here). */
  tier?: ParseTier;
}

/**
 * In-session correction gave up (role-output, DESIGN.md "Contracts in the mission" item 3): every
 * turn's reply had the wrong shape and the correction budget is spent. The name is the consumer's
 * error code, spelled as the mission spells it.
 * - `corrections`: correction messages sent before giving up (at most the budget, 2 by default);
 * - `shapes`: the shape of each turn's reply, in order (`prose`, `scalar-or-array`, `schema-echo`,
 *   `missing-required`, `schema-invalid`).
 */
export interface InvalidStructuredOutputVerdict extends VerdictBase {
  verdict: 'invalid_structured_output';
  corrections: number;
  shapes: string[];
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
  | InvalidStructuredOutputVerdict
  | StartupRejectedVerdict
  | ProviderErrorVerdict
  | TimeoutVerdict
  | CrashedVerdict;

/**
 * What every contract offers the runner: its name, the anchor key that makes an object a candidate,
 * its normalized definition (./define.ts), the options it asks of decoders, and `judge`, which turns
 * what the decoder found in one attempt into a verdict without throwing. A contract never sees the
 * envelope (issue 10 part 2). `context.attempt` is 0-based; `context.elapsedMs` is the time spent on
 * the route so far (ms).
 */
export interface Contract {
  name: string;
  /** The first key of the anchor, passed to decoders as `DecodeOptions.anchor`. */
  anchor: string;
  definition: NormalizedContractDefinition;
  decodeOptions: DecodeOptions;
  judge(decoded: Decoded, context: { attempt: number; elapsedMs: number }): Verdict;
}
