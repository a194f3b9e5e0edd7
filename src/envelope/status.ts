/**
 * Status helpers the route decoders share: reading an HTTP error status from a code or an error
 * text, the `crashed` status of a run that printed nothing readable (or `startup-rejected` when the
 * CLI's argument parser refused its command line, or the CLI refused to run in its own words with
 * no crash mark), the `crashed` status of an incomplete stream,
 * the `api_error_status=` evidence fragment, and the lost-output fragment (tokens spent, nothing
 * delivered).
 */
import { stripVTControlCharacters } from 'node:util';
import { foldKey, isPlainObject } from './keys.ts';
import type { Envelope, EnvelopeStatus } from './types.ts';

/** `text` without ANSI escape sequences (Qwen Code colours its startup errors red even on a pipe). */
export function stripAnsi(text: string): string {
  return stripVTControlCharacters(text);
}

/**
 * stderr lines by which a CLI's argument parser refuses its command line, before any request
 * (observed here with each pinned CLI given `--routecert-no-such-flag` or a bad `--output-format`):
 * - commander (Claude Code 2.1.332, grok-cli 0.0.34): `error: unknown option '--x'`,
 *   `error: option '--output-format <format>' argument 'xml' is invalid. Allowed choices are ...`;
 * - clap (Codex 0.171.0, Copilot CLI 1.0.102): `error: unexpected argument '--x' found`,
 *   `error: invalid value 'xml' for '--output-format <format>'`, `error: a value is required for ...`;
 *   a wrapper may relay the clap line without its `error: ` prefix (`unexpected argument '--agent'
 *   found`, xai-org/grok-build-plugin-cc#43), which is read the same;
 * - Copilot CLI 1.0.102: `error: Invalid command format.`;
 * - yargs (Gemini CLI 0.61.0, Qwen Code 0.24.4): `Unknown arguments: x, y`, `Invalid values:`,
 *   `Not enough arguments following: x`, `Missing required argument: x`;
 * - pi 0.73.1: `Error: Unknown option: --x`;
 * - Claude Code 2.1.332: `Error: When using --print, --output-format=stream-json requires --verbose`.
 * A schema flag refused client-side is each CLI's own wording and lives in its route decoder (Claude
 * Code's `CLAUDE_SCHEMA_REFUSED`, Qwen Code's `qwenRejectionLine`, Codex's output-schema-file lines),
 * passed here as `extra` patterns or checked before.
 */
export const ARGUMENT_REJECTION: readonly RegExp[] = [
  /^error: unknown (?:option|command) '/i,
  /^error: option '[^']*' argument '[^']*' is invalid/i,
  /^error: (?:missing required argument|too many arguments|required option|option '[^']*' missing)/i,
  /^error: (?:unexpected argument|invalid value|a value is required|the argument) /i,
  /^unexpected argument '[^']*' found/i,
  /^error: invalid command format/i,
  /^unknown arguments?: /i,
  /^invalid values:/i,
  /^not enough arguments following: /i,
  /^missing required arguments?: /i,
  /^error: unknown option: /i,
  /requires --verbose/i,
];

/**
 * The CLI's own words when its argument parser refused the command line: the first stderr line
 * (ANSI codes removed, `Error:` kept) that {@link ARGUMENT_REJECTION} or `extra` matches, with the
 * indented lines right after it (yargs puts the detail there), or `null`.
 *
 * @example
 * argumentRejectionLine("error: unknown option '--x'\n") // "error: unknown option '--x'"
 */
export function argumentRejectionLine(stderr: string, extra: readonly RegExp[] = []): string | null {
  const lines = stripAnsi(stderr).split(/\r?\n/);
  const patterns = [...extra, ...ARGUMENT_REJECTION];
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!.trim();
    if (!patterns.some((re) => re.test(line) || re.test(line.replace(/^error: /i, '')))) continue;
    const detail: string[] = [line];
    for (let j = i + 1; j < lines.length && j <= i + 3 && /^\s+\S/.test(lines[j]!); j += 1) detail.push(lines[j]!.trim());
    return detail.join(' ');
  }
  return null;
}

