/**
 * Claude Code route decoders: `claude-code/json` (`claude -p --output-format json`, one result
 * object) and `claude-code/stream-json` (`--output-format stream-json --verbose`, JSONL events
 * ending with a `type: "result"` line).
 *
 * Facts (Claude Code 2.1.332, shared/research/cli-envelopes.md section 2, checked against the real
 * CLI by the hermetic probes in probes/):
 * - the answer is `structured_output` on the terminal result object, mirrored as a JSON string in
 *   `result`; in stream-json the StructuredOutput tool call also appears as an assistant
 *   `tool_use` block;
 * - API errors come back as `subtype: "success"` with `is_error: true`, `api_error_status` and
 *   `terminal_reason: "api_error"`; `error_max_structured_output_retries` carries `errors[]`;
 * - a schema the CLI refuses gives no stdout, a message on stderr (`Error: --json-schema is not a
 *   valid JSON Schema: ...`) and exit 1;
 * - `success` without `structured_output` means the model never called the tool.
 *
 * Reply: the terminal result object's `structured_output` (raw, any JSON type), its `result` string
 * and its `usage`; none without a result object.
 */
import { readJsonDocuments, jsonEvents, type JsonEvent } from '#src/envelope/jsonl.ts';
import { candidatesFromStructured, pushCandidatesFromText } from '#src/envelope/candidates.ts';
import { findKeys, isPlainObject } from '#src/envelope/keys.ts';
import { apiErrorTextStatus, crashedStatus, incompleteStatus, noteLostOutput, schemaRefusedStatus } from '#src/envelope/status.ts';
import { joinPointer } from '#src/pointer.ts';
import { finishDecode } from '#src/envelope/decodeParts.ts';
import { objectReply } from '#src/envelope/reply.ts';
import { splitMessageTexts, subagentParent } from '#src/envelope/splitMessages.ts';
import type { Candidate, Decoded, DecodeOptions, Envelope, EnvelopeStatus, RouteDecoder } from '#src/envelope/types.ts';
import { pushAll } from '#src/arrays.ts';

import { STRUCTURED_FIELD_NAMES } from '#src/envelope/keys.ts';

/**
 * How Claude Code refuses a schema it will not send (2.1.332, observed): stderr
 * `Error: --json-schema is not a valid JSON Schema: strict mode: unknown keyword: "_meta"` (or
 * `... is not valid JSON: ...`), exit 1, no request. The only copy of this rule: the probe driver,
 * startup probes and certification read it through this decoder (src/routes/rejection.ts).
 */
export const CLAUDE_SCHEMA_REFUSED = /--json-schema is not (?:a )?valid/i;

/**
 * stderr lines by which Claude Code refuses to start (2.1.332, observed), besides every CLI's argument
 * refusals (also read by the generated envelopes' ground truth, src/arbitraries/_internals/truth.ts).
 */
export const CLAUDE_STARTUP_REJECTION: readonly RegExp[] = [CLAUDE_SCHEMA_REFUSED, /requires --verbose/i, /unknown option|error: option/i];

/**
 * A Claude Code decoder for one route.
 *
 * Framings read (both routes accept all of them, as a consumer meets them):
 * - one result object (`--output-format json`);
 * - one JSON array of every event, the result element last (`--output-format json --verbose`,
 *   Claude Code 2.1.332, recorded);
 * - JSONL events ending with the result line (`--output-format stream-json --verbose`).
 * Stray non-JSON lines around the document or between events are read past (notes).
 *
 * Status: the terminal result object decides; `is_error: true` is a failure whatever `subtype`
 * says (claude-code#79500: `subtype: "success"`, `is_error: true`), a provider error when
 * `api_error_status` is a number, `terminal_reason` is `api_error` or `result` reads like an API
 * error, else a CLI error. Events without a result object, or a cut last line, are an
 * incomplete stream (`crashed`, `incomplete`), never accepted.
 *
 * @example
 * const decoder = claudeDecoder('claude-code/stream-json');
 * decoder.decode({ stdout, stderr: '', exitCode: 0, elapsedMs: 1200 }).structured?.value
 */
