/**
 * The grok-cli route decoder: `grok-cli/jsonl` (`@vibe-kit/grok-cli` 0.0.34, `grok -p <prompt>`),
 * whose stdout is always JSONL of OpenAI-chat-style messages, one per line:
 * `{"role":"user","content":..}`, `{"role":"assistant","content":..,"tool_calls"?:[..]}`,
 * `{"role":"tool","tool_call_id":..,"content":..}`. No usage, no structured field, no schema flag.
 *
 * Facts (grok-cli 0.0.34 against the loopback mock, research/cli-envelopes.md section 9a, checked
 * by probes/grokCli.test.ts):
 * - the `user` line repeats the prompt, schema included: it is never read for answers;
 * - an API error becomes the assistant message `Sorry, I encountered an error: Grok API error:
 *   <status> <message>` with exit 0 (the OpenAI SDK's `<status> <message>` wording);
 * - an exception outside the agent loop prints `{"role":"assistant","content":"Error: <message>"}`
 *   and exits 1; a missing key prints `❌ Error: API key required...` on stderr, exit 1, no stdout.
 */
import { candidatesFromText } from '#src/envelope/candidates.ts';
import { isPlainObject } from '#src/envelope/keys.ts';
import { crashedStatus, errorStatusFromCode, httpStatusIn, pushApiErrorStatus } from '#src/envelope/status.ts';
import { finishDecode, startDecode } from '#src/envelope/decodeParts.ts';
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
    return errorStatusFromCode(httpStatusIn(rest, API_ERROR), content);
  }
  if (exitCode !== null && exitCode !== 0 && content.startsWith('Error: ')) return { kind: 'cli-error', message: content };
  return null;
}

/**
 * The grok-cli decoder. Candidates: the JSON in each assistant message's `content` (origin
 * `assistant-text`), and the parsed `arguments` of each assistant tool call (origin
 * `tool_use:<name>`), in stream order; error messages are evidence, never candidates. The
 * terminal object is the last assistant message.
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
    detect: (envelope) => /"role"\s*:\s*"(?:assistant|user)"/.test(envelope.stdout) && !/"type"\s*:/.test(envelope.stdout.slice(0, 200)),
    decode: (envelope, options) => decodeGrokCli(route, envelope, options),
  };
}

function decodeGrokCli(route: string, envelope: Envelope, options: DecodeOptions = {}): Decoded {
  const { docs, notes, candidates, human, ancillary, event } = startDecode(envelope.stdout);
  let status: EnvelopeStatus = { kind: 'ok' };
  let terminal: Record<string, unknown> | undefined;
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
    candidates.push(...candidatesFromText(content, { origin: 'assistant-text', pointer: '/content', offset: doc.offset, ...event(doc.line) }, options.anchor));
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
  return finishDecode(route, { candidates, human, ancillary, notes }, status, terminal);
}
