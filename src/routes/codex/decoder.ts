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
 * - newer releases mark them: `phase: "commentary"` vs `phase: "final_answer"` (openai/codex#30190,
 *   0.146 app-server v2 phase); a message marked commentary is never a candidate, and the `-o` file,
 *   which holds the last message whatever its phase, is not read when it repeats a commentary message;
 * - `reasoning`, `plan`, `todo_list`, `command_execution`, ... items and `item.plan.delta` events
 *   are never the answer (codex-rs/exec/src/exec_events.rs);
 * - the first releases of this format (openai/codex#4525, 2025-09-30, which removed the legacy
 *   `{"id","msg"}` format) spelled the item kind `item_type` and the message `assistant_message`:
 *   both spellings are read;
 * - the legacy format before it (Codex 0.1x to 0.4x `exec --json`, parsed by consumers such as
 *   vibe-kanban's codex executor): a config summary object and a `{"prompt":..}` line, then one
 *   `{"id","msg":{type,...}}` per event: `agent_message {message}` (the answer), `agent_reasoning`,
 *   `exec_command_*`, `token_count`, `error {message}`, `stream_error`, ending with
 *   `task_complete {last_agent_message}`; read with the same rules, `task_complete` as the turn's end;
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
import { framingOf, jsonEvents, readJsonDocuments } from '#src/envelope/jsonl.ts';
import { candidatesFromText, pushCandidatesFromText, commentaryMark, dedupeCandidates, withCandidateFields } from '#src/envelope/candidates.ts';
import { envelopeFacts } from '#src/envelope/decodeParts.ts';
import { textReply } from '#src/envelope/reply.ts';
import { isPlainObject } from '#src/envelope/keys.ts';
import { crashedStatus, incompleteStatus, noteLostOutput, schemaRefusedStatus } from '#src/envelope/status.ts';
import type { Candidate, Decoded, DecodeOptions, Envelope, EnvelopeStatus, Reply, RouteDecoder } from '#src/envelope/types.ts';
import { pushAll } from '#src/arrays.ts';

/** The route this decoder reads. */
export const CODEX_ROUTE = 'codex/jsonl';

/** The side-file role of the `-o` file (`Envelope.files`). */
export const CODEX_LAST_MESSAGE_FILE = 'last-message';

/** An event of the legacy `{"id","msg"}` format (before openai/codex#4525). */
const LEGACY_EVENT = /"msg"\s*:\s*\{\s*"type"\s*:\s*"(?:task_started|task_complete|agent_message|session_configured)"/;

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
 * Status: a `turn.failed` of a limit Codex enforces itself (a rollout token budget,
 * openai/codex#37676) is a `cli-error`; any other `turn.failed` (else a trailing `error` event without
 * `turn.completed` on a non-zero exit) is a `provider-error` with the status {@link readCodexFailure} finds; one whose body carries
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
    detect: (envelope) => /"type"\s*:\s*"(?:thread\.started|turn\.(?:started|completed|failed))"/.test(envelope.stdout) || LEGACY_EVENT.test(envelope.stdout),
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
  const commentary = new Set<string>();
  let completed: Record<string, unknown> | undefined;
  let failed: Record<string, unknown> | undefined;
  let terminal: Record<string, unknown> | undefined;
  let legacy = false;
  let legacyUsage: unknown;

  // JSONL as Codex prints it; a whole-document array of the same events (a capture tool's, or a
  // future framing) is read event by event too, so a framing change is drift, not a lost answer.
  for (const doc of jsonEvents(docs)) {
    const v = doc.value;
    if (v.type === undefined && isPlainObject(v.msg)) {
      // The legacy `{"id","msg"}` format: its events mapped onto the ones below.
      const msg = v.msg;
      if (msg.type === 'agent_message' && typeof msg.message === 'string') messages.push({ text: msg.message, line: doc.line, offset: doc.offset });
      else if (msg.type === 'task_complete') {
        completed = { ...msg, ...(legacyUsage !== undefined ? { usage: legacyUsage } : {}) };
        terminal = msg;
      } else if ((msg.type === 'error' || msg.type === 'stream_error') && typeof msg.message === 'string') errorEvents.push(msg.message);
      else if (msg.type === 'token_count') legacyUsage = isPlainObject(msg.info) && msg.info.total_token_usage !== undefined ? msg.info.total_token_usage : msg;
      legacy = true;
      continue;
    }
    switch (v.type) {
      case 'item.completed': {
        const item = v.item;
        if (!isPlainObject(item)) break;
        // `item_type` / `assistant_message`: the first releases of this format (openai/codex#4525, 2025-09-30).
        const itemType = item.type ?? item.item_type;
        if ((itemType === 'agent_message' || itemType === 'assistant_message') && typeof item.text === 'string') {
          const mark = commentaryMark(item);
          if (mark !== null) {
            commentary.add(item.text.trim());
            notes.push(`agent_message on line ${doc.line + 1} is marked ${mark}: not the answer`);
          } else {
            messages.push({ text: item.text, line: doc.line, offset: doc.offset });
          }
        }
        else if (itemType === 'error' && typeof item.message === 'string') itemErrors.push(item.message);
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
      pushCandidatesFromText(candidates, m.text, at, anchor, notes);
    }
  }

  // 2. The -o file, last.
  let fileWhole: Candidate | undefined;
  const file = envelope.files?.[CODEX_LAST_MESSAGE_FILE];
  const fileIsCommentary = typeof file === 'string' && commentary.has(file.trim()) && !messages.some((m) => m.text.trim() === file.trim());
  if (fileIsCommentary) notes.push('the -o last-message file repeats a commentary message: not the answer');
  if (typeof file === 'string' && file.trim() !== '' && !fileIsCommentary) {
    const at = { origin: 'last-message', pointer: '', offset: envelope.stdout.length };
    const whole = wholeObject(file);
    if (whole !== undefined) {
      fileWhole = { ...at, value: whole, nested: 0 };
      candidates.push(fileWhole);
    } else {
      // The file is raw text, not a JSON string field: one string layer less than candidatesFromText counts.
      pushAll(candidates, candidatesFromText(file, at, anchor).map((c) => withCandidateFields(c, { nested: Math.max(0, c.nested - 1) })));
    }
  }

  const kept = dedupeCandidates(candidates, 'last');
  const structured = [fileWhole, lastMessageWhole].find((c) => c !== undefined && kept.includes(c));

  const human: string[] = [];
  const ancillary: string[] = [];
  const lastMessage = messages.at(-1);
  if (lastMessage && lastMessage.text.trim() !== '') human.push(lastMessage.text);
  if (lastMessage && wholeObject(lastMessage.text) === undefined && !failed) {
    notes.push('the last agent_message is not one JSON object (Codex does not validate --output-schema output; its exit code says nothing about it)');
  }
  const read = readStatus(envelope, docs.documents.length, failed, completed, errorEvents);
  const code = read.code;
  let status = read.status;
  if (status.kind !== 'startup-rejected' && status.kind !== 'provider-error' && (docs.truncated || (docs.documents.length > 0 && !completed && !failed))) {
    status = incompleteStatus(envelope, docs.truncated ? 'the last line of stdout is cut' : legacy ? 'no task_complete event' : 'no turn.completed or turn.failed event', ancillary);
  }
  if (completed && status.kind === 'ok') noteLostOutput(completed.usage, candidates.length > 0 || commentary.size > 0 || messages.some((m) => m.text.trim() !== ''), human, notes);
  // An incomplete stream's message is its `incomplete stream: ...` line, already in `ancillary` (it was said twice).
  if (status.kind !== 'ok' && status.message && !ancillary.includes(status.message)) human.push(status.message);
  if (typeof status.apiErrorStatus === 'number') ancillary.push(`api_error_status=${status.apiErrorStatus}`);
  if (code !== null) ancillary.push(`error_code=${code}`);
  if (docs.documents.length > 0 && !completed && !failed) notes.push(`${legacy ? 'no task_complete event' : 'no turn.completed or turn.failed event'}: the turn never ended`);

  const decoded: Decoded = {
    ...envelopeFacts(envelope, options, docs),
    reply: codexReply(file, fileIsCommentary, messages, completed?.usage),
    route: CODEX_ROUTE,
    candidates: kept,
    status,
    human,
    ancillary,
    keys: terminal ? Object.keys(terminal) : [],
    notes,
    framing: framingOf(docs),
  };
  if (structured) decoded.structured = structured;
  if (completed && completed.usage !== undefined) decoded.usage = completed.usage;
  return decoded;
}

/**
 * Codex's reply: the `-o` last-message file (what Codex itself calls the final answer) unless it
 * repeats a commentary message, else the last non-blank non-commentary `agent_message` text;
 * `turn.completed.usage` as usage.
 */
function codexReply(file: string | undefined, fileIsCommentary: boolean, messages: readonly AgentMessage[], usage: unknown): Reply {
  if (typeof file === 'string' && !fileIsCommentary) return textReply(file, 'last-message', usage);
  const last = [...messages].reverse().find((m) => m.text.trim() !== '');
  return textReply(last?.text, 'assistant-text', usage);
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

/** `turn.failed` messages of limits Codex enforces locally (a token budget of the rollout). */
const LOCAL_LIMIT = /\b(?:rollout )?(?:token )?budget (?:is )?exhausted\b|\bRolloutBudgetExceeded\b/i;

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
    // A limit Codex itself enforces (no HTTP status, nothing the provider said) is the CLI's own
    // failure, not the provider's: retrying the route hits the same limit (openai/codex#37676, the
    // `RolloutBudgetExceeded` error of openai/codex#29715), as Claude's `error_max_turns` is.
    if (f.status === null && f.code === null && LOCAL_LIMIT.test(f.message)) return { status: { kind: 'cli-error', message: f.message, isError: true }, code: null };
    // A 400 naming the schema (`code: "invalid_json_schema"`, `Invalid schema for response_format`)
    // refused it at the first request: startup-rejected, the provider's message kept.
    const status = schemaRefusedStatus({ kind: 'provider-error', message: f.message, apiErrorStatus: f.status, isError: true }, f.code === null ? [] : [f.code]);
    if (status.kind === 'startup-rejected') status.message = f.message;
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