/**
 * Marks of a process that crashed (a bug or the OS killed it) rather than refused to run: a
 * JavaScript stack frame (`    at f (file:1:2)`), a Rust panic, a Python traceback, a V8 fatal error,
 * a segmentation fault or abort, a JavaScript runtime error name (`TypeError:` ...), an unhandled
 * rejection or uncaught exception, out of memory.
 */
const CRASH_MARKS: readonly RegExp[] = [
  /^\s+at \S/m,
  /\bpanicked at\b/,
  /^Traceback \(most recent call last\)/m,
  /\bFATAL ERROR\b|\bSegmentation fault\b|\bcore dumped\b|\bAborted\b/,
  /^(?:Uncaught )?(?:TypeError|ReferenceError|RangeError|SyntaxError|EvalError|InternalError|AssertionError)\b/m,
  /\b(?:unhandled(?: promise)? rejection|uncaught exception)\b/i,
  /\bout of memory\b/i,
];

/** A line the CLI words as its own error: `Error: ...`, `error: ...`, `fatal: ...`, `NotFoundError: ...`. */
const ERROR_LINE = /^(?:[A-Za-z]*Error|error|fatal)\s*:\s*\S/;

/** A sentence of four words or more ending in `.` or `!` (not a `...` progress line), not a warning or note. */
const SENTENCE_LINE = /^(?!(?:warn(?:ing)?|info|note|tip|hint)\b)\S+(?:\s+\S+){3,}(?<!\.\.)[.!]$/i;

/**
 * The CLI's own refusal in a run's stderr, when nothing else was printed: the first line it words
 * as an error ({@link ERROR_LINE}: Claude Code `Error: Input must be provided either through stdin or
 * as a prompt argument when using --print`, cursor-agent `Error: Authentication required. ...`, Codex
 * `Error: model_reasoning_effort: unknown variant ...`), else its last line when that is a sentence
 * (Codex exec 0.153 codex-rs/exec/src/lib.rs: `Not inside a trusted directory and
 * --skip-git-repo-check was not specified.`); `null` when stderr carries a crash mark
 * ({@link CRASH_MARKS}) or no such line (`boom`, `schema invalid`, a warning). ANSI codes removed.
 * Source of the rule: issue 21 (hcheck K5) - a CLI that refuses its own invocation is
 * `startup-rejected` whatever its words and exit code, a crash stays `crashed`.
 *
 * @example
 * refusalLine('Reading additional input from stdin...\nNot inside a trusted directory and --skip-git-repo-check was not specified.\n')
 * // 'Not inside a trusted directory and --skip-git-repo-check was not specified.'
 */
export function refusalLine(stderr: string): string | null {
  const text = stripAnsi(stderr);
  if (CRASH_MARKS.some((re) => re.test(text))) return null;
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
  const errorLine = lines.find((l) => ERROR_LINE.test(l));
  if (errorLine !== undefined) return errorLine;
  const last = lines.at(-1);
  return last !== undefined && SENTENCE_LINE.test(last) ? last : null;
}

/** Whether `code` is an HTTP error status (a number from 400 to 599). */
export function isHttpErrorStatus(code: unknown): code is number {
  return typeof code === 'number' && code >= 400 && code <= 599;
}

/**
 * The HTTP error status (400-599) that `pattern`'s first group captures in `text`, or `null`.
 *
 * @example
 * httpStatusIn('[API Error: 529 Overloaded]', /\[API Error: (\d{3})\b/) // 529
 */
export function httpStatusIn(text: string, pattern: RegExp): number | null {
  const m = pattern.exec(text);
  const status = m ? Number(m[1]) : NaN;
  return isHttpErrorStatus(status) ? status : null;
}

/** A provider error with `code` when it is an HTTP error status (400-599), else a CLI error; `message` verbatim. */
export function errorStatusFromCode(code: unknown, message: string): EnvelopeStatus {
  if (isHttpErrorStatus(code)) return { kind: 'provider-error', apiErrorStatus: code, message };
  return { kind: 'cli-error', message };
}

