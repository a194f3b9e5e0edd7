/**
 * The pi route decoder: `pi/json` (`pi -p --mode json`), JSONL events: the `session` header, then
 * `agent_start`, `turn_start`, `message_start` / `message_update` / `message_end`,
 * `tool_execution_*`, `turn_end`, `agent_end`, `auto_retry_start` / `auto_retry_end`. No schema
 * flag, no structured field: the answer is the text of the last `message_end` whose message has
 * `role: "assistant"`.
 *
 * Facts (pi 0.73.1 against the loopback Chat Completions mock, research/cli-envelopes.md section 8,
 * checked by probes/pi.test.ts):
 * - **exit 0 even on an API error** in json mode: the assistant `message_end` then has
 *   `stopReason: "error"`, `content: []` and `errorMessage: "<status> <provider message>"` (the
 *   OpenAI SDK's wording, e.g. `400 routecert mock: ...`, `529 Overloaded`), and a retried error ends
 *   with `auto_retry_end {success: false, finalError}`;
 * - `message_update`, `turn_end` and `agent_end` repeat the same messages: only `message_end` is read;
 * - `agent_end` closes every run: a stream without it (or with a cut last line) is incomplete, never
 *   accepted; `thinking` content blocks are never read;
 * - with an OpenAI Responses model each output message is a `text` block whose `textSignature` is
 *   `{"v":1,"id":..,"phase":"commentary"|"final_answer"}` (pi-ai openai-responses-shared.js): a block
 *   marked commentary is never the answer ({@link commentaryMark}).
 */
import { pushCandidatesFromText, commentaryMark } from '#src/envelope/candidates.ts';
import { isPlainObject } from '#src/envelope/keys.ts';
import { crashedStatus, errorStatusFromCode, incompleteStatus, noteLostOutput, pushApiErrorStatus, schemaRefusedStatus, statusInErrorText } from '#src/envelope/status.ts';
import { finishDecode, startDecode } from '#src/envelope/decodeParts.ts';
import { textReply } from '#src/envelope/reply.ts';
import type { Decoded, DecodeOptions, Envelope, EnvelopeStatus, RouteDecoder } from '#src/envelope/types.ts';

/** The pi route. */
export const PI_ROUTE = 'pi/json';

/**
 * What an assistant message with `stopReason: "error"` says: a provider error when its
 * `errorMessage` carries an HTTP error status, at its start (`529 Overloaded`, the OpenAI SDK's
 * APIError wording) or inside the provider body it relays (`Codex error: {..."status_code":429...}`,
 * earendil-works/pi#4172; {@link statusInErrorText}); a provider error without a status when the
 * message has the provider's `responseId` (`answered`): the provider opened a response and failed
 * it in the stream (an OpenAI Responses `response.failed`, e.g. "You exceeded your current quota,
 * ..." with no status; a public capture of pi with gpt-4o, jamesmurdza/background-agents
 * packages/sdk/tests/fixtures/jsonl-reference/pi-openai-error.jsonl); else a CLI error (`Connection
 * error.`: no answer from the provider). A 400 naming the schema is `startup-rejected`
 * ({@link schemaRefusedStatus}).
 */
export function piErrorStatus(errorMessage: string, answered = false): EnvelopeStatus {
  const status = errorStatusFromCode(statusInErrorText(errorMessage), errorMessage);
  return schemaRefusedStatus(status.kind === 'cli-error' && answered ? { kind: 'provider-error', message: errorMessage } : status);
}

/**
 * The pi decoder. Candidates: the JSON in the `text` blocks (not marked commentary:
 * {@link commentaryMark}) of every assistant `message_end` (origin `assistant-text`) and the arguments of its `toolCall` blocks (origin `tool_use:<name>`),
 * in stream order; the texts are also the human-readable evidence. Status: from the last assistant `message_end` (an error stop reason is a provider
 * error when its message starts with the HTTP status); never from the exit code, which is 0 either way.
 * Reply: the joined text blocks of the last assistant `message_end` with text, its `usage` as usage.
 *
 * @example
 * piDecoder().decode({ stdout: '{"type":"message_end","message":{"role":"assistant","content":[],"stopReason":"error","errorMessage":"400 bad"}}\n', stderr: '', exitCode: 0, elapsedMs: 1 }).status
 * // { kind: 'provider-error', apiErrorStatus: 400, message: '400 bad' }
 */
