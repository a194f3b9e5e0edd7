/**
 * Shapes of generated envelopes: a plan (what was put where), the envelope rendered from it, and the
 * verdict the plan implies. The plan is plain data, so a metamorphic property can change one thing
 * (a key spelling, an inserted placeholder, a removed `final`) and render again; the expected verdict
 * always comes from the plan, never from running routecert.
 */
import type { VerdictName } from '#src/contract/types.ts';
import type { Envelope } from '#src/envelope/types.ts';

/**
 * How an answer stands against the pov contract (DESIGN.md "Contracts in the mission" item 1):
 * - `final`: schema-valid and `final: true` (score 2);
 * - `placeholder`: schema-valid and `final: false` (score 1);
 * - `missing`: schema-valid apart from a missing `final` (score 1: fail closed);
 * - `non-boolean`: schema-valid apart from a non-boolean `final` such as `"true"` (score 1);
 * - `unshaped`: bears `position` but breaks the schema elsewhere (score 0), whatever its `final`.
 */
export type Finality = 'final' | 'placeholder' | 'missing' | 'non-boolean' | 'unshaped';

/** The finality values in {@link Finality} order. */
export const FINALITIES: readonly Finality[] = ['final', 'placeholder', 'missing', 'non-boolean', 'unshaped'];

/** One answer object: `value` is what `JSON.parse` of its rendered text gives back. */
export interface PovAnswer {
  value: Record<string, unknown>;
  finality: Finality;
}

/**
 * How an answer sits in a text:
 * - `bare`: the JSON text itself;
 * - `fenced`: inside a ```` ```json ```` Markdown fence; `fenced-plain`: inside a bare ```` ``` ```` fence;
 * - `nested-string`: as a JSON string inside a small wrapper object (`{"content":"{\"voice\":...}"}`).
 */
export type AnswerWrap = 'bare' | 'fenced' | 'fenced-plain' | 'nested-string';

/**
 * How an answer's JSON is written. None of these change what it parses to.
 * - `pretty`: indented over several lines (else compact);
 * - `escapeUnicode`: every character above U+007E written as `\uXXXX`, and `/` as `\/`;
 * - `duplicateKeys`: each member preceded by a decoy member with the same key and another value
 *   (`JSON.parse` keeps the last, so the decoy never counts);
 * - `wrap`: see {@link AnswerWrap}.
 */
export interface AnswerStyle {
  pretty: boolean;
  escapeUnicode: boolean;
  duplicateKeys: boolean;
  wrap: AnswerWrap;
}

/** Whitespace (or none) written before a piece of text. */
export type Separator = '' | ' ' | '\n' | '\r\n' | '\n\n' | '\t';

/**
 * One piece of a text: an answer, prose (never holds a JSON object), or noise JSON that never bears
 * the anchor key (`{"step":1}`, `[1,2]`, deep nesting).
 */
export type TextPiece =
  | { kind: 'answer'; answer: PovAnswer; style: AnswerStyle }
  | { kind: 'prose'; text: string }
  | { kind: 'noise'; json: string };

/** A text (a `result`/`text` string field, or free-text stdout): each piece after its separator. */
export interface TextPlan {
  pieces: { sep: Separator; piece: TextPiece }[];
}

/**
 * The structured field of a terminal object: its key as spelled, the answer, and whether the CLI
 * wrote it as a JSON string instead of an object.
 */
export interface StructuredSlot {
  key: string;
  answer: PovAnswer;
  style: Pick<AnswerStyle, 'escapeUnicode' | 'duplicateKeys'>;
  asString: boolean;
}

/**
 * A failure the terminal object reports:
 * - `provider-error`: the provider API answered an error (`api_error_status`, grok's `error.code`);
 * - `cli-error`: the CLI's own failure (`error_max_structured_output_retries`, grok's `structuredOutputError`).
 */
export type TerminalFailure =
  | { kind: 'provider-error'; status: number; message: string }
  | { kind: 'cli-error'; message: string };

/**
 * The process around stdout. `stderr` is the whole stderr (for a startup rejection: the CLI's message,
 * then any further text). `elapsedMs` is the wall time of the attempt; with the pov policy's 600 s
 * window and 60 s retry minimum, more than 540,000 ms leaves no time to retry.
 */
export interface ProcessPlan {
  stderr: string;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  elapsedMs: number;
  /** stdout starts with a byte order mark. */
  bom: boolean;
  /** Line end of stdout (JSONL events, pretty JSON). */
  lineEnd: '\n' | '\r\n';
  trailingNewline: boolean;
}

/** `claude -p --output-format json`: one result object, or nothing at all (startup rejection). */
export interface ClaudeJsonPlan {
  family: 'claude-code/json';
  process: ProcessPlan;
  /** `startup-rejected`: empty stdout, the CLI's refusal on stderr, exit 1. */
  body: 'result' | 'startup-rejected' | 'empty';
  structured: StructuredSlot | null;
  structuredFirst: boolean;
  result: TextPlan;
  failure: TerminalFailure | null;
  /** Depth of a nested noise field in the result object (0 = none). */
  deepNoise: number;
}