/**
 * The status of a run that left no envelope: `startup-rejected` with the CLI's own line when it
 * exited by itself (no signal), whatever its exit code, printed no JSON on stdout and its stderr
 * holds an argument refusal ({@link argumentRejectionLine}, `extra` first; opencode 1.14.19 exits 0
 * after `Session not found: ses_x`, anomalyco/opencode#27559); else `crashed` when it exited
 * non-zero or by a signal (with the trimmed `stderr` as the message when there is one); else `null`.
 * `stderr` @default the envelope's. Also `startup-rejected` when stdout is empty, the exit code is
 * below 128 (not a signal death) and stderr is the CLI's own refusal ({@link refusalLine}): the run
 * ended before anything was printed, with an error the CLI itself worded, not a crash. Else, when
 * it exited 0 (not timed out) with nothing on stdout, the `crashed` status of an incomplete stream
 * ({@link EMPTY_STDOUT}, {@link incompleteStatus}): an empty output is never an answer.
 * Issues 11 and 21: a CLI refusing its own invocation, one of its arguments or the schema flag is
 * `startup-rejected` on every route, whatever its exit code.
 */
export function crashedStatus(envelope: Envelope, stderr: string = envelope.stderr, extra: readonly RegExp[] = []): EnvelopeStatus | null {
  if (!envelope.signal && envelope.exitCode !== null && !envelope.stdout.includes('{')) {
    const rejection = argumentRejectionLine(stderr, extra) ?? (envelope.stdout.trim() === '' && envelope.exitCode < 128 ? refusalLine(stderr) : null);
    if (rejection !== null) return { kind: 'startup-rejected', message: rejection };
  }
  if (envelope.signal || (envelope.exitCode !== null && envelope.exitCode !== 0)) {
    const message = stripAnsi(stderr).trim();
    return message !== '' ? { kind: 'crashed', message } : { kind: 'crashed' };
  }
  if (envelope.stdout.trim() === '' && envelope.timedOut !== true) return incompleteStatus(envelope, EMPTY_STDOUT);
  return null;
}

/**
 * Why a run that exited 0 with nothing on stdout is incomplete: no envelope, no event, not even a
 * first one, so nothing says the run finished (anomalyco/opencode#31482, #20799: `opencode run
 * --format json --session <id>` exits 0 with empty stdout while the answer went to its session
 * store). Not "the model answered nothing": a model that answers nothing still gets an envelope.
 */
export const EMPTY_STDOUT = 'stdout is empty: no envelope and no event';

/**
 * The status of an incomplete stream (no terminal event, or a cut last line): `crashed` with
 * `incomplete: reason`, whatever the exit code, and `reason` added to `ancillary` (evidence) as
 * `incomplete stream: <reason>`. The message is stderr when there is any, else the reason.
 * Issue 11: an incomplete stream is never accepted (every route).
 */
export function incompleteStatus(envelope: Envelope, reason: string, ancillary?: string[]): EnvelopeStatus {
  ancillary?.push(`incomplete stream: ${reason}`);
  const stderr = stripAnsi(envelope.stderr).trim();
  return { kind: 'crashed', incomplete: reason, message: stderr !== '' ? stderr : `incomplete stream: ${reason}` };
}

/** Folded usage keys that count tokens the model produced (Anthropic, OpenAI, Gemini, opencode spellings). */
const OUTPUT_TOKEN_KEYS = new Set(['outputtokens', 'completiontokens', 'candidatestokencount', 'candidates', 'output'].map(foldKey));

/**
 * Output tokens a usage object says the model produced: the sum of every numeric field spelled
 * `output_tokens`, `outputTokens`, `completion_tokens`, `candidatesTokenCount`, `candidates` (Gemini
 * CLI `stats.models.<m>.tokens`) or `output` (opencode `tokens`, pi `usage`), at any depth (bounded,
 * money under `cost` skipped); `0` when none.
 */
export function outputTokens(usage: unknown): number {
  let sum = 0;
  const stack: { value: unknown; depth: number }[] = [{ value: usage, depth: 0 }];
  let visited = 0;
  while (stack.length > 0 && visited < 10_000) {
    const { value, depth } = stack.pop()!;
    visited += 1;
    if (!isPlainObject(value) || depth > 6) continue;
    for (const [k, v] of Object.entries(value)) {
      if (typeof v === 'number' && Number.isFinite(v) && v > 0 && OUTPUT_TOKEN_KEYS.has(foldKey(k))) sum += v;
      else if (isPlainObject(v) && foldKey(k) !== 'cost') stack.push({ value: v, depth: depth + 1 });
    }
  }
  return sum;
}

