/**
 * The grok-cli route decoder: `grok-cli/jsonl`. Three framings, told apart by their events:
 *
 * 1. **messages** (`@vibe-kit/grok-cli` 0.0.34, `grok -p <prompt>`): JSONL of OpenAI-chat-style
 *    messages, one per line: `{"role":"user","content":..}`, `{"role":"assistant","content":..,
 *    "tool_calls"?:[..]}`, `{"role":"tool","tool_call_id":..,"content":..}`. No usage, no
 *    structured field, no schema flag, no terminal event.
 * 2. **chunks** (`superagent-ai/grok-cli` `grok --prompt --format json`, grok-cli#174 / PR #185):
 *    the stream chunks as NDJSON, `{"type":"content","content":<piece>}`, `{"type":"tool_calls",
 *    "toolCalls":[..]}`, `{"type":"tool_result","toolCall":..,"toolResult":..}`, `{"type":
 *    "reasoning",..}`, `{"type":"error","content":..}`, ending with `{"type":"done"}`.
 * 3. **steps** (later `superagent-ai/grok-cli`, `src/headless/output.ts` `HeadlessJsonEvent`):
 *    `step_start`, `text {text}`, `tool_use {toolCall, toolResult}`, `step_finish {finishReason,
 *    usage: {inputTokens, outputTokens}}`, `error {message}`, ending with `run_finish {success,
 *    exitCode, errorCount}`.
 *
 * In chunks and steps the answer text is split: consecutive `content` chunks (or `text` events)
 * are one text, assembled before it is read; a tool call or result, a step boundary or an error
 * ends it. So the text after the last tool result is read whole. `reasoning` chunks are never read.
 * Without its terminal event (`done`, `run_finish`) such a stream is incomplete, never accepted.
 *
 * Facts (grok-cli 0.0.34 against the loopback mock, research/cli-envelopes.md section 9a, checked
 * by probes/grokCli.test.ts):
 * - the `user` line repeats the prompt, schema included: it is never read for answers;
 * - an API error becomes the assistant message `Sorry, I encountered an error: Grok API error:
 *   <status> <message>` with exit 0 (the OpenAI SDK's `<status> <message>` wording);
 * - an exception outside the agent loop prints `{"role":"assistant","content":"Error: <message>"}`
 *   and exits 1; a missing key prints `❌ Error: API key required...` on stderr, exit 1, no stdout.
 */
import { pushCandidatesFromText } from '#src/envelope/candidates.ts';
import { isPlainObject } from '#src/envelope/keys.ts';
import { crashedStatus, errorStatusFromCode, httpStatusIn, incompleteStatus, noteLostOutput, pushApiErrorStatus, schemaRefusedStatus, statusInErrorText } from '#src/envelope/status.ts';
import { finishDecode, startDecode, type DecodeParts } from '#src/envelope/decodeParts.ts';
import { lastNonBlank, textReply } from '#src/envelope/reply.ts';
import type { JsonDocument } from '#src/envelope/jsonl.ts';
import type { Decoded, DecodeOptions, Envelope, EnvelopeStatus, RouteDecoder } from '#src/envelope/types.ts';

/** The prefix grok-cli 0.0.34 gives an error turned into an assistant message (`grok-agent.js`). */
export const GROK_CLI_ERROR_PREFIX = 'Sorry, I encountered an error: ';

/** `Grok API error: <status> ...` inside the error message: the HTTP status the provider answered. */
const API_ERROR = /^Grok API error: (\d{3})\b/;

/**
 * What an assistant message says about failure: a provider error with its HTTP status
 * (`Sorry, I encountered an error: Grok API error: 529 Overloaded`), another CLI error
 * (`Sorry, I encountered an error: No response from Grok`, or `Error: ...` with a non-zero exit),
 * or `null` for an ordinary answer.
 */
export function grokCliErrorStatus(content: string, exitCode: number | null): EnvelopeStatus | null {
  if (content.startsWith(GROK_CLI_ERROR_PREFIX)) {
    const rest = content.slice(GROK_CLI_ERROR_PREFIX.length);
    return schemaRefusedStatus(errorStatusFromCode(httpStatusIn(rest, API_ERROR) ?? statusInErrorText(rest.replace(/^Grok API error:\s*/, '')), content));
  }
  if (exitCode !== null && exitCode !== 0 && content.startsWith('Error: ')) return { kind: 'cli-error', message: content };
  return null;
}

/** Event types of the chunk framing (PR #185) and of the step framing (`HeadlessJsonEvent`). */
const CHUNK_TYPES = new Set(['content', 'tool_calls', 'tool_result', 'done', 'reasoning']);
const STEP_TYPES = new Set(['step_start', 'text', 'tool_use', 'step_finish', 'run_finish']);

