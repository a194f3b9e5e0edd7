/**
 * Envelope and candidate types: what one run of a route leaves, and the JSON values in it that
 * may be the answer. Data flows one way: envelope -> candidates -> verdict -> report.
 *
 * @see ../../README.md#words
 */

/** Milliseconds. */
export type Milliseconds = number;

/**
 * Everything one run of a route leaves (DESIGN.md "Words": envelope).
 *
 * - `stdout` / `stderr`: the process's output decoded as UTF-8 (invalid bytes become U+FFFD).
 * - `exitCode`: the process exit code, or `null` when it was ended by a signal or never started.
 * - `signal`: the signal that ended it (e.g. `SIGKILL`), when any.
 * - `timedOut`: true when the harness ended it at its deadline; its output is then never accepted.
 * - `files`: side files the route writes, by role (e.g. `"last-message"` for codex `-o`), as text.
 * - `elapsedMs`: wall time from spawn to exit.
 */
export interface Envelope {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  signal?: string | null;
  timedOut?: boolean;
  files?: Record<string, string>;
  elapsedMs: Milliseconds;
}

/**
 * Where a candidate was found. A label, stable across runs, that reports print and cases expect:
 *
 * - the structured field's key as spelled in the envelope: `structured_output`, `structuredOutput`,
 *   `StructuredOutput`, `structured-output`, `structured_result`, ...;
 * - `result` / `text` / `response`: the JSON found in that string field of the terminal object;
 * - `tool_use:<name>`: the input of a tool call in a stream event (e.g. `tool_use:StructuredOutput`);
 * - `assistant-text`: JSON inside the text of an assistant message event;
 * - `last-message`: a side file such as codex's `-o` file;
 * - `stdout`: JSON found by scanning stdout as free text (no envelope recognised);
 * - `stderr`: JSON found by scanning stderr as free text.
 */
export type Origin = string;

/**
 * A JSON value found in an envelope that may be the answer (DESIGN.md "Words": candidate).
 *
 * - `value`: the decoded JSON value (an object for every contract so far).
 * - `origin`: see {@link Origin}.
 * - `pointer`: JSON Pointer (RFC 6901) to the field inside the JSON document it came from, when it
 *   came from a JSON document (`/structured_output`, `/result`); `""` for a whole document.
 * - `event`: 0-based index of the stdout line (JSONL event) it came from, for stream routes.
 * - `offset`: byte offset (UTF-16 code unit offset into `stdout`) of the document or line it came
 *   from; always `0 <= offset <= stdout.length`.
 * - `fenced`: true when the JSON was inside a Markdown code fence.
 * - `nested`: how many JSON string layers it was unwrapped from (0 = a real JSON value).
 */
export interface Candidate {
  value: unknown;
  origin: Origin;
  pointer: string;
  event?: number;
  offset: number;
  fenced?: boolean;
  nested: number;
}

/**
 * What a decoder read off an envelope besides the candidates: the CLI's own report of failure.
 *
 * - `kind`:
 *   - `ok`: nothing says the run failed;
 *   - `startup-rejected`: the CLI refused to start (e.g. Claude Code's
 *     `--json-schema is not a valid JSON Schema: strict mode: unknown keyword: "_meta"`, exit 1);
 *   - `provider-error`: the provider API answered an error (`api_error_status`, `is_error` with
 *     `terminal_reason: "api_error"`, an error event);
 *   - `cli-error`: the CLI reported its own failure (e.g. `error_max_structured_output_retries`);
 *   - `crashed`: the process died without an envelope (signal, or non-zero exit with no JSON).
 *   A stream that ended without its terminal event, or whose last line was cut, is `crashed` too,
 *   with `incomplete` set, whatever its exit code.
 * - `message`: the CLI's own words for it, verbatim.
 * - `incomplete`: why the output is incomplete (`no terminal {"type":"result"} event`, `last line cut`);
 *   such an envelope is never accepted, whatever it holds (issue 11: every route).
 * - `apiErrorStatus`, `terminalReason`, `subtype`: as the envelope spells them, when present.
 */
export interface EnvelopeStatus {
  kind: 'ok' | 'startup-rejected' | 'provider-error' | 'cli-error' | 'crashed';
  message?: string;
  incomplete?: string;
  apiErrorStatus?: number | null;
  terminalReason?: string;
  subtype?: string;
  isError?: boolean;
}