export function claudeDecoder(route: 'claude-code/json' | 'claude-code/stream-json'): RouteDecoder {
  return {
    route,
    header: `Claude Code (${route.split('/')[1]})`,
    detect: (envelope) => /"type"\s*:\s*"result"/.test(envelope.stdout) && /"session_id"|"is_error"/.test(envelope.stdout),
    decode: (envelope, options) => decodeClaude(route, envelope, options),
  };
}

function decodeClaude(route: string, envelope: Envelope, options: DecodeOptions = {}): Decoded {
  const docs = readJsonDocuments(envelope.stdout);
  const events = jsonEvents(docs);
  const notes = [...docs.notes];
  const anchor = options.anchor;
  const candidates: Candidate[] = [];
  const ancillary: string[] = [];
  let structured: Candidate | undefined;

  let terminal: JsonEvent | undefined;
  for (const e of events) if (e.value.type === 'result') terminal = e;
  if (docs.framing === 'whole' && Array.isArray(docs.documents[0]?.value)) notes.push('stdout is one JSON array of every event (--output-format json --verbose)');

  // 1. The structured field of the terminal result object comes first.
  if (terminal) {
    for (const key of findKeys(terminal.value, STRUCTURED_FIELD_NAMES)) {
      const found = candidatesFromStructured(terminal.value[key], {
        origin: key,
        pointer: joinPointer(terminal.base, key),
        offset: terminal.offset,
        ...terminal.event,
      });
      if (found[0] && !structured) structured = found[0];
      pushAll(candidates, found);
    }
  } else if (events.length > 0) {
    notes.push('no terminal {"type":"result"} object in stdout');
  }

  // 2. Assistant events, in stream order: StructuredOutput (or any) tool calls and text blocks; the
  //    text of one message id spread over several events is also read joined, at its last event.
  const split = splitMessageTexts(events.map((e) => e.value));
  const subagentEvents: number[] = [];
  events.forEach((e, index) => {
    if (e.value.type !== 'assistant') return;
    // A sub-agent's messages are what it hands its parent, never the run's answer.
    if (subagentParent(e.value) !== null) {
      subagentEvents.push(index);
      return;
    }
    const message = e.value.message;
    const content = isPlainObject(message) && Array.isArray(message.content) ? message.content : [];
    content.forEach((block, i) => {
      if (!isPlainObject(block)) return;
      const pointer = `${e.base}/message/content/${i}`;
      if (block.type === 'tool_use' && isPlainObject(block.input)) {
        candidates.push({ value: block.input, origin: `tool_use:${String(block.name)}`, pointer: `${pointer}/input`, offset: e.offset, nested: 0, ...e.event });
      } else if (block.type === 'text' && typeof block.text === 'string') {
        pushCandidatesFromText(candidates, block.text, { origin: 'assistant-text', pointer: `${pointer}/text`, offset: e.offset, ...e.event }, anchor, notes);
      }
    });
    const joined = split.get(index);
    if (joined) {
      const first = events[joined.first]!;
      notes.push(`assembled the text of assistant message ${joined.id} from ${joined.pieces} text blocks over several events`);
      pushCandidatesFromText(candidates, joined.text, { origin: 'assistant-text', pointer: `${first.base}/message/content`, offset: first.offset, ...e.event }, anchor, notes);
    }
  });

  if (subagentEvents.length > 0) notes.push(`${subagentEvents.length} assistant event(s) of a sub-agent (parent_tool_use_id set) not read for the answer: a sub-agent's text is what it hands its parent`);

  // 3. The result string of the terminal object (plain or fenced JSON, or prose around it).
  if (terminal && typeof terminal.value.result === 'string') {
    pushCandidatesFromText(candidates, terminal.value.result, { origin: 'result', pointer: `${terminal.base}/result`, offset: terminal.offset, ...terminal.event }, anchor, notes);
  }

  const human: string[] = [];
  let status: EnvelopeStatus;
  if (terminal && !docs.truncated) {
    // A provider 400 that names the schema (tool input_schema) refused it at the first request,
    // before any model turn (an assistant event from the model; Claude Code words an API error as a
    // synthetic assistant message, `model: "<synthetic>"`, which is none).
    const modelTurn = events.some((e) => e.value.type === 'assistant' && !(isPlainObject(e.value.message) && e.value.message.model === '<synthetic>'));
    // The SDK's `error` on an assistant event (`authentication_failed`, `rate_limit`, ...) names a provider failure the result text may word otherwise.
    const assistantError = events.findLast((e) => e.value.type === 'assistant' && typeof e.value.error === 'string')?.value.error as string | undefined;
    status = schemaRefusedStatus(readStatus(terminal.value, assistantError), [], modelTurn);
  } else if (events.length > 0 || docs.truncated) {
    status = incompleteStatus(envelope, docs.truncated ? 'the last line of stdout is cut' : 'no terminal {"type":"result"} object', ancillary);
  } else {
    status = crashedStatus(envelope, envelope.stderr, CLAUDE_STARTUP_REJECTION) ?? { kind: 'ok' };
  }
  if (terminal) {
    const t = terminal.value;
    for (const field of [t.result, t.message, isPlainObject(t.error) ? t.error.message : undefined]) {
      if (typeof field === 'string' && field.trim() !== '') human.push(field);
    }
    if (Array.isArray(t.errors)) for (const e of t.errors) if (typeof e === 'string') human.push(e);
    if (t.api_error_status !== undefined && t.api_error_status !== null) ancillary.push(`api_error_status=${String(t.api_error_status)}`);
    else if (status.kind === 'provider-error' && typeof status.apiErrorStatus === 'number') ancillary.push(`api_error_status=${status.apiErrorStatus}`);
    if (typeof t.terminal_reason === 'string') ancillary.push(`terminal_reason=${t.terminal_reason}`);
    const delivered = candidates.length > 0 || (typeof t.result === 'string' && t.result.trim() !== '');
    if (status.kind === 'ok') noteLostOutput(t.usage, delivered, human, notes);
  }

  const decoded = finishDecode(route, { candidates, human, ancillary, notes, docs, reply: objectReply(terminal?.value) }, status, terminal?.value, envelope, options);
  if (structured) decoded.structured = structured;
  if (terminal && terminal.value.usage !== undefined) decoded.usage = terminal.value.usage;
  return decoded;
}