/** Which framing stdout uses: `messages` when any line has a `role`, else by the event types. */
export function grokCliFraming(documents: JsonDocument[]): 'messages' | 'chunks' | 'steps' {
  let chunks = 0;
  let steps = 0;
  for (const d of documents) {
    if (!isPlainObject(d.value)) continue;
    if (typeof d.value.role === 'string') return 'messages';
    const type = String(d.value.type);
    if (STEP_TYPES.has(type)) steps += 1;
    else if (CHUNK_TYPES.has(type)) chunks += 1;
  }
  return steps > 0 && steps >= chunks ? 'steps' : chunks > 0 ? 'chunks' : 'messages';
}

/** `Grok API error: 429 ...` or `429 ...` at the start of an error text: its HTTP status. */
const ERROR_STATUS = /^(?:Grok API error: )?(\d{3})\b/;

/**
 * The grok-cli decoder. Candidates: the JSON in each assistant message's `content` (origin
 * `assistant-text`), and the parsed `arguments` of each assistant tool call (origin
 * `tool_use:<name>`), in stream order; error messages are evidence, never candidates. The
 * terminal object is the last assistant message. Reply: the last non-blank assistant text that is
 * not an error (messages), or the last assembled text (chunks, steps; summed step usage).
 *
 * @example
 * grokCliDecoder().decode({ stdout: '{"role":"assistant","content":"Sorry, I encountered an error: Grok API error: 400 bad"}\n', stderr: '', exitCode: 0, elapsedMs: 1 }).status
 * // { kind: 'provider-error', apiErrorStatus: 400, message: 'Sorry, I encountered an error: Grok API error: 400 bad' }
 */