export function piDecoder(): RouteDecoder {
  return {
    route: PI_ROUTE,
    header: 'pi (--mode json)',
    detect: (envelope) => /"type"\s*:\s*"(?:session|message_end|agent_end)"/.test(envelope.stdout),
    decode: (envelope, options) => decodePi(envelope, options),
  };
}

function decodePi(envelope: Envelope, options: DecodeOptions = {}): Decoded {
  const { docs, notes, candidates, human, ancillary, event } = startDecode(envelope.stdout);
  let status: EnvelopeStatus = { kind: 'ok' };
  let terminal: Record<string, unknown> | undefined;
  let ended = false;
  let replyText: string | undefined;
  for (const doc of docs.documents) {
    const e = doc.value;
    if (!isPlainObject(e) || typeof e.type !== 'string') continue;
    if (e.type === 'agent_end') ended = true;
    if (e.type !== 'message_end' || !isPlainObject(e.message) || e.message.role !== 'assistant') continue;
    const message = e.message;
    terminal = message;
    const content = Array.isArray(message.content) ? message.content : [];
    // A text block marked commentary (its OpenAI Responses `textSignature` phase) is never the answer.
    const isAnswerText = (b: unknown): b is { text: string } => isPlainObject(b) && b.type === 'text' && typeof b.text === 'string' && commentaryMark(b) === null;
    const texts = content.flatMap((b) => (isAnswerText(b) ? [b.text] : []));
    if (texts.join('').trim() !== '') replyText = texts.join('');
    content.forEach((block, i) => {
      if (!isPlainObject(block)) return;
      const pointer = `/message/content/${i}`;
      const mark = block.type === 'text' ? commentaryMark(block) : null;
      if (mark !== null) {
        notes.push(`text block ${i} of the assistant message_end on line ${doc.line + 1} is marked ${mark}: not the answer`);
      } else if (block.type === 'text' && typeof block.text === 'string') {
        if (block.text.trim() !== '') human.push(block.text);
        pushCandidatesFromText(candidates, block.text, { origin: 'assistant-text', pointer: `${pointer}/text`, offset: doc.offset, ...event(doc.line) }, options.anchor, notes);
      } else if (block.type === 'toolCall' && isPlainObject(block.arguments)) {
        candidates.push({ value: block.arguments, origin: `tool_use:${String(block.name)}`, pointer: `${pointer}/arguments`, offset: doc.offset, nested: 0, ...event(doc.line) });
      }
    });
    // The last assistant message decides: an answer after a retried error clears the error.
    if (message.stopReason === 'error' || message.stopReason === 'aborted') {
      const text = typeof message.errorMessage === 'string' && message.errorMessage !== '' ? message.errorMessage : `stopReason ${String(message.stopReason)}`;
      status = piErrorStatus(text, typeof message.responseId === 'string' && message.responseId !== '');
      human.push(text);
    } else {
      status = { kind: 'ok' };
    }
  }
  pushApiErrorStatus(status, ancillary);
  if (!terminal) {
    if (docs.documents.length > 0) notes.push('no assistant message_end in stdout');
    status = crashedStatus(envelope) ?? status;
  }
  if (docs.documents.length > 0 && (docs.truncated || !ended)) {
    const reason = docs.truncated ? 'the last line of stdout is cut' : 'no terminal {"type":"agent_end"} event';
    status = status.kind === 'ok' || status.kind === 'crashed' ? incompleteStatus(envelope, reason, ancillary) : { ...status, incomplete: reason };
  }
  if (terminal && status.kind === 'ok') noteLostOutput(terminal.usage, candidates.length > 0 || human.length > 0, human, notes);
  const decoded = finishDecode(PI_ROUTE, { candidates, human, ancillary, notes, docs, reply: textReply(replyText, 'assistant-text', terminal?.usage) }, status, terminal, envelope, options);
  if (terminal && terminal.usage !== undefined) decoded.usage = terminal.usage;
  return decoded;
}
