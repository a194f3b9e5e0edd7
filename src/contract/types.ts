/**
 * Verdicts: named outcome categories, never a bare boolean (DESIGN.md "Words": verdict).
 * Each arm carries its evidence lines and only its own fields (STYLE.md item 4).
 */
import type { Candidate, Decoded, DecodeOptions } from '#src/envelope/types.ts';
import type { UsageLedgerState, UsageTotals } from '#src/policy/usage.ts';
import type { ReviewKind } from './footerResults.ts';
import { VERDICTS, type VerdictName } from '#src/verdicts.ts';

export { VERDICTS, type VerdictName };

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

/**
 * A contract, as a team writes it in routecert.config.ts (`contracts: [defineContract({...})]`) or in
 * a JSON config of the same shape.
 *
 * - `name`: what a case's `contract` names;
 * - `schema`: the team's production schema: a path (relative to the config file; resolved by the
 *   config loader, else against the working folder) or the schema itself;
 * - `anchor`: a key (`position`) or a JSON Pointer (`/result/findings`) a candidate must bear;
 * - `finality`: `{ key }`: final only when `value[key] === true` (missing or not a boolean: not final,
 *   fail closed); `'none'`: schema-valid is settled;
 * - `selection`: `score` (pov) or `last-shaped` (findings), see the module doc;
 * - `emptyIsAnswer`: an empty-but-present anchor array is a legitimate "found nothing"; @default false;
 * - `retry`: the one retry after a non-final answer (pov): the route's hard window and the least time
 *   that must remain for it (ms), and the paragraph appended to the prompt;
 * - `corrections`: in-session corrections of a wrong reply (role-output): at most `budget`, each
 *   sending `message` (@default: what was wrong, then the schema restated);
 * - `textFallback`: may an answer found in free text be accepted (`any`), only a fenced one
 *   (`fenced`), or none (`off`); @default `any`. It governs every free-text channel alike: a
 *   `result`, `text` or `response` string, assistant text, a last-message file, stdout and stderr;
 *   the route's structured field (and a tool call's input, the same answer in stream form) is the
 *   only channel that is not free text ({@link inFreeText}). An answer found with no envelope
 *   recognised (stdout, stderr) also says `fromText: true` on the accepted verdict;
 * - `clip`: evidence clip policy: keep the first `head` and last `tail` characters of a long line
 *   (UTF-16 code units, never splitting a code point); @default `{ head: 147, tail: 147 }` (ce-pov's
 *   bounded_failure_evidence, PR #1175);
 * - `extensions`: the knobs some presets need, as data (see {@link ContractExtensions});
 * - `clis`: the CLIs the team sends this schema to, by routecert's names (`claude`, `codex`, `qwen`,
 *   `gemini`, `opencode`, `copilot`, `pi`, `grok-cli`; `routecert probe --list`): `lint --config`
 *   checks the schema against their profiles and `probe --startup --config` fails when one of them
 *   rejects it; @default every CLI that takes a schema flag (claude, codex, qwen);
 * - `description`: one sentence for reports.
 */
export interface ContractDefinition {
  name: string;
  schema: string | object;
  anchor: string;
  finality: { key: string } | 'none';
  selection: 'score' | 'last-shaped';
  emptyIsAnswer?: boolean;
  retry?: { hardWindowMs: number; retryMinMs: number; paragraph: string };
  corrections?: { budget: number; message?: string };
  textFallback?: 'any' | 'fenced' | 'off';
  clip?: { head: number; tail: number };
  extensions?: ContractExtensions;
  clis?: string[];
  description?: string;
}