/**
 * The `error` values of an assistant event that name a provider failure (the Agent SDK's
 * `SDKAssistantMessageError`: `authentication_failed`, `billing_error`, `rate_limit`,
 * `invalid_request`, `server_error`; `unknown` names none). Seen: `"error":"authentication_failed"`
 * beside `Failed to authenticate: OAuth session expired ...` (YishenTu/claudian#1135).
 */
const PROVIDER_ASSISTANT_ERRORS = new Set(['authentication_failed', 'billing_error', 'rate_limit', 'invalid_request', 'server_error']);

/**
 * The status the terminal result object says; `assistantError` is the last assistant event's
 * `error` field, which makes a failed run a provider error ({@link PROVIDER_ASSISTANT_ERRORS}).
 */
function readStatus(terminal: Record<string, unknown>, assistantError?: string): EnvelopeStatus {
  const status: EnvelopeStatus = { kind: 'ok' };
  if (typeof terminal.subtype === 'string') status.subtype = terminal.subtype;
  if (typeof terminal.terminal_reason === 'string') status.terminalReason = terminal.terminal_reason;
  if (typeof terminal.is_error === 'boolean') status.isError = terminal.is_error;
  const apiStatus = terminal.api_error_status;
  if (typeof apiStatus === 'number' || apiStatus === null) status.apiErrorStatus = apiStatus;
  const message =
    typeof terminal.result === 'string'
      ? terminal.result
      : Array.isArray(terminal.errors)
        ? terminal.errors.filter((e) => typeof e === 'string').join(' | ')
        : undefined;
  if (message !== undefined && message !== '') status.message = message;
  const failed = terminal.is_error === true || (typeof terminal.subtype === 'string' && terminal.subtype.startsWith('error'));
  if (typeof apiStatus === 'number' || terminal.terminal_reason === 'api_error') {
    status.kind = 'provider-error';
  } else if (terminal.is_error === true && message !== undefined && apiErrorTextStatus(message) !== undefined) {
    // The error flag wins over `subtype: "success"`; the reason is only in the result text.
    status.kind = 'provider-error';
    const code = apiErrorTextStatus(message);
    if (typeof code === 'number') status.apiErrorStatus = code;
  } else if (failed && assistantError !== undefined && PROVIDER_ASSISTANT_ERRORS.has(assistantError)) {
    status.kind = 'provider-error';
  } else if (failed) {
    status.kind = 'cli-error';
  }
  return status;
}