/**
 * Name lost output in the evidence: when the usage says the model produced output tokens but the
 * envelope delivered nothing (no candidate, no answer text, no commentary), push
 * `lost output: <n> output token(s) spent, nothing delivered` to `evidence` (a decoder's `human`
 * lines, so it leads the skip evidence instead of a raw stdout dump) and a note, and return true.
 * Source: claude-code#38805 (`result: ""`, no `structured_output`, `output_tokens: 5`).
 */
export function noteLostOutput(usage: unknown, delivered: boolean, evidence: string[], notes: string[]): boolean {
  if (delivered) return false;
  const spent = outputTokens(usage);
  if (spent <= 0) return false;
  evidence.push(`lost output: ${spent} output token(s) spent, nothing delivered`);
  notes.push(`the usage reports ${spent} output token(s) but the envelope holds no answer: the CLI lost the output`);
  return true;
}

/**
 * How Claude Code (and its stream-json clones: Amp, xAI grok streaming-messages-json) words a
 * provider failure in `result` when `is_error` is true: `API Error: 529 {...}`, `API Error: Rate
 * limit reached` (claude-code#79500: with `subtype: "success"`, no `api_error_status`, exit 0),
 * `Request timed out`, `Credit balance is too low`, `Invalid API key`; and, each with no status
 * field, exit 1: `Claude AI usage limit reached|<epoch>` (claude-code#1328, #2490, #4375, #9046: the
 * subscription's limit; `Claude usage limit reached. Your limit will reset at ...`, #8638), `You've
 * hit your limit - resets ...` (#22976) or `You've hit your usage limit` (#63700), and from 2.1.152
 * the plan's window named (`You've hit your session limit · resets 9:20pm`, `... weekly limit ...`,
 * `... Opus limit ...`; claude-code#62815, #73873; public parsers of this text list the same set),
 * `API Error: Request rejected (429) · this may be a temporary capacity issue` (the status in
 * brackets; also bare), `You're out of
 * extra usage · resets ...`, `Prompt is too long` (the API's
 * 400 `prompt_too_long`), `Failed to authenticate. API Error: 401 {...}` (claude-code#48656) or
 * `Failed to authenticate: OAuth session expired ...`, `Not logged in · Please run /login`.
 */
const API_ERROR_TEXT = /^(?:API Error\b|Request timed out|Credit balance is too low|Invalid API key|overloaded|Claude(?: AI)? usage limit reached\b|You(?:'|\u2019)re out of extra usage\b|You(?:'|\u2019)ve hit your (?:[a-z0-9-]+ )?limit\b|Request rejected \(\d{3}\)|Prompt is too long\b|Failed to authenticate\b|Not logged in\b)/i;

/**
 * Whether `text` words a provider failure the Claude Code way: the HTTP status it names
 * (`API Error: 529 ...` -> 529), `null` when it names none, `undefined` when it is no such text.
 */