/** One JSONL line of a Claude Code stream before the result line. */
export type ClaudeStreamEvent =
  | { kind: 'system' }
  | { kind: 'assistant-text'; text: TextPlan }
  | { kind: 'tool-use'; name: string; answer: PovAnswer; style: Pick<AnswerStyle, 'escapeUnicode' | 'duplicateKeys'> }
  | { kind: 'tool-result' }
  | { kind: 'prose-line'; text: string }
  | { kind: 'blank' };

/** `claude -p --output-format stream-json --verbose`: JSONL events ending with a result line. */
export interface ClaudeStreamPlan {
  family: 'claude-code/stream-json';
  process: ProcessPlan;
  body: 'events' | 'startup-rejected';
  events: ClaudeStreamEvent[];
  /** `present`: the result line is written; `cut`: written up to `cutAt` of its length (pipe truncation); `absent`: the stream ends before it. */
  resultLine: 'present' | 'cut' | 'absent';
  /** Fraction (0..1, exclusive) of the result line kept when `resultLine` is `cut`. */
  cutAt: number;
  structured: StructuredSlot | null;
  structuredFirst: boolean;
  result: TextPlan;
  failure: TerminalFailure | null;
  deepNoise: number;
}

/** xAI grok `--json-schema` (documented): one JSON object with `text` and camelCase `structuredOutput`. */
export interface GrokJsonPlan {
  family: 'grok/json';
  process: ProcessPlan;
  /** `empty`: no stdout at all. */
  body: 'object' | 'empty';
  /** The text field's key: `text` (grok), or `result` / `response`. */
  textKey: string;
  text: TextPlan;
  structured: StructuredSlot | null;
  /** `structuredOutputError` (a cli-error) or an HTTP error body (`{"error":{"code":402,...}}`). */
  failure: TerminalFailure | null;
  pretty: boolean;
}

/** cursor-agent `--output-format stream-json` (documented): JSONL, the answer in the result line's `result`. */
export interface CursorStreamPlan {
  family: 'cursor-agent/stream-json';
  process: ProcessPlan;
  body: 'events' | 'no-output';
  /** How many assistant events stream the result text before the result line (they are not read). */
  chunks: number;
  result: TextPlan;
  structured: StructuredSlot | null;
  failure: TerminalFailure | null;
}

/** Any CLI that prints free text (route `generic`): prose, fences, concatenated JSON. */
export interface FreeTextPlan {
  family: 'generic';
  process: ProcessPlan;
  text: TextPlan;
  /**
   * When true (the default of the builders), a stdout line that would parse as a JSON object on its
   * own gets a prose prefix. The generic decoder reads such a line as an envelope, not as an answer
   * (see the issue 6 report); false generates those lines too.
   */
  guardJsonLines: boolean;
}

/** Every family's plan; `family` is also the route the envelope is judged on. */
export type EnvelopePlan = ClaudeJsonPlan | ClaudeStreamPlan | GrokJsonPlan | CursorStreamPlan | FreeTextPlan;

/** The route families routecert generates envelopes for. */
export type RouteFamily = EnvelopePlan['family'];

/** The route families, in a stable order. */
export const ROUTE_FAMILIES: readonly RouteFamily[] = [
  'claude-code/json',
  'claude-code/stream-json',
  'grok/json',
  'cursor-agent/stream-json',
  'generic',
];

/**
 * The verdict a plan implies under the pov contract with its default policy, on the first attempt.
 * `value` is set for `accepted` (the final answer as it parses).
 */
export interface Expected {
  verdict: VerdictName;
  value?: Record<string, unknown>;
}

/**
 * Constraints shared by the envelope builders. All optional.
 */
export interface EnvelopeConstraints {
  /**
   * What the envelope must hold:
   * - `final`: a final answer (somewhere the route reads it, or only somewhere it does not: then the truth says so);
   * - `no-final`: answers, none final;
   * - `failing`: no shaped answer, and a failure (API error, crash, signal, timeout, startup rejection, prose only);
   * - `any`: one of the three.
   * @defaultValue 'any'
   */
  outcome?: 'any' | 'final' | 'no-final' | 'failing';
  /**
   * Most answers in one envelope.
   * @defaultValue 3
   */
  maxAnswers?: number;
  /**
   * Whether an answer sits in the structured field (routes that have one): `always` puts the first
   * answer there.
   * @defaultValue 'any'
   */
  structured?: 'any' | 'always' | 'never';
  /**
   * Strings in answers: `unicode` (any code point, escapes, braces) or `ascii`.
   * @defaultValue 'unicode'
   */
  text?: 'ascii' | 'unicode';
  /**
   * Deepest nesting of noise JSON (in texts and in result objects).
   * @defaultValue 32
   */
  maxDepth?: number;
  /**
   * Free text only (route `generic`): see {@link FreeTextPlan.guardJsonLines}.
   * @defaultValue true
   */
  guardJsonLines?: boolean;
}

/** A generated envelope with its ground truth: `route`, the `plan` it was rendered from, the `envelope`, the `expected` verdict. */
export interface GeneratedEnvelope {
  route: RouteFamily;
  plan: EnvelopePlan;
  envelope: Envelope;
  expected: Expected;
}
