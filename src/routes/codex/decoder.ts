/**
 * The Codex route decoder, `codex/jsonl`: `codex exec --json --output-schema FILE -o FILE ...`,
 * JSONL events on stdout plus the `-o` side file (role `last-message`).
 *
 * Facts (Codex 0.171.0, research/cli-envelopes.md section 3, checked against the real CLI by the
 * hermetic probes in probes/codex.test.ts):
 * - events: `thread.started`, `turn.started`, `item.started|item.updated|item.completed {item}`,
 *   `turn.completed {usage}`, `turn.failed {error:{message}}`, `error {message}`; the answer is the
 *   `text` of an `item.completed` whose `item.type` is `agent_message`, a JSON **string**;
 * - progress ("commentary") messages are `agent_message` items too, and `text.format` constrains
 *   them as well (openai/codex#19816), so an earlier message can be schema-shaped: the last one
 *   is the answer, never the first;
 * - `-o FILE` holds the last agent message's raw text; it is empty when the turn fails or the run
 *   is killed before an answer, and absent when Codex refuses to start;
 * - Codex does not validate the schema client-side: a prose answer is a normal `agent_message`,
 *   `turn.completed` and exit 0, so exit 0 is not success;
 * - `item.completed` items of type `error` (e.g. ``Model metadata for `m` not found``) and
 *   `error` events `Reconnecting... n/5 (...)` are not failures; `turn.failed` is;
 * - the `turn.failed` message of an HTTP 400 is the provider's raw error body (a JSON string, e.g.
 *   `{"error":{"code":"invalid_json_schema","param":"text.format.schema",...}}`); any other status
 *   reads `unexpected status 404 Not Found: <message>, url: ...` or `exceeded retry limit, last
 *   status: 429 Too Many Requests`; a 500 reads `We’re currently experiencing high demand, ...`
 *   (no status). Observed for 400, 401, 404, 422, 429, 500, 503 and 529;
 * - a schema file Codex cannot read or parse stops it before any event: stderr
 *   `Failed to read output schema file X: ...` / `Output schema file X is not valid JSON: ...`, exit 1.
 */
import { readJsonDocuments } from '#src/envelope/jsonl.ts';
import { candidatesFromText, dedupeCandidates } from '#src/envelope/candidates.ts';
import { isPlainObject } from '#src/envelope/keys.ts';
import { crashedStatus } from '#src/envelope/status.ts';
import type { Candidate, Decoded, DecodeOptions, Envelope, EnvelopeStatus, RouteDecoder } from '#src/envelope/types.ts';

/** The route this decoder reads. */
export const CODEX_ROUTE = 'codex/jsonl';

/** The side-file role of the `-o` file (`Envelope.files`). */
export const CODEX_LAST_MESSAGE_FILE = 'last-message';

/** stderr lines by which Codex 0.171.0 refuses to start (no JSONL at all). */
const STARTUP_REJECTION = [/output schema file/i, /^error: (?:unexpected argument|invalid value|the argument)/im];

/**
 * A provider failure as Codex words it, read back: the HTTP status when the words give it, the
 * provider's own message, and the OpenAI error `code` when the raw body is there.
 *
 * - a raw OpenAI error body (`{"error":{"message",...,"code"}}`): Codex 0.171.0 prints the body
 *   verbatim only for HTTP 400 (observed; every other status is worded as below), so the status is 400;
 * - `unexpected status <n> ...` and `... last status: <n> ...`: that status;
 * - anything else: status `null`.
 *
 * @example
 * readCodexFailure('unexpected status 529 <unknown status code>: Overloaded, url: http://x/v1/responses')
 * // => { status: 529, message: 'unexpected status 529 <unknown status code>: Overloaded, url: http://x/v1/responses', code: null }
 */
export function readCodexFailure(text: string): { status: number | null; message: string; code: string | null } {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      const body = JSON.parse(trimmed) as unknown;
      const error = isPlainObject(body) && isPlainObject(body.error) ? body.error : null;
      if (error) {
        const message = typeof error.message === 'string' && error.message !== '' ? error.message : trimmed;
        return { status: 400, message, code: typeof error.code === 'string' ? error.code : null };
      }
    } catch {
      // Not JSON after all: read it as words.
    }
  }
  const m = /\b(?:unexpected status|last status:?)\s+(\d{3})\b/i.exec(trimmed);
  const status = m ? Number(m[1]) : null;
  return { status: status !== null && status >= 400 && status <= 599 ? status : null, message: trimmed, code: null };
}

