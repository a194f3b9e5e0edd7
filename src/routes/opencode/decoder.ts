/**
 * The opencode route decoder: `opencode/jsonl` (`opencode run --format json`), JSONL events
 * `{type, timestamp, sessionID, part | error}` with `type` in `step_start`, `text`, `tool_use`,
 * `reasoning`, `step_finish`, `error`. No schema flag, no structured field: the answer is JSON in the
 * `text` parts. There is no terminal "done" event (opencode issue #36413): a stream whose last
 * `step_start` has no `step_finish` (nor an `error`) after it, whose last `step_finish` says the run
 * goes on (`reason: "tool-calls"`: a tool loop is step_finish(tool-calls) -> step_start -> ... ->
 * step_finish(stop), multica-ai/multica#5238), or whose last line is cut, is incomplete and never
 * accepted. `reasoning` parts are never read.
 *
 * Facts (opencode 1.18.33 against the loopback Chat Completions mock, research/cli-envelopes.md
 * section 6, checked by probes/opencode.test.ts):
 * - event `type` is snake case (`step_finish`), `part.type` kebab case (`step-finish`); usage is per
 *   step in `step_finish.part.tokens`;
 * - a provider error is one `error` event
 *   `{"error":{"name":"APIError","data":{"message":..,"statusCode":400,"isRetryable":false,"responseBody":..}}}`,
 *   exit 1; a 5xx is retried first (5 retries, honouring `retry-after-ms`).
 */
import { pushCandidatesFromText, commentaryMark } from '#src/envelope/candidates.ts';
import { isPlainObject } from '#src/envelope/keys.ts';
import { crashedStatus, errorStatusFromCode, incompleteStatus, isHttpErrorStatus, noteLostOutput, pushApiErrorStatus, schemaRefusedStatus, statusInErrorText } from '#src/envelope/status.ts';
import { finishDecode, startDecode } from '#src/envelope/decodeParts.ts';
import { lastNonBlank, textReply } from '#src/envelope/reply.ts';
import type { Decoded, DecodeOptions, Envelope, EnvelopeStatus, RouteDecoder } from '#src/envelope/types.ts';

/** The opencode route. */
export const OPENCODE_ROUTE = 'opencode/jsonl';

/**
 * What an opencode `error` event says: a provider error when `error.data.statusCode` is an HTTP
 * error status (400-599), or, without one, when the message or the relayed `responseBody` carries
 * one ({@link statusInErrorText}; also for an `UnknownError`, whose message is the provider's
 * `429: {...}` or `OpenAI API error (429): {...}`, anomalyco/opencode#42033, #47747), else a CLI
 * error; the message is `error.data.message`, else `error.message`, else `error.name` or
 * `error.type`. The flat shape some builds print, `{ type: "provider.rate-limit", message: "Error
 * 429: ...", status: 429 }` (no `data`), is read the same way (`status` or `statusCode` beside the
 * message). A 400 whose message or body names the schema is `startup-rejected`
 * ({@link schemaRefusedStatus}) unless `afterModelTurn` (a text or tool part came first).
 */
export function opencodeErrorStatus(error: unknown, afterModelTurn = false): EnvelopeStatus {
  const e = isPlainObject(error) ? error : {};
  const data = isPlainObject(e.data) ? e.data : {};
  const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
  const message = text(data.message) ?? text(e.message) ?? text(e.name) ?? text(e.type) ?? 'error';
  const body = typeof data.responseBody === 'string' ? data.responseBody : '';
  const field = [data.statusCode, e.statusCode, e.status].find(isHttpErrorStatus);
  const code = field ?? statusInErrorText(message) ?? (body !== '' ? statusInErrorText(body) : null);
  return schemaRefusedStatus(errorStatusFromCode(code, message), [body], afterModelTurn);
}

/** `step_finish` reasons that say the run takes another step (the AI SDK's finish reason `tool-calls`). */
const CONTINUES = /^tool[-_ ]?calls?$/i;

/**
 * How opencode refuses its own invocation, nothing on stdout:
 * - 1.18.33 refuses an argument by printing only the usage of `opencode run` on stderr (no error
 *   line), exit 1: its first line is the CLI's only word for the refusal;
 * - `-s <id>` of a session it does not have: `Error: Session not found` (1.1.16,
 *   anomalyco/opencode#8502), `NotFoundError: Session not found: ses_x` (anomalyco/opencode#20799),
 *   or `NotFoundError: NotFoundError` then ` data: { message: "Session not found: ses_x" }` with
 *   **exit 0** (1.14.19, anomalyco/opencode#27559).
 */
