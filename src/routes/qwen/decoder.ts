/**
 * Qwen Code route decoders: `qwen-code/json` (`qwen --output-format json`, stdout is ONE JSON
 * array of every message, the result object last) and `qwen-code/stream-json` (the same objects
 * one per line, plus `stream_event` lines).
 *
 * Facts (Qwen Code 0.24.4 against the loopback Chat Completions mock, research/cli-envelopes.md
 * section 5, checked by probes/qwen.test.ts):
 * - the answer is `structured_result` (NOT `structured_output`) on the `type: "result"` object,
 *   mirrored as a JSON string in `result`; each `structured_output` tool call is also an assistant
 *   `tool_use` block, the rejected ones included (`tool_result` with `is_error: true`);
 * - a text reply ends `subtype: "error_during_execution"`, `is_error: true`,
 *   `error: {message: "Model produced plain text instead of calling the structured_output tool ..."}`
 *   (an object, where Claude Code writes `errors: [string]`), exit 1;
 * - an API error is an assistant text `[API Error: <status> <message>]` and the same words in
 *   `error.message` of an `error_during_execution` result, exit 1; the HTTP status is only in that text;
 * - a schema the CLI refuses: exit 52, stdout empty, one red ANSI line on stderr
 *   (`--json-schema is not a valid JSON Schema: strict mode: unknown keyword: "_meta"`).
 */
import { framingOf, jsonEvents, readJsonDocuments } from '#src/envelope/jsonl.ts';
import { candidatesFromStructured, pushCandidatesFromText } from '#src/envelope/candidates.ts';
import { findKeys, isPlainObject } from '#src/envelope/keys.ts';
import { crashedStatus, httpStatusIn, incompleteStatus, noteLostOutput, pushApiErrorStatus, schemaRefusedStatus, stripAnsi } from '#src/envelope/status.ts';
import { joinPointer } from '#src/pointer.ts';
import { finishDecode } from '#src/envelope/decodeParts.ts';
import { objectReply } from '#src/envelope/reply.ts';
import type { Candidate, Decoded, DecodeOptions, Envelope, EnvelopeStatus, RouteDecoder } from '#src/envelope/types.ts';
import { pushAll } from '#src/arrays.ts';
import { STRUCTURED_FIELD_NAMES } from '#src/envelope/keys.ts';

/** The Qwen Code routes. */
export type QwenRoute = 'qwen-code/json' | 'qwen-code/stream-json';