/**
 * Optional knobs, each documented where it applies:
 * - `codec`: read the reply (decoded structured field or answer text) with a codec instead of
 *   selecting among candidates: `json-object` (one JSON object; prose, scalar or array, schema echo,
 *   missing required, schema-invalid are named wrong shapes), `event` (tolerant parser tiers
 *   strict-json, embedded-block, raw-fallback; a kind outside `allowedKinds` is a problem; a raw
 *   fallback never certifies), `markdown-footer` (the last line is `## Result: <WORD>`), see ./codecs.ts;
 * - `publishDefaults`: top-level members filled in when missing before validation (findings' publish
 *   normalization, ce-plugin.md 1.6);
 * - `checks`: checks the schema cannot express, run on a schema-valid answer; a failing one is
 *   `dropped-unusable`, never corrected. `commits`: every `commit <sha>` named must resolve to one of these;
 * - `exhausted`: the verdict when the correction budget is spent; @default `invalid_structured_output`;
 * - `usageLedger`: sum token usage over the turns of a case; every verdict carries `usage`;
 * - `hardWindowMs`: the window a correction's `remainingMs` is reported against (ms); @default
 *   `retry.hardWindowMs`, else 600,000.
 */
export interface ContractExtensions {
  codec?: ReplyCodec;
  publishDefaults?: Record<string, unknown>;
  checks?: { commits?: string[] };
  exhausted?: 'invalid_structured_output' | 'dropped-unusable';
  usageLedger?: boolean;
  hardWindowMs?: number;
}

/** A definition with every default filled in and the schema resolved (what `Contract.definition` keeps). */
export interface NormalizedContractDefinition {
  name: string;
  /** The schema itself, and the file it came from when it came from one (absolute path). */
  schema: Record<string, unknown>;
  schemaFile: string | null;
  anchor: string;
  /** The anchor as a JSON Pointer (`position` -> `/position`). */
  anchorPointer: string;
  finality: { key: string } | 'none';
  selection: 'score' | 'last-shaped';
  emptyIsAnswer: boolean;
  retry: { hardWindowMs: number; retryMinMs: number; paragraph: string } | null;
  corrections: { budget: number; message: string | null } | null;
  textFallback: 'any' | 'fenced' | 'off';
  clip: { head: number; tail: number };
  extensions: ContractExtensions;
  /** As given; `null` when the definition does not say (every schema-flag CLI). */
  clis: string[] | null;
  description: string;
}

/** What a contract built by {@link defineContract} offers besides {@link Contract}. */
export interface DefinedContract extends Contract {
  /** The definition as given (a config loader rebuilds the contract from it against the config file's folder). */
  source: ContractDefinition;
  definition: NormalizedContractDefinition;
  /** The decoder options this contract asks for (the anchor's first key; free text for last-shaped). */
  decodeOptions: DecodeOptions;
  /** The reading of one attempt before the rules on finality, retry and corrections (for suites and certify). */
  read(decoded: Decoded, attempt?: number): Reading;
  /** The current session as plain data (usage ledger, shapes of each turn). */
  save(): ContractSessionState;
  /** Continue a saved session: the next attempt 0 does not start a new one; counted turns are not counted again. */
  resume(state: ContractSessionState): void;
}

/** A session between turns: the usage ledger and the shape of each turn's reply. */
export interface ContractSessionState {
  ledger: UsageLedgerState;
  shapes: string[];
}

/**
 * One attempt's reply as read, before the rules:
 * - `answer`: a schema-valid value (finality aside); `final` is `null` with finality `none`;
 *   `accepted` is the evidence line if it is accepted; `fromText` when it came from free text only;
 * - `miss`: no usable answer: `shape` names it (`no-candidate`, `not-shaped`, `schema-invalid`,
 *   `empty`, a codec's shape), `why` are the evidence lines of a drop, `detail` one sentence for a
 *   correction; `reason` / `addendum` / `named` when the codec words the correction itself;
 *   `correctable: false` when no correction can help (nothing was said at all).
 */
export type Reading =
  | {
      kind: 'answer';
      value: unknown;
      origin: string;
      fenced: boolean;
      fromText: boolean;
      final: boolean | null;
      score: number;
      accepted: string[];
      tier?: ParseTier;
    }
  | {
      kind: 'miss';
      shape: string;
      detail: string;
      why: string[];
      problems: string[];
      tier?: ParseTier;
      reason?: string;
      addendum?: string;
      named?: string;
      correctable?: false;
    };

/** A reply codec, as a definition names it (see the module doc). */
export type ReplyCodec =
  | { kind: 'json-object' }
  | { kind: 'event'; allowedKinds: string[]; fallbackKind?: string; maxRetries?: number }
  | { kind: 'markdown-footer'; review: ReviewKind };