export function grokCliDecoder(): RouteDecoder {
  const route = 'grok-cli/jsonl';
  return {
    route,
    header: 'grok-cli (jsonl)',
    detect: (envelope) =>
      (/"role"\s*:\s*"(?:assistant|user)"/.test(envelope.stdout) && !/"type"\s*:/.test(envelope.stdout.slice(0, 200))) ||
      /"type"\s*:\s*"(?:run_finish|step_start)"|"toolCalls"\s*:|^\{"type"\s*:\s*"content"/m.test(envelope.stdout),
    decode: (envelope, options = {}) => {
      const parts = startDecode(envelope.stdout);
      const framing = grokCliFraming(parts.docs.documents);
      return framing === 'messages' ? decodeGrokCli(route, envelope, options, parts) : decodeStream(route, framing, envelope, options, parts);
    },
  };
}

function decodeGrokCli(route: string, envelope: Envelope, options: DecodeOptions, parts: DecodeParts): Decoded {
  const { docs, notes, candidates, human, ancillary, event } = parts;
  let status: EnvelopeStatus = { kind: 'ok' };
  let terminal: Record<string, unknown> | undefined;
  const texts: string[] = [];
  for (const doc of docs.documents) {
    const m = doc.value;
    if (!isPlainObject(m) || m.role !== 'assistant') continue;
    terminal = m;
    const content = typeof m.content === 'string' ? m.content : '';
    const error = content === '' ? null : grokCliErrorStatus(content, envelope.exitCode);
    if (content.trim() !== '') human.push(content);
    // The last assistant message decides: an error after an answer (or an answer after an error) wins.
    status = error ?? { kind: 'ok' };
    if (error) continue;
    texts.push(content);
    pushCandidatesFromText(candidates, content, { origin: 'assistant-text', pointer: '/content', offset: doc.offset, ...event(doc.line) }, options.anchor);
    if (Array.isArray(m.tool_calls)) {
      m.tool_calls.forEach((call, i) => {
        const fn = isPlainObject(call) && isPlainObject(call.function) ? call.function : undefined;
        if (!fn || typeof fn.arguments !== 'string') return;
        let value: unknown;
        try {
          value = JSON.parse(fn.arguments);
        } catch {
          return;
        }
        if (isPlainObject(value)) {
          candidates.push({ value, origin: `tool_use:${String(fn.name)}`, pointer: `/tool_calls/${i}/function/arguments`, offset: doc.offset, nested: 1, ...event(doc.line) });
        }
      });
    }
  }
  pushApiErrorStatus(status, ancillary);
  if (!terminal) {
    if (docs.documents.length > 0) notes.push('no assistant message in stdout');
    status = crashedStatus(envelope) ?? status;
  }
  if (docs.truncated && status.kind !== 'provider-error') status = incompleteStatus(envelope, 'the last line of stdout is cut', ancillary);
  return finishDecode(route, { candidates, human, ancillary, notes, framing: 'messages', reply: textReply(lastNonBlank(texts), 'assistant-text') }, status, terminal, envelope, options);
}

/** One assembled text: the pieces of consecutive `content` chunks or `text` events. */
interface Segment {
  text: string;
  line: number;
  offset: number;
  pieces: number;
}

/** The tool call arguments of a `tool_calls` chunk or a `tool_use` event, as candidates. */
function toolCallCandidates(calls: unknown, pointer: string, doc: JsonDocument, parts: DecodeParts): void {
  const list = Array.isArray(calls) ? calls : [calls];
  list.forEach((call, i) => {
    const fn = isPlainObject(call) && isPlainObject(call.function) ? call.function : undefined;
    if (!fn || typeof fn.arguments !== 'string') return;
    let value: unknown;
    try {
      value = JSON.parse(fn.arguments);
    } catch {
      return;
    }
    if (isPlainObject(value)) {
      const at = Array.isArray(calls) ? `${pointer}/${i}/function/arguments` : `${pointer}/function/arguments`;
      parts.candidates.push({ value, origin: `tool_use:${String(fn.name)}`, pointer: at, offset: doc.offset, nested: 1, ...parts.event(doc.line) });
    }
  });
}

/** What an `error` chunk or event says: a provider error with its HTTP status when it starts with one. */
function streamErrorStatus(message: string): EnvelopeStatus {
  if (message.startsWith(GROK_CLI_ERROR_PREFIX)) return grokCliErrorStatus(message, 1) ?? { kind: 'cli-error', message };
  return schemaRefusedStatus(errorStatusFromCode(httpStatusIn(message, ERROR_STATUS) ?? statusInErrorText(message), message));
}

function decodeStream(route: string, framing: 'chunks' | 'steps', envelope: Envelope, options: DecodeOptions, parts: DecodeParts): Decoded {
  const { docs, notes, candidates, human, ancillary, event } = parts;
  const textType = framing === 'chunks' ? 'content' : 'text';
  const textField = framing === 'chunks' ? 'content' : 'text';
  const terminalType = framing === 'chunks' ? 'done' : 'run_finish';
  const segments: Segment[] = [];
  let open: Segment | undefined;
  // A text is read when it closes, so candidates stay in stream order (tool calls between texts).
  const close = () => {
    if (!open) return;
    const segment = open;
    open = undefined;
    if (segment.text.trim() !== '') human.push(segment.text);
    if (segment.pieces > 1) notes.push(`assembled the text on line ${segment.line + 1} from ${segment.pieces} ${textType} events`);
    pushCandidatesFromText(candidates, segment.text, { origin: 'assistant-text', pointer: `/${textField}`, offset: segment.offset, ...event(segment.line) }, options.anchor, notes);
  };
  let status: EnvelopeStatus = { kind: 'ok' };
  let terminal: Record<string, unknown> | undefined;
  let last: Record<string, unknown> | undefined;
  const usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  let sawUsage = false;
  for (const doc of docs.documents) {
    const e = doc.value;
    if (!isPlainObject(e) || typeof e.type !== 'string') continue;
    last = e;
    if (e.type === textType) {
      const piece = typeof e[textField] === 'string' ? (e[textField] as string) : '';
      if (open) {
        open.text += piece;
        open.pieces += 1;
      } else {
        open = { text: piece, line: doc.line, offset: doc.offset, pieces: 1 };
        segments.push(open);
      }
      continue;
    }
    if (e.type === 'reasoning') continue; // never the answer, and it does not split the text
    close();
    if (e.type === 'tool_calls') toolCallCandidates(e.toolCalls, '/toolCalls', doc, parts);
    else if (e.type === 'tool_use') toolCallCandidates(e.toolCall, '/toolCall', doc, parts);
    else if (e.type === 'error') {
      const message = typeof e.message === 'string' ? e.message : typeof e.content === 'string' ? e.content : 'error';
      status = streamErrorStatus(message);
      human.push(message);
    } else if (e.type === 'step_finish' && isPlainObject(e.usage)) {
      sawUsage = true;
      for (const k of ['inputTokens', 'outputTokens', 'totalTokens'] as const) if (typeof e.usage[k] === 'number') usage[k] += e.usage[k] as number;
    } else if (e.type === terminalType) {
      terminal = e;
    }
  }
  close();
  if (terminal && terminal.type === 'run_finish' && terminal.success === false && status.kind === 'ok') {
    status = { kind: 'cli-error', message: `run_finish success false (exitCode ${String(terminal.exitCode)}, errorCount ${String(terminal.errorCount)})` };
  }
  pushApiErrorStatus(status, ancillary);
  if (!last) {
    status = crashedStatus(envelope) ?? status;
  } else if (!terminal || docs.truncated) {
    notes.push(`no terminal {"type":"${terminalType}"} event in stdout`);
    const reason = docs.truncated ? 'the last line of stdout is cut' : `no terminal {"type":"${terminalType}"} event`;
    status = status.kind === 'ok' ? incompleteStatus(envelope, reason, ancillary) : { ...status, incomplete: reason };
  }
  if (sawUsage && status.kind === 'ok') noteLostOutput(usage, candidates.length > 0 || segments.some((s) => s.text.trim() !== ''), human, notes);
  const reply = textReply(lastNonBlank(segments.map((s) => s.text)), 'assistant-text', sawUsage ? usage : undefined);
  const decoded = finishDecode(route, { candidates, human, ancillary, notes, framing, reply }, status, terminal ?? last, envelope, options);
  if (sawUsage) decoded.usage = usage;
  return decoded;
}