const USAGE_REJECTION = [/^opencode run \[message\.\.\]/, /\bSession not found\b/];

/**
 * The opencode decoder. Candidates: the JSON in each `text` part (origin `assistant-text`) and the
 * input object of each `tool_use` part (origin `tool_use:<tool>`), in stream order; the texts are also the human-readable evidence. Status: the
 * last `error` event (provider error with its `statusCode`), else `ok`; no JSON at all with a
 * non-zero exit or a signal is a crash. Reply: the last non-blank `text` part (not commentary), with
 * the last `step_finish` tokens as usage.
 *
 * @example
 * opencodeDecoder().decode({ stdout: '{"type":"text","part":{"type":"text","text":"{\\"a\\":1}"}}\n', stderr: '', exitCode: 0, elapsedMs: 1 }).candidates[0]?.origin
 * // 'assistant-text'
 */
export function opencodeDecoder(): RouteDecoder {
  return {
    route: OPENCODE_ROUTE,
    header: 'opencode (run --format json)',
    detect: (envelope) => /"sessionID"\s*:/.test(envelope.stdout) && /"type"\s*:\s*"(?:step_start|text|step_finish|error)"/.test(envelope.stdout),
    decode: (envelope, options) => decodeOpencode(envelope, options),
  };
}

function decodeOpencode(envelope: Envelope, options: DecodeOptions = {}): Decoded {
  const { docs, notes, candidates, human, ancillary, event } = startDecode(envelope.stdout);
  let status: EnvelopeStatus = { kind: 'ok' };
  let terminal: Record<string, unknown> | undefined;
  let usage: unknown;
  let stepOpen = false;
  let sawError = false;
  const texts: string[] = [];
  let lastFinishReason: string | undefined;
  for (const doc of docs.documents) {
    const e = doc.value;
    if (!isPlainObject(e) || typeof e.type !== 'string') continue;
    terminal = e;
    const part = isPlainObject(e.part) ? e.part : undefined;
    if (e.type === 'step_start') stepOpen = true;
    else if (e.type === 'step_finish') {
      stepOpen = false;
      lastFinishReason = part && typeof part.reason === 'string' ? part.reason : undefined;
    }
    const mark = e.type === 'text' ? commentaryMark(part) : null;
    if (mark !== null) notes.push(`text part on line ${doc.line + 1} is marked ${mark}: not the answer`);
    else if (e.type === 'text' && part && typeof part.text === 'string') {
      if (part.text.trim() !== '') human.push(part.text);
      texts.push(part.text);
      pushCandidatesFromText(candidates, part.text, { origin: 'assistant-text', pointer: '/part/text', offset: doc.offset, ...event(doc.line) }, options.anchor, notes);
    } else if (e.type === 'tool_use' && part) {
      const state = isPlainObject(part.state) ? part.state : undefined;
      if (state && isPlainObject(state.input)) {
        candidates.push({ value: state.input, origin: `tool_use:${String(part.tool)}`, pointer: '/part/state/input', offset: doc.offset, nested: 0, ...event(doc.line) });
      }
    } else if (e.type === 'step_finish' && part && part.tokens !== undefined) {
      usage = part.tokens;
    } else if (e.type === 'error') {
      sawError = true;
      // An error after a text or tool part came after a model turn: never a schema refusal.
      status = opencodeErrorStatus(e.error, texts.length > 0 || candidates.length > 0);
      if (status.message) human.push(status.message);
    }
  }
  pushApiErrorStatus(status, ancillary);
  if (!terminal) {
    if (docs.documents.length > 0) notes.push('no opencode event in stdout');
    status = crashedStatus(envelope, envelope.stderr, USAGE_REJECTION) ?? status;
  } else if (status.kind === 'ok' && (docs.truncated || (stepOpen && !sawError))) {
    status = incompleteStatus(envelope, docs.truncated ? 'the last line of stdout is cut' : 'the last step_start has no step_finish', ancillary);
  } else if (status.kind === 'ok' && !sawError && lastFinishReason !== undefined && CONTINUES.test(lastFinishReason)) {
    status = incompleteStatus(envelope, `the last step_finish has reason "${lastFinishReason}": another step was due`, ancillary);
  }
  if (status.kind === 'ok') noteLostOutput(usage, candidates.length > 0 || human.length > 0, human, notes);
  const decoded = finishDecode(OPENCODE_ROUTE, { candidates, human, ancillary, notes, docs, reply: textReply(lastNonBlank(texts), 'assistant-text', usage) }, status, terminal, envelope, options);
  if (usage !== undefined) decoded.usage = usage;
  return decoded;
}