/**
 * The reply of one envelope.
 * - `structured`: the structured field, present when the terminal object has one: `key` as spelled,
 *   `value` as decoded (object, array, string, number, boolean or `null`);
 * - `text`: the answer text and its origin (`result`, `text`, `response`, `last-message`, `stdout`);
 * - `usage`: the terminal object's `usage`, as the CLI spells it.
 * Both `structured` and `text` are absent when the envelope holds no reply (empty stdout).
 */
export interface Reply {
  structured?: { key: string; value: unknown };
  text?: { origin: string; value: string };
  usage?: unknown;
}

/**
 * How the process of one run ended, as the envelope records it (copied by the decoder so that a
 * contract never needs the envelope): `exitCode` (`null` after a signal), `signal`, `timedOut` (the
 * harness ended it at its deadline), `elapsedMs` (wall time, ms).
 */
export interface RunFacts {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  elapsedMs: Milliseconds;
}

/**
 * A decoder's reading of one envelope.
 *
 * - `candidates`: in envelope order; the structured field (if any) first.
 * - `structured`: the candidate from the route's structured field, if present (also in `candidates`).
 * - `status`: see {@link EnvelopeStatus}.
 * - `human`: the envelope's human-readable fields (`result`, `message`, `error.message`), for evidence.
 * - `ancillary`: `api_error_status=<v>`, `terminal_reason=<v>` fragments, for evidence.
 * - `usage`: the token usage object of the terminal line, as the CLI spells it.
 * - `keys`: the top-level keys of the terminal object, for drift reports.
 * - `notes`: what the decoder had to tolerate (a truncated last line, a BOM, invalid lines).
 * - `reply`: the reply as a consumer reads it (structured field raw value, answer text, usage), see
 *   {@link Reply}; `{}` when the decoder found none.
 * - `run`: how the process ended, see {@link RunFacts}.
 * - `raw`: stdout and stderr verbatim, **for evidence lines only** (clipped by the contract); no
 *   contract reads an answer from them (issue 10 part 2: contracts judge what the decoder found).
 * - `freeText`: with {@link DecodeOptions.freeText}, every object that bears the anchor found by
 *   scanning the whole of stdout as free text (nested JSON strings unwrapped), in order, origin
 *   `stdout`; absent otherwise.
 *
 * Contracts judge a `Decoded` alone (`Contract.judge(decoded, context)`).
 * - `framing`: how stdout was framed, as the decoder read it: `object` (one JSON object), `array`
 *   (one JSON array of every event), `lines` (JSONL / NDJSON), `empty`, or a route's own name for
 *   its event family (grok-cli: `messages`, `chunks`, `steps`), for notes and reports. The framings
 *   a route supports are declared in its src/routes/<cli>/route.ts.
 */
export interface Decoded {
  route: string;
  candidates: Candidate[];
  structured?: Candidate;
  status: EnvelopeStatus;
  human: string[];
  ancillary: string[];
  usage?: unknown;
  keys: string[];
  notes: string[];
  reply: Reply;
  run: RunFacts;
  raw: { stdout: string; stderr: string };
  freeText?: Candidate[];
  framing?: string;
}

/**
 * A route decoder: a plain object, built by a factory (STYLE.md item 1). Decoders never throw on
 * any input; bad input is reported in `Decoded.notes` and `status`.
 */
export interface RouteDecoder {
  /** Route id, e.g. `claude-code/json`. */
  route: string;
  /** Human-readable name printed in logs. */
  header: string;
  /** Cheap check: does this envelope look like this route's output? */
  detect(envelope: Envelope): boolean;
  /** Read every candidate and the status off the envelope. Never throws. */
  decode(envelope: Envelope, options?: DecodeOptions): Decoded;
}

/**
 * Hints a contract gives a decoder.
 * - `anchor`: only objects with this own key are candidates from free text (e.g. `position`);
 *   structured fields are always candidates. Also lets the scanner skip strings that cannot hold one.
 * - `freeText`: also scan the whole of stdout for objects that bear `anchor` (nested JSON strings
 *   included) into {@link Decoded.freeText}: a contract whose answer may be recovered from free text
 *   (findings' `recover_findings_json`) asks for it.
 */
export interface DecodeOptions {
  anchor?: string;
  freeText?: boolean;
}