interface AgentMessage {
  text: string;
  line: number;
  offset: number;
}

/**
 * The Codex decoder for `codex/jsonl`.
 *
 * Candidates, in this order (ties go to the later one, so the last answer wins):
 * 1. every `agent_message` item's `text`, in stream order (origin `assistant-text`, pointer
 *    `/item/text`, `event` = its stdout line): the JSON object it holds, fenced or in prose;
 * 2. the `-o` file (origin `last-message`, pointer `""`, offset `stdout.length` since it is not in
 *    stdout), last.
 * Equal values are kept once, at their **last** place, so the `-o` copy of the last message keeps
 * origin `last-message`. `structured` is the candidate of Codex's answer channel: the `-o` file when
 * it holds one JSON object, else the last `agent_message` when its whole text is one JSON object.
 *
 * Status: `turn.failed` (else a trailing `error` event without `turn.completed` on a non-zero exit)
 * is a `provider-error` with the status {@link readCodexFailure} finds; one whose body carries
 * `code: "invalid_json_schema"` is a `startup-rejected`: the provider refused the schema before
 * the model said anything (DESIGN "startup-rejected"), with the provider's message. No JSONL and a
 * Codex startup line on stderr is `startup-rejected`; no JSONL and a non-zero exit or a signal is
 * `crashed`. `usage` is `turn.completed.usage`.
 *
 * @example
 * const decoded = codexDecoder().decode({ stdout, stderr: '', exitCode: 0, elapsedMs: 900, files: { 'last-message': text } });
 * decoded.structured?.origin // => 'last-message'
 */
export function codexDecoder(): RouteDecoder {
  return {
    route: CODEX_ROUTE,
    header: 'Codex exec --json (JSONL + -o last message)',
    detect: (envelope) => /"type"\s*:\s*"(?:thread\.started|turn\.(?:started|completed|failed))"/.test(envelope.stdout),
    decode: (envelope, options) => decodeCodex(envelope, options),
  };
}

