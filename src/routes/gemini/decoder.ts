/**
 * Gemini CLI route decoders: `gemini-cli/json` (`gemini -o json`, one pretty-printed object) and
 * `gemini-cli/stream-json` (`-o stream-json`, JSONL events ending with a `type: "result"` line).
 *
 * Facts (Gemini CLI 0.61.0, research/cli-envelopes.md section 4, checked against the real CLI by
 * probes/gemini.test.ts):
 * - no schema flag, no structured field: the answer is JSON inside the `response` string (json), or
 *   inside the assistant `message` events, whose `content` deltas are parts of one text (stream-json);
 * - the `user` message event repeats the whole prompt, schema included: it is never read for answers;
 * - the reply is the `response` string (json) or the last non-blank assistant text (stream-json,
 *   deltas joined); the usage is `stats`;
 * - an API error in json mode leaves stdout EMPTY and prints, after a stack trace, a pretty JSON
 *   object `{"session_id":..,"error":{"type":"Error","message":"{\"error\":{\"code\":400,..}}","code":400}}`
 *   on stderr; the exit code is the HTTP status & 0xFF (400 -> 144, 529 -> 17);
 * - in stream-json the same error is `{"type":"result","status":"error","error":{"type":"unknown",
 *   "message":"[API Error: {\"error\":{\"code\":400,...}}]"}}` on stdout, same exit code;
 * - auth not configured: exit 41 with the JSON error on stderr (json mode); untrusted folder: exit 55
 *   with plain text (research, not re-observed here);
 * - a quota answer (429 RESOURCE_EXHAUSTED) names no status in stream-json: observed,
 *   `{"type":"result","status":"error","error":{"type":"unknown","message":"[API Error: Resource has
 *   been exhausted (e.g. check quota).]\nPlease wait and try again later. To increase your limits,
 *   ..."}}`, exit 173 (429 & 0xFF); a quota error thrown as such is named by its class,
 *   `"type":"TerminalQuotaError"` ({@link geminiErrorStatus});
 * - when the CLI stops the run itself (session turn limit, invalid stream) stream-json carries an
 *   `error` event of severity `"error"` and still ends with a `result` of status `"success"`: the
 *   run failed ({@link finalErrorFrame}).
 */
import { findJsonObjects } from '#src/scan/index.ts';
import { framingOf, readJsonDocuments, type JsonDocument } from '#src/envelope/jsonl.ts';
import { pushCandidatesFromText, commentaryMark, dedupeCandidates } from '#src/envelope/candidates.ts';
import { isPlainObject } from '#src/envelope/keys.ts';
import { crashedStatus, httpStatusIn, incompleteStatus, isHttpErrorStatus, noteLostOutput, schemaRefusedStatus, statusInErrorText } from '#src/envelope/status.ts';
import { envelopeFacts, finishDecode } from '#src/envelope/decodeParts.ts';
import { lastNonBlank, objectReply, textReply } from '#src/envelope/reply.ts';
import type { Candidate, Decoded, DecodeOptions, Envelope, EnvelopeStatus, RouteDecoder } from '#src/envelope/types.ts';

/** The Gemini CLI routes this file decodes. */
export type GeminiDecoderRoute = 'gemini-cli/json' | 'gemini-cli/stream-json';

/**
 * A Gemini CLI decoder for one route.
 *
 * @example
 * geminiDecoder('gemini-cli/json').decode({ stdout, stderr, exitCode: 144, elapsedMs: 4000 }).status
 * // { kind: 'provider-error', apiErrorStatus: 400, message: '{"error":{"code":400,...}}' }
 */
