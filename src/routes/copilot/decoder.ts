/**
 * The GitHub Copilot CLI route decoder: `copilot/json` (`copilot --output-format json`, prompt on
 * stdin or `-p`), JSONL events `{type, data, id, timestamp, parentId, ephemeral?}`, camelCase
 * throughout. No schema flag, no structured field: the answer is JSON in the `assistant.message`
 * event's `data.content`.
 *
 * Facts (Copilot CLI 1.0.102 in BYOK mode against the loopback Chat Completions mock,
 * research/cli-envelopes.md section 7, checked by probes/copilot.test.ts):
 * - the text also streams as `assistant.message_delta {deltaContent}` events: they are a split of
 *   the same content and are not read;
 * - a provider error is `session.error {errorType, message, statusCode}` (message
 *   `400 <provider message>`, or after retries `Failed to get response from the AI model; retried 5
 *   times ... Last error: 529 Overloaded`), then `result {exitCode: 1}`, process exit 1;
 * - `result {exitCode, usage: {premiumRequests, totalApiDurationMs, ...}}` closes every run; it has no
 *   token counts (github/copilot-cli#4107); a stream without it is incomplete, never accepted.
 */
import { pushCandidatesFromText } from '#src/envelope/candidates.ts';
import { isPlainObject } from '#src/envelope/keys.ts';
import { crashedStatus, errorStatusFromCode, incompleteStatus, isHttpErrorStatus, pushApiErrorStatus, schemaRefusedStatus, statusInErrorText } from '#src/envelope/status.ts';
import { finishDecode, startDecode } from '#src/envelope/decodeParts.ts';
import { lastNonBlank, textReply } from '#src/envelope/reply.ts';
import type { Decoded, DecodeOptions, Envelope, EnvelopeStatus, RouteDecoder } from '#src/envelope/types.ts';

/** The Copilot CLI route. */
export const COPILOT_ROUTE = 'copilot/json';

/**
 * What a Copilot `session.error` event's `data` says: a provider error when `statusCode` is an HTTP
 * error status (400-599), or, without one, when the message carries one (`Last error: 529
 * Overloaded`, a relayed body's `"status": 429`: {@link statusInErrorText}); else a CLI error, with
 * `message` verbatim. A 400 naming the schema is `startup-rejected` ({@link schemaRefusedStatus}).
 */
export function copilotErrorStatus(data: unknown): EnvelopeStatus {
  const d = isPlainObject(data) ? data : {};
  const message = typeof d.message === 'string' && d.message !== '' ? d.message : typeof d.errorType === 'string' ? d.errorType : 'error';
  const code = isHttpErrorStatus(d.statusCode) ? d.statusCode : statusInErrorText(message.replace(/^.*\bLast error:\s*/s, ''));
  return schemaRefusedStatus(errorStatusFromCode(code, message));
}

function toolArguments(request: Record<string, unknown>): unknown {
  const raw = request.arguments ?? request.input;
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The Copilot CLI decoder. Candidates: the JSON in each `assistant.message` `data.content` (origin
 * `assistant-text`) and the arguments of each of its `data.toolRequests` (origin
 * `tool_use:<name>`), in stream order; the texts are also the human-readable evidence. Status: the last `session.error` (provider error with its
 * `statusCode`); else a `result` with a non-zero `exitCode` is a CLI error; else `ok`. Reply: the last
 * non-blank `assistant.message` content, with the `result` event's `usage`.
 *
 * @example
 * copilotDecoder().decode({ stdout: '{"type":"session.error","data":{"message":"400 bad","statusCode":400}}\n', stderr: '', exitCode: 1, elapsedMs: 1 }).status
 * // { kind: 'provider-error', apiErrorStatus: 400, message: '400 bad' }
 */
export function copilotDecoder(): RouteDecoder {
  return {
    route: COPILOT_ROUTE,
    header: 'Copilot CLI (json)',
    detect: (envelope) => /"type"\s*:\s*"(?:assistant\.message|session\.[a-z_]+|result)"/.test(envelope.stdout) && /"data"\s*:/.test(envelope.stdout),
    decode: (envelope, options) => decodeCopilot(envelope, options),
  };
}

function decodeCopilot(envelope: Envelope, options: DecodeOptions = {}): Decoded {
  const { docs, notes, candidates, human, ancillary, event } = startDecode(envelope.stdout);
  let error: EnvelopeStatus | undefined;
  let result: Record<string, unknown> | undefined;
  let last: Record<string, unknown> | undefined;
  const texts: string[] = [];
  for (const doc of docs.documents) {
    const e = doc.value;
    if (!isPlainObject(e) || typeof e.type !== 'string') continue;
    last = e;
    const data = isPlainObject(e.data) ? e.data : {};
    if (e.type === 'assistant.message') {
      if (typeof data.content === 'string') {
        if (data.content.trim() !== '') human.push(data.content);
        texts.push(data.content);
        pushCandidatesFromText(candidates, data.content, { origin: 'assistant-text', pointer: '/data/content', offset: doc.offset, ...event(doc.line) }, options.anchor, notes);
      }
      if (Array.isArray(data.toolRequests)) {
        data.toolRequests.forEach((r, i) => {
          if (!isPlainObject(r)) return;
          const value = toolArguments(r);
          if (isPlainObject(value)) {
            candidates.push({ value, origin: `tool_use:${String(r.name ?? r.toolName)}`, pointer: `/data/toolRequests/${i}/arguments`, offset: doc.offset, nested: typeof r.arguments === 'string' ? 1 : 0, ...event(doc.line) });
          }
        });
      }
    } else if (e.type === 'session.error') {
      error = copilotErrorStatus(e.data);
      if (error.message) human.push(error.message);
    } else if (e.type === 'result') {
      result = e;
    }
  }

  let status: EnvelopeStatus = error ?? { kind: 'ok' };
  if (!error && result && typeof result.exitCode === 'number' && result.exitCode !== 0) {
    status = { kind: 'cli-error', message: `copilot reported exitCode ${result.exitCode}` };
  }
  pushApiErrorStatus(status, ancillary);
  if (!last) {
    if (docs.documents.length > 0) notes.push('no Copilot event in stdout');
    status = crashedStatus(envelope) ?? status;
  } else if (!result || docs.truncated) {
    if (!result) notes.push('no {"type":"result"} event in stdout');
    const reason = docs.truncated ? 'the last line of stdout is cut' : 'no terminal {"type":"result"} event';
    status = status.kind === 'ok' ? incompleteStatus(envelope, reason, ancillary) : { ...status, incomplete: reason };
  }
  const terminal = result ?? last;
  const reply = textReply(lastNonBlank(texts), 'assistant-text', result?.usage);
  const decoded = finishDecode(COPILOT_ROUTE, { candidates, human, ancillary, notes, docs, reply }, status, terminal, envelope, options);
  if (result && result.usage !== undefined) decoded.usage = result.usage;
  return decoded;
}