export function apiErrorTextStatus(text: string): number | null | undefined {
  const t = text.trim();
  if (!API_ERROR_TEXT.test(t)) return undefined;
  return httpStatusIn(t, /(?:API Error:\s*(?:Request rejected \()?|Request rejected \()(\d{3})\b/);
}

/** Append `api_error_status=<status>` to `ancillary` when `status` is a provider error with a status. */
export function pushApiErrorStatus(status: EnvelopeStatus, ancillary: string[]): void {
  if (status.kind === 'provider-error' && status.apiErrorStatus != null) ancillary.push(`api_error_status=${status.apiErrorStatus}`);
}

/**
 * How providers word a request refused because of the JSON Schema it carries (the `--json-schema`
 * sent as a tool's `input_schema`, a `response_format` / `text.format` schema, a function's
 * `parameters`, Gemini's `response_schema`), before any model turn:
 * - Anthropic Messages: `tools.14.custom.input_schema: input_schema does not support oneOf, allOf, or
 *   anyOf at the top level` (anthropics/claude-code#64113), `tools.0.input_schema: JSON schema is
 *   invalid ...`: the refused field's path, `tools.<n>[.custom].input_schema` (a bare mention of
 *   `input_schema` elsewhere, e.g. in a refused `messages.<n>` field, is not a schema refusal);
 * - OpenAI: error `code` `invalid_json_schema` (`param: "text.format.schema"` /
 *   `response_format`), `invalid_function_parameters`, message `Invalid schema for response_format
 *   '<name>': ...` / `Invalid schema for function '<name>': ...`;
 * - Gemini API: `Invalid JSON payload received. Unknown name "additionalProperties" at
 *   'generation_config.response_schema...'`, `* GenerateContentRequest.tools[0].function_declarations[3].parameters...`.
 */
export const SCHEMA_REFUSAL: readonly RegExp[] = [
  /\btools\.\d+\.(?:custom\.)?input_schema\b/,
  /\binvalid_json_schema\b/,
  /\binvalid_function_parameters\b/,
  /\bInvalid schema for (?:response_format|function|tool)\b/i,
  /\b(?:generation_?config\.)?response_?(?:json_?)?schema\b/i,
  /\bfunction_declarations\[\d+\]\.parameters\b/i,
];

/**
 * Whether `text` (a provider error message or body, as the CLI relays it) says the provider refused
 * the request because of its schema ({@link SCHEMA_REFUSAL}).
 *
 * @example
 * schemaRefusal('API Error: 400 tools.14.custom.input_schema: input_schema does not support oneOf') // true
 */
export function schemaRefusal(text: string): boolean {
  return SCHEMA_REFUSAL.some((re) => re.test(text));
}

/**
 * A provider error whose status is 400 (or unknown) and whose words ({@link schemaRefusal}, in
 * `status.message` or one of `texts`) name the schema becomes `startup-rejected`: the provider
 * refused the schema at the first request, before any model turn (issue 21 point 1; DESIGN
 * "startup-rejected": the schema is the cause, whichever CLI or provider says it). Any other status
 * is returned unchanged, and so is every status when `afterModelTurn` (the decoder saw a model turn
 * before the error: the schema was accepted then). Each route decoder applies it where it reads a
 * provider failure.
 */
export function schemaRefusedStatus(status: EnvelopeStatus, texts: readonly string[] = [], afterModelTurn = false): EnvelopeStatus {
  if (afterModelTurn) return status;
  if (status.kind !== 'provider-error' || (status.apiErrorStatus != null && status.apiErrorStatus !== 400)) return status;
  const words = [status.message ?? '', ...texts].find((t) => t !== '' && schemaRefusal(t));
  if (words === undefined) return status;
  return { ...status, kind: 'startup-rejected', message: words };
}

/**
 * The HTTP error status (400-599) a provider error text carries, wherever the CLI put it: a leading
 * `<status> <message>` (the OpenAI SDK's wording, `429 Too Many Requests`), `API Error: <status>`,
 * `<provider> API error (<status>): ...` (opencode UnknownError, anomalyco/opencode#47747),
 * `status <status>` / `status code <status>` / `HTTP <status>`, or a relayed provider body with
 * `"status_code": 429`, `"statusCode": 429`, `"status": 429` or `"code": 429` (pi's
 * `Codex error: {"type":"error",...,"status_code":429}`, earendil-works/pi#4172); `null` when none.
 * Read only from a text the CLI already marks as an error.
 *
 * @example
 * statusInErrorText('Codex error: {"error":{"type":"usage_limit_reached"},"status_code":429}') // 429
 */
export function statusInErrorText(text: string): number | null {
  const t = text.trim();
  const patterns = [
    /^(\d{3})\b/,
    /\bAPI Error:?\s*(\d{3})\b/i,
    /\berror\s*\((\d{3})\)/i,
    /"(?:status_?code|statusCode|status|code|http_?status)"\s*:\s*"?(\d{3})\b/i,
    /\b(?:status(?: code)?|HTTP(?:\/\d(?:\.\d)?)?)[:\s]+(\d{3})\b/i,
  ];
  for (const re of patterns) {
    const code = httpStatusIn(t, re);
    if (code !== null) return code;
  }
  return null;
}