export function geminiDecoder(route: GeminiDecoderRoute): RouteDecoder {
  return {
    route,
    header: `Gemini CLI (${route.split('/')[1]})`,
    detect: (envelope) =>
      route === 'gemini-cli/json'
        ? /"response"\s*:|"session_id"\s*:/.test(envelope.stdout) || /"error"\s*:\s*\{/.test(envelope.stderr)
        : /"type"\s*:\s*"init"/.test(envelope.stdout) && /"role"\s*:/.test(envelope.stdout),
    decode: (envelope, options) => (route === 'gemini-cli/json' ? decodeJson(route, envelope, options) : decodeStream(route, envelope, options)),
  };
}

/**
 * Gemini CLI's own error classes that stand for an HTTP answer of the provider, by the `type` its
 * JSON error report names (the class name, `getErrorType`), when the report carries no status:
 * Gemini CLI 0.61.0 packages/core/src/utils/googleQuotaErrors.ts turns a 429 (also 499, 503)
 * RESOURCE_EXHAUSTED into `TerminalQuotaError` or `RetryableQuotaError` whose message is the
 * provider's words without a status ("Resource has been exhausted (e.g. check quota).", "You have
 * exhausted your capacity on this model."), a 404 into `ModelNotFoundError`, a 403 asking for
 * account validation into `ValidationRequiredError`; stream-json reports only `{type, message}`.
 */
const PROVIDER_ERROR_CLASSES: Readonly<Record<string, number>> = { TerminalQuotaError: 429, RetryableQuotaError: 429, ModelNotFoundError: 404, ValidationRequiredError: 403 };

/**
 * The rate-limit hints Gemini CLI appends to an API error's `[API Error: ...]` text only when the
 * provider answered 429 (0.61.0 packages/core/src/utils/errorParsing.ts `parseAndFormatApiError`,
 * `getRateLimitMessage`: API key, Vertex, and the default "switching model" wording, gemini-cli#10717);
 * in stream-json the result error then names no status and no class (`type: "unknown"`).
 */
const RATE_LIMIT_HINTS = [/\bPlease wait and try again later\. To increase your limits, request a quota increase through\b/, /\bPossible quota limitations in place or slow response times detected\b/];

/**
 * An HTTP status (400-599) a Gemini error object carries: `error.code`, or the Google body inside
 * `error.message` (parsed, else its `"code": <status>` read as text, {@link statusInErrorText}),
 * else 429 when the message carries Gemini CLI's own rate-limit hint ({@link RATE_LIMIT_HINTS}),
 * else the status its error class stands for ({@link PROVIDER_ERROR_CLASSES}).
 */
export function geminiErrorStatus(error: unknown): number | null {
  if (!isPlainObject(error)) return null;
  const code = error.code;
  if (isHttpErrorStatus(code)) return code;
  if (typeof error.message === 'string' && error.message.includes('{')) {
    for (const found of findJsonObjects(error.message, { anchor: 'code', maxStringDepth: 1 })) {
      const inner = found.value.code;
      if (isHttpErrorStatus(inner)) return inner;
    }
    // The wrapped Google body is often not JSON (raw newlines inside its strings, gemini-cli#10717):
    // its `"code": 429` is still read.
    const inText = statusInErrorText(error.message);
    if (inText !== null) return inText;
  }
  if (typeof error.message === 'string' && RATE_LIMIT_HINTS.some((re) => re.test(error.message as string))) return 429;
  return typeof error.type === 'string' && Object.hasOwn(PROVIDER_ERROR_CLASSES, error.type) ? PROVIDER_ERROR_CLASSES[error.type]! : null;
}

/**
 * The HTTP status of the provider answer in Gemini CLI's stderr report of a failed model call, for
 * an error whose JSON names none: the CLI logs `Error when talking to Gemini API Full report
 * available at: <file> <Class>: <message>`, the stack, and the error's `cause: { code: 429, ... }`
 * (its reportError of `Turn.run`), while the stream-json result says only `[API Error: An unknown
 * error occurred.]` (a public capture of gemini-2.5-pro over its free-tier quota,
 * jamesmurdza/background-agents packages/sdk/tests/fixtures/jsonl-reference/gemini-error.jsonl).
 * The status is the cause's `code`, else the one the class stands for ({@link PROVIDER_ERROR_CLASSES});
 * `null` without that report line or a status in it. Reads at most 64 KiB after the line.
 */
function apiReportStatus(stderr: string): number | null {
  const at = stderr.indexOf(API_REPORT_LINE);
  if (at < 0) return null;
  const report = stderr.slice(at, at + 65_536);
  const cause = httpStatusIn(report, /\bcause:\s*\{[\s\S]{0,400}?\bcode:\s*(\d{3})\b/);
  if (cause !== null) return cause;
  const named = /\b([A-Z][A-Za-z]*Error):/.exec(report.slice(API_REPORT_LINE.length));
  return named && Object.hasOwn(PROVIDER_ERROR_CLASSES, named[1]!) ? PROVIDER_ERROR_CLASSES[named[1]!]! : null;
}

const API_REPORT_LINE = 'Error when talking to Gemini API';

/** The last top-level JSON object on stderr that has an object `error` (the json-mode error report). */
function stderrErrorObject(stderr: string): Record<string, unknown> | undefined {
  if (!stderr.includes('"error"')) return undefined;
  let last: Record<string, unknown> | undefined;
  for (const found of findJsonObjects(stderr, { anchor: 'error', maxStringDepth: 0 })) {
    if (found.nested === 0 && found.pointer === '' && isPlainObject(found.value.error)) last = found.value;
  }
  return last;
}

/**
 * Status from an `error` object (stdout terminal or stderr report), with its evidence fragments. A
 * 400 whose words name a schema (`generation_config.response_schema`, `function_declarations[n].parameters`:
 * `Invalid JSON payload received. Unknown name ...`) is `startup-rejected`: the API refused the
 * request's schema before any model turn. A CLI fatal error raised before any turn (auth, input,
 * sandbox, config: {@link GEMINI_STARTUP_EXIT_CODES}) is `startup-rejected` too (issue 21).
 */
function errorStatus(error: Record<string, unknown>, human: string[], ancillary: string[], afterModelTurn = false, stderr = ''): EnvelopeStatus {
  const message = typeof error.message === 'string' && error.message.trim() !== '' ? error.message : undefined;
  if (message) human.push(message);
  const status = geminiErrorStatus(error) ?? apiReportStatus(stderr);
  if (status !== null) {
    ancillary.push(`api_error_status=${status}`);
    return schemaRefusedStatus({ kind: 'provider-error', apiErrorStatus: status, message: message ?? `HTTP ${status}` }, [], afterModelTurn);
  }
  if (typeof error.code === 'number' && GEMINI_STARTUP_EXIT_CODES.has(error.code)) return { kind: 'startup-rejected', message: message ?? `Gemini CLI refused to start (code ${error.code})` };
  return { kind: 'cli-error', ...(message ? { message } : {}) };
}

/**
 * The `code` (also the exit code) of a Gemini CLI `FatalError` thrown before any model turn:
 * `FatalAuthenticationError` 41 (no auth method set), `FatalInputError` 42 (no prompt),
 * `FatalSandboxError` 44, `FatalConfigError` 52 (google-gemini/gemini-cli
 * packages/core/src/utils/errors.ts; 41 observed in Priivacy-ai/spec-kitty research/03-google-gemini.md).
 * Not 53 (turn limit) or 54 (tool execution): those end a run mid-way.
 */
const GEMINI_STARTUP_EXIT_CODES: ReadonlySet<number> = new Set([41, 42, 44, 52]);

/** A non-zero exit (or a signal) with nothing readable: crashed, with stderr as the message. */
function exitStatus(envelope: Envelope): EnvelopeStatus {
  return crashedStatus(envelope) ?? { kind: 'ok' };
}

function decodeJson(route: string, envelope: Envelope, options: DecodeOptions = {}): Decoded {
  const docs = readJsonDocuments(envelope.stdout);
  const notes = [...docs.notes];
  const candidates: Candidate[] = [];
  const human: string[] = [];
  const ancillary: string[] = [];
  let status: EnvelopeStatus = { kind: 'ok' };
  let terminal: { value: Record<string, unknown>; offset: number } | undefined;
  for (const doc of docs.documents) {
    if (isPlainObject(doc.value) && ('response' in doc.value || 'error' in doc.value || 'session_id' in doc.value)) {
      terminal = { value: doc.value, offset: doc.offset };
    }
  }
  let keys: string[] = [];
  if (terminal) {
    const t = terminal.value;
    keys = Object.keys(t);
    if (typeof t.response === 'string') {
      if (t.response.trim() !== '') human.push(t.response);
      pushCandidatesFromText(candidates, t.response, { origin: 'response', pointer: '/response', offset: terminal.offset }, options.anchor);
    }
    if (isPlainObject(t.error)) status = errorStatus(t.error, human, ancillary, false, envelope.stderr);
  } else {
    if (docs.documents.length > 0) notes.push('no Gemini envelope object (with "response" or "error") in stdout');
    const report = stderrErrorObject(envelope.stderr);
    if (report) {
      keys = Object.keys(report);
      notes.push('stdout has no envelope; the error object was read from stderr');
      status = errorStatus(report.error as Record<string, unknown>, human, ancillary, false, envelope.stderr);
    } else {
      status = exitStatus(envelope);
    }
  }
  // A cut document is never accepted; a provider error read from stderr stays one.
  if (docs.truncated && (terminal || status.kind !== 'provider-error')) status = incompleteStatus(envelope, 'stdout ends inside the JSON document', ancillary);
  if (terminal && status.kind === 'ok') {
    const response = terminal.value.response;
    noteLostOutput(terminal.value.stats, candidates.length > 0 || (typeof response === 'string' && response.trim() !== ''), human, notes);
  }
  const reply = objectReply(terminal?.value, { textFields: ['response'], usage: terminal?.value.stats });
  const decoded: Decoded = { ...envelopeFacts(envelope, options, docs), reply, route, candidates: dedupeCandidates(candidates), status, human, ancillary, keys, notes, framing: framingOf(docs) };
  if (terminal && terminal.value.stats !== undefined) decoded.usage = terminal.value.stats;
  return decoded;
}

/** Consecutive assistant message events: one text, from the first event's line and offset. */
interface AssistantSegment {
  text: string;
  line: number;
  offset: number;
}

function assistantSegments(documents: JsonDocument[]): AssistantSegment[] {
  const segments: AssistantSegment[] = [];
  let open: AssistantSegment | undefined;
  for (const doc of documents) {
    const v = doc.value;
    // A thought (`thought: true`) or any message marked commentary is never part of the answer text.
    const isAssistant = isPlainObject(v) && v.type === 'message' && v.role === 'assistant' && typeof v.content === 'string' && commentaryMark(v) === null;
    if (!isAssistant) {
      // Any other event (user message, tool_use, tool_result, error, result) ends the text.
      open = undefined;
      continue;
    }
    const content = (v as { content: string }).content;
    if (open && (v as { delta?: unknown }).delta === true) {
      open.text += content;
    } else {
      open = { text: content, line: doc.line, offset: doc.offset };
      segments.push(open);
    }
  }
  return segments;
}

/**
 * The message of the `error` event of severity `"error"` that ended the run, or `null`: the last
 * such event when no assistant message follows it. Gemini CLI 0.61.0 (nonInteractiveCli) emits one
 * when it stops the run itself, then still ends with a `result` of status `"success"`: the session
 * turn limit (`Maximum session turns exceeded`, fired before the next model turn, so the text
 * before it preceded a tool call and is not the answer) and an invalid stream (`Invalid stream: The
 * model returned an empty response or malformed tool call.`). A severity-error event followed by
 * more assistant text (a RESOURCE_EXHAUSTED retry that then succeeded) did not end the run; a
 * `"warning"` (loop detected, blocked tool) never does by itself.
 */
function finalErrorFrame(documents: JsonDocument[]): string | null {
  let stop: string | null = null;
  for (const doc of documents) {
    const v = doc.value;
    if (!isPlainObject(v)) continue;
    if (v.type === 'error' && v.severity === 'error') stop = typeof v.message === 'string' && v.message.trim() !== '' ? v.message : 'error event (severity error)';
    else if (v.type === 'message' && v.role === 'assistant' && typeof v.content === 'string' && v.content.trim() !== '') stop = null;
  }
  return stop;
}

function decodeStream(route: string, envelope: Envelope, options: DecodeOptions = {}): Decoded {
  const docs = readJsonDocuments(envelope.stdout);
  const notes = [...docs.notes];
  const candidates: Candidate[] = [];
  const human: string[] = [];
  const ancillary: string[] = [];
  let terminal: { value: Record<string, unknown>; line: number; offset: number } | undefined;
  for (const doc of docs.documents) {
    if (isPlainObject(doc.value) && doc.value.type === 'result') terminal = { value: doc.value, line: doc.line, offset: doc.offset };
  }
  const segments = assistantSegments(docs.documents);
  for (const segment of segments) {
    if (segment.text.trim() !== '') human.push(segment.text);
    pushCandidatesFromText(candidates, segment.text, { origin: 'assistant-text', pointer: '/content', event: segment.line, offset: segment.offset }, options.anchor);
  }
  let status: EnvelopeStatus = { kind: 'ok' };
  if (terminal && !docs.truncated) {
    const t = terminal.value;
    if (t.status === 'error' || isPlainObject(t.error)) {
      // An error after assistant text came after a model turn: the schema was accepted then.
      status = isPlainObject(t.error) ? errorStatus(t.error, human, ancillary, segments.length > 0, envelope.stderr) : { kind: 'cli-error', message: 'result status error' };
    } else {
      const stop = finalErrorFrame(docs.documents);
      if (stop !== null) {
        // The CLI's reason first: it is why the text before it is not an answer.
        human.unshift(stop);
        status = { kind: 'cli-error', message: stop };
      }
    }
  } else if (docs.documents.length > 0 || docs.truncated) {
    // gemini-cli#20183: the stream ends without its result event (exit 1): never accepted.
    const reason = docs.truncated ? 'the last line of stdout is cut' : 'no terminal {"type":"result"} event';
    if (!terminal) notes.push('no terminal {"type":"result"} event in stdout');
    const report = stderrErrorObject(envelope.stderr);
    if (report) {
      notes.push('the error object was read from stderr');
      status = { ...errorStatus(report.error as Record<string, unknown>, human, ancillary, false, envelope.stderr), incomplete: reason };
      ancillary.push(`incomplete stream: ${reason}`);
    } else {
      status = incompleteStatus(envelope, reason, ancillary);
    }
  } else {
    const report = stderrErrorObject(envelope.stderr);
    if (report) {
      notes.push('the error object was read from stderr');
      status = errorStatus(report.error as Record<string, unknown>, human, ancillary, false, envelope.stderr);
    } else {
      status = exitStatus(envelope);
    }
  }
  if (terminal && status.kind === 'ok') noteLostOutput(terminal.value.stats, candidates.length > 0 || human.length > 0, human, notes);
  const reply = textReply(lastNonBlank(segments.map((s) => s.text)), 'assistant-text', terminal?.value.stats);
  const decoded = finishDecode(route, { candidates, human, ancillary, notes, docs, reply }, status, terminal?.value, envelope, options);
  if (terminal && terminal.value.stats !== undefined) decoded.usage = terminal.value.stats;
  return decoded;
}
