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
 */
import { readJsonDocuments } from '#src/envelope/jsonl.ts';
import { candidatesFromStructured, candidatesFromText } from '#src/envelope/candidates.ts';
import { findKeys, isPlainObject, pointerToken } from '#src/envelope/keys.ts';
import { crashedStatus } from '#src/envelope/status.ts';
import { finishDecode } from '#src/envelope/decodeParts.ts';
import type { Candidate, Decoded, DecodeOptions, Envelope, EnvelopeStatus, RouteDecoder } from '#src/envelope/types.ts';

/** Spellings of the structured field, folded by {@link findKeys}; `structured_result` is Qwen Code's. */
export const STRUCTURED_FIELD_NAMES = ['structured_output', 'structured_result'] as const;

/** stderr lines by which Claude Code refuses to start (2.1.332, observed). */
const STARTUP_REJECTION = [
  /--json-schema is not (?:a )?valid/i,
  /requires --verbose/i,
  /unknown option|error: option/i,
];

/**
 * A Claude Code decoder for one route.
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
  const notes = [...docs.notes];
  const anchor = options.anchor;
  const candidates: Candidate[] = [];
  let structured: Candidate | undefined;

  let terminal: { value: Record<string, unknown>; line: number; offset: number } | undefined;
  for (const doc of docs.documents) {
    if (isPlainObject(doc.value) && doc.value.type === 'result') {
      terminal = { value: doc.value, line: doc.line, offset: doc.offset };
    }
  }
  const event = (line: number) => (docs.framing === 'lines' ? { event: line } : {});

  // 1. The structured field of the terminal result object comes first.
  if (terminal) {
    for (const key of findKeys(terminal.value, STRUCTURED_FIELD_NAMES)) {
      const found = candidatesFromStructured(terminal.value[key], {
        origin: key,
        pointer: `/${pointerToken(key)}`,
        offset: terminal.offset,
        ...event(terminal.line),
      });
      if (found[0] && !structured) structured = found[0];
      candidates.push(...found);
    }
  } else if (docs.documents.length > 0) {
    notes.push('no terminal {"type":"result"} object in stdout');
  }

  // 2. Assistant events, in stream order: StructuredOutput (or any) tool calls and text blocks.
  for (const doc of docs.documents) {
    if (!isPlainObject(doc.value) || doc.value.type !== 'assistant') continue;
    const message = doc.value.message;
    const content = isPlainObject(message) && Array.isArray(message.content) ? message.content : [];
    content.forEach((block, i) => {
      if (!isPlainObject(block)) return;
      const pointer = `/message/content/${i}`;
      if (block.type === 'tool_use' && isPlainObject(block.input)) {
        candidates.push({ value: block.input, origin: `tool_use:${String(block.name)}`, pointer: `${pointer}/input`, offset: doc.offset, nested: 0, ...event(doc.line) });
      } else if (block.type === 'text' && typeof block.text === 'string') {
        candidates.push(...candidatesFromText(block.text, { origin: 'assistant-text', pointer: `${pointer}/text`, offset: doc.offset, ...event(doc.line) }, anchor));
      }
    });
  }

  // 3. The result string of the terminal object (plain or fenced JSON, or prose around it).
  if (terminal && typeof terminal.value.result === 'string') {
    candidates.push(...candidatesFromText(terminal.value.result, { origin: 'result', pointer: '/result', offset: terminal.offset, ...event(terminal.line) }, anchor));
  }

  const status = readStatus(envelope, terminal?.value, docs.documents.length);
  const human: string[] = [];
  const ancillary: string[] = [];
  if (terminal) {
    const t = terminal.value;
    for (const field of [t.result, t.message, isPlainObject(t.error) ? t.error.message : undefined]) {
      if (typeof field === 'string' && field.trim() !== '') human.push(field);
    }
    if (Array.isArray(t.errors)) for (const e of t.errors) if (typeof e === 'string') human.push(e);
    if (t.api_error_status !== undefined && t.api_error_status !== null) ancillary.push(`api_error_status=${String(t.api_error_status)}`);
    if (typeof t.terminal_reason === 'string') ancillary.push(`terminal_reason=${t.terminal_reason}`);
  }

  const decoded = finishDecode(route, { candidates, human, ancillary, notes }, status, terminal?.value);
  if (structured) decoded.structured = structured;
  if (terminal && terminal.value.usage !== undefined) decoded.usage = terminal.value.usage;
  return decoded;
}

function readStatus(envelope: Envelope, terminal: Record<string, unknown> | undefined, documentCount: number): EnvelopeStatus {
  if (!terminal) {
    const stderr = envelope.stderr.trim();
    if (documentCount === 0 && envelope.exitCode !== 0 && STARTUP_REJECTION.some((re) => re.test(stderr))) {
      return { kind: 'startup-rejected', message: stderr };
    }
    return crashedStatus(envelope) ?? { kind: 'ok' };
  }
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
  if (typeof apiStatus === 'number' || terminal.terminal_reason === 'api_error') status.kind = 'provider-error';
  else if (terminal.is_error === true || (typeof terminal.subtype === 'string' && terminal.subtype.startsWith('error'))) status.kind = 'cli-error';
  return status;
}