function decodeCodex(envelope: Envelope, options: DecodeOptions = {}): Decoded {
  const docs = readJsonDocuments(envelope.stdout);
  const notes = [...docs.notes];
  const anchor = options.anchor;
  const messages: AgentMessage[] = [];
  const errorEvents: string[] = [];
  const itemErrors: string[] = [];
  let completed: Record<string, unknown> | undefined;
  let failed: Record<string, unknown> | undefined;
  let terminal: Record<string, unknown> | undefined;

  for (const doc of docs.documents) {
    const v = doc.value;
    if (!isPlainObject(v)) continue;
    switch (v.type) {
      case 'item.completed': {
        const item = v.item;
        if (!isPlainObject(item)) break;
        if (item.type === 'agent_message' && typeof item.text === 'string') messages.push({ text: item.text, line: doc.line, offset: doc.offset });
        else if (item.type === 'error' && typeof item.message === 'string') itemErrors.push(item.message);
        break;
      }
      case 'turn.completed':
        completed = v;
        terminal = v;
        break;
      case 'turn.failed':
        failed = v;
        terminal = v;
        break;
      case 'error':
        if (typeof v.message === 'string') errorEvents.push(v.message);
        break;
      default:
        break;
    }
  }
  for (const e of itemErrors) notes.push(`non-fatal error item: ${e}`);

  // 1. Agent messages, in stream order.
  const candidates: Candidate[] = [];
  let lastMessageWhole: Candidate | undefined;
  for (const m of messages) {
    const at = { origin: 'assistant-text', pointer: '/item/text', offset: m.offset, event: m.line };
    const whole = wholeObject(m.text);
    if (whole !== undefined) {
      // The whole text is the answer object (a JSON string in the event: one string layer).
      lastMessageWhole = { ...at, value: whole, nested: 1 };
      candidates.push(lastMessageWhole);
    } else {
      lastMessageWhole = undefined;
      candidates.push(...candidatesFromText(m.text, at, anchor));
    }
  }

  // 2. The -o file, last.
  let fileWhole: Candidate | undefined;
  const file = envelope.files?.[CODEX_LAST_MESSAGE_FILE];
  if (typeof file === 'string' && file.trim() !== '') {
    const at = { origin: 'last-message', pointer: '', offset: envelope.stdout.length };
    const whole = wholeObject(file);
    if (whole !== undefined) {
      fileWhole = { ...at, value: whole, nested: 0 };
      candidates.push(fileWhole);
    } else {
      // The file is raw text, not a JSON string field: one string layer less than candidatesFromText counts.
      candidates.push(...candidatesFromText(file, at, anchor).map((c) => ({ ...c, nested: Math.max(0, c.nested - 1) })));
    }
  }

  const kept = dedupeCandidates([...candidates].reverse()).reverse();
  const structured = [fileWhole, lastMessageWhole].find((c) => c !== undefined && kept.includes(c));

  const human: string[] = [];
  const ancillary: string[] = [];
  const lastMessage = messages.at(-1);
  if (lastMessage && lastMessage.text.trim() !== '') human.push(lastMessage.text);
  if (lastMessage && wholeObject(lastMessage.text) === undefined && !failed) {
    notes.push('the last agent_message is not one JSON object (Codex does not validate --output-schema output; its exit code says nothing about it)');
  }
  const { status, code } = readStatus(envelope, docs.documents.length, failed, completed, errorEvents);
  if (status.kind !== 'ok' && status.message) human.push(status.message);
  if (typeof status.apiErrorStatus === 'number') ancillary.push(`api_error_status=${status.apiErrorStatus}`);
  if (code !== null) ancillary.push(`error_code=${code}`);
  if (docs.documents.length > 0 && !completed && !failed) notes.push('no turn.completed or turn.failed event: the turn never ended');

  const decoded: Decoded = {
    route: CODEX_ROUTE,
    candidates: kept,
    status,
    human,
    ancillary,
    keys: terminal ? Object.keys(terminal) : [],
    notes,
  };
  if (structured) decoded.structured = structured;
  if (completed && completed.usage !== undefined) decoded.usage = completed.usage;
  return decoded;
}

/** The value of `text` when the whole text is one JSON object, else `undefined`. */
function wholeObject(text: string): Record<string, unknown> | undefined {
  const t = text.trim();
  if (!t.startsWith('{')) return undefined;
  try {
    const v = JSON.parse(t) as unknown;
    return isPlainObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

function readStatus(
  envelope: Envelope,
  documentCount: number,
  failed: Record<string, unknown> | undefined,
  completed: Record<string, unknown> | undefined,
  errorEvents: string[],
): { status: EnvelopeStatus; code: string | null } {
  let failureText: string | undefined;
  if (failed) {
    const error = failed.error;
    failureText = isPlainObject(error) && typeof error.message === 'string' ? error.message : typeof error === 'string' ? error : 'turn.failed';
  } else if (!completed && errorEvents.length > 0 && (envelope.exitCode !== 0 || envelope.signal)) {
    failureText = errorEvents.at(-1);
  }
  if (failureText !== undefined) {
    const f = readCodexFailure(failureText);
    const status: EnvelopeStatus = {
      kind: f.code === 'invalid_json_schema' ? 'startup-rejected' : 'provider-error',
      message: f.message,
      apiErrorStatus: f.status,
      isError: true,
    };
    return { status, code: f.code };
  }
  if (documentCount === 0) {
    const stderr = envelope.stderr.trim();
    if (envelope.exitCode !== 0 && envelope.exitCode !== null && STARTUP_REJECTION.some((re) => re.test(stderr))) {
      const line = stderr.split(/\r?\n/).find((l) => STARTUP_REJECTION.some((re) => re.test(l))) ?? stderr;
      return { status: { kind: 'startup-rejected', message: line.trim() }, code: null };
    }
  }
  const crashed = completed ? null : crashedStatus(envelope);
  if (crashed) return { status: crashed, code: null };
  return { status: { kind: 'ok' }, code: null };
}