/** `[API Error: <status> ...]`: how Qwen Code 0.24.4 words a provider error (assistant text and `error.message`). */
const API_ERROR = /\[API Error: (\d{3})\b/;

export { stripAnsi };

/**
 * Qwen Code's startup-rejection line: the first stderr line (ANSI codes removed) that says
 * `--json-schema is not ...` (0.24.4: `--json-schema is not a valid JSON Schema: <ajv error>` or
 * `--json-schema is not valid JSON: ...`), or `null`.
 */
export function qwenRejectionLine(stderr: string): string | null {
  const line = stripAnsi(stderr)
    .split(/\r?\n/)
    .find((l) => /--json-schema is not|--json-schema (?:cannot|must)/.test(l));
  return line?.trim() ?? null;
}

/** The HTTP status in a Qwen Code error text (`[API Error: 529 Overloaded]` -> 529), or `null`. */
export function qwenErrorStatus(text: string): number | null {
  return httpStatusIn(text, API_ERROR);
}

/**
 * A Qwen Code decoder for one route.
 *
 * Candidates, in this order: the structured field of the result object (`structured_result`, any
 * key spelling), each assistant `tool_use` input (`tool_use:<name>`) and the JSON in each
 * assistant text (`assistant-text`; `[API Error: ...]` texts are evidence, never candidates), then
 * the JSON in the result's `result` string. Reply: the result object's `structured_result` (raw),
 * its `result` string and its `usage`, in both framings (the json array too).
 *
 * @example
 * qwenDecoder('qwen-code/json').decode({ stdout: '[{"type":"result","structured_result":{"a":1}}]', stderr: '', exitCode: 0, elapsedMs: 1 }).structured?.origin
 * // 'structured_result'
 */
export function qwenDecoder(route: QwenRoute): RouteDecoder {
  return {
    route,
    header: `Qwen Code (${route.split('/')[1]})`,
    detect: (envelope) => /"type"\s*:\s*"result"/.test(envelope.stdout) && /"qwen_code_version"|"structured_result"/.test(envelope.stdout),
    decode: (envelope, options) => decodeQwen(route, envelope, options),
  };
}

interface Message {
  value: Record<string, unknown>;
  /** Pointer prefix of the message inside its document (`/3` in the json array, `` for a line). */
  base: string;
  offset: number;
  event?: number;
}

function messagesOf(stdout: string): { messages: Message[]; notes: string[]; documents: number; truncated: boolean; framing: string } {
  const docs = readJsonDocuments(stdout);
  const messages: Message[] = jsonEvents(docs).map((e) => ({ value: e.value, base: e.base, offset: e.offset, ...e.event }));
  return { messages, notes: [...docs.notes], documents: docs.documents.length, truncated: docs.truncated, framing: framingOf(docs) };
}

function decodeQwen(route: string, envelope: Envelope, options: DecodeOptions = {}): Decoded {
  const { messages, notes, documents, truncated, framing } = messagesOf(envelope.stdout);
  const anchor = options.anchor;
  const candidates: Candidate[] = [];
  let structured: Candidate | undefined;
  const terminal = messages.filter((m) => m.value.type === 'result').at(-1);
  const at = (m: Message, pointer: string) => ({ pointer: `${m.base}${pointer}`, offset: m.offset, ...(m.event === undefined ? {} : { event: m.event }) });

  if (terminal) {
    for (const key of findKeys(terminal.value, STRUCTURED_FIELD_NAMES)) {
      const found = candidatesFromStructured(terminal.value[key], { origin: key, ...at(terminal, joinPointer('', key)) });
      if (found[0] && !structured) structured = found[0];
      pushAll(candidates, found);
    }
  } else if (messages.length > 0) {
    notes.push('no {"type":"result"} object in stdout');
  }

  const apiErrors: string[] = [];
  for (const m of messages) {
    if (m.value.type !== 'assistant') continue;
    const message = m.value.message;
    const content = isPlainObject(message) && Array.isArray(message.content) ? message.content : [];
    content.forEach((block, i) => {
      if (!isPlainObject(block)) return;
      const pointer = `/message/content/${i}`;
      if (block.type === 'tool_use' && isPlainObject(block.input)) {
        candidates.push({ value: block.input, origin: `tool_use:${String(block.name)}`, nested: 0, ...at(m, `${pointer}/input`) });
      } else if (block.type === 'text' && typeof block.text === 'string') {
        if (qwenErrorStatus(block.text) !== null) apiErrors.push(block.text);
        else pushCandidatesFromText(candidates, block.text, { origin: 'assistant-text', ...at(m, `${pointer}/text`) }, anchor, notes);
      }
    });
  }

  if (terminal && typeof terminal.value.result === 'string') {
    pushCandidatesFromText(candidates, terminal.value.result, { origin: 'result', ...at(terminal, '/result') }, anchor, notes);
  }

  const human: string[] = [];
  const ancillary: string[] = [];
  const t = terminal?.value;
  const errorMessage = t && isPlainObject(t.error) && typeof t.error.message === 'string' ? t.error.message : undefined;
  if (t) {
    if (typeof t.result === 'string' && t.result.trim() !== '' && t.is_error === true) human.push(t.result);
    if (errorMessage !== undefined && errorMessage.trim() !== '') human.push(errorMessage);
    if (typeof t.subtype === 'string' && t.subtype !== 'success') ancillary.push(`subtype=${t.subtype}`);
  }
  if (human.length === 0) pushAll(human, apiErrors);

  // A provider 400 that names the schema (tool parameters) refused it at the first request.
  let status = schemaRefusedStatus(readStatus(envelope, t, errorMessage ?? apiErrors.at(-1), documents));
  if ((truncated || (!t && messages.length > 0)) && status.kind !== 'provider-error' && status.kind !== 'startup-rejected') {
    status = incompleteStatus(envelope, truncated ? 'the last line of stdout is cut' : 'no terminal {"type":"result"} object', ancillary);
  }
  pushApiErrorStatus(status, ancillary);
  if (t && status.kind === 'ok') noteLostOutput(t.usage, candidates.length > 0 || (typeof t.result === 'string' && t.result.trim() !== ''), human, notes);

  const decoded = finishDecode(route, { candidates, human, ancillary, notes, framing, reply: objectReply(t) }, status, t, envelope, options);
  if (structured) decoded.structured = structured;
  if (t && t.usage !== undefined) decoded.usage = t.usage;
  return decoded;
}

function readStatus(envelope: Envelope, terminal: Record<string, unknown> | undefined, errorText: string | undefined, documents: number): EnvelopeStatus {
  if (!terminal) {
    const rejection = documents === 0 && envelope.exitCode !== 0 ? qwenRejectionLine(envelope.stderr) : null;
    if (rejection !== null) return { kind: 'startup-rejected', message: rejection };
    if (errorText !== undefined) {
      const code = qwenErrorStatus(errorText);
      if (code !== null) return { kind: 'provider-error', apiErrorStatus: code, message: errorText };
    }
    return crashedStatus(envelope, stripAnsi(envelope.stderr)) ?? { kind: 'ok' };
  }
  const status: EnvelopeStatus = { kind: 'ok' };
  if (typeof terminal.subtype === 'string') status.subtype = terminal.subtype;
  if (typeof terminal.is_error === 'boolean') status.isError = terminal.is_error;
  if (errorText !== undefined && errorText !== '') status.message = errorText;
  const code = errorText === undefined ? null : qwenErrorStatus(errorText);
  if (code !== null) {
    status.kind = 'provider-error';
    status.apiErrorStatus = code;
  } else if (terminal.is_error === true || (typeof terminal.subtype === 'string' && terminal.subtype.startsWith('error'))) {
    status.kind = 'cli-error';
  }
  return status;
}
