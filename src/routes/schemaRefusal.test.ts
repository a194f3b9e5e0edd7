import { describe, expect, it } from 'vitest';
import { decoderFor } from './registry.ts';
import type { Envelope } from '#src/envelope/types.ts';

// Issue 21.1: a provider 400 that names the schema is startup-rejected on every route, in each CLI's
// own wording of a provider error (the shapes each route's decoder documents); any other 400 stays a
// provider error, so the rule cannot pass by reading every 400 as a refusal.
const lines = (...events: unknown[]) => `${events.map((e) => JSON.stringify(e)).join('\n')}\n`;
const OPENAI = "Invalid schema for function 'structured_output': In context=(), 'additionalProperties' is required to be supplied and to be false.";
const GEMINI = 'Invalid JSON payload received. Unknown name "additionalProperties" at \'generation_config.response_schema\': Cannot find field.';
const OTHER = 'prompt is too long: 250000 tokens > 200000 maximum';

const shapes: Record<string, (words: string) => Envelope> = {
  'qwen-code/json': (w) => ({ stdout: JSON.stringify([{ type: 'result', subtype: 'error_during_execution', is_error: true, error: { message: `[API Error: 400 ${w}]` } }]), stderr: '', exitCode: 1, elapsedMs: 1 }),
  'gemini-cli/json': (w) => ({ stdout: '', stderr: JSON.stringify({ session_id: 's', error: { type: 'Error', message: JSON.stringify({ error: { code: 400, message: w, status: 'INVALID_ARGUMENT' } }), code: 400 } }, null, 2), exitCode: 144, elapsedMs: 1 }),
  'gemini-cli/stream-json': (w) => ({ stdout: lines({ type: 'init', session_id: 's', model: 'm' }, { type: 'message', role: 'user', content: 'q' }, { type: 'result', status: 'error', error: { type: 'unknown', message: `[API Error: ${JSON.stringify({ error: { code: 400, message: w } })}]` } }), stderr: '', exitCode: 144, elapsedMs: 1 }),
  'opencode/jsonl': (w) => ({ stdout: lines({ type: 'error', timestamp: 1, sessionID: 'ses_x', error: { name: 'APIError', data: { message: w, statusCode: 400, isRetryable: false } } }), stderr: '', exitCode: 1, elapsedMs: 1 }),
  'pi/json': (w) => ({ stdout: lines({ type: 'session', id: 'x' }, { type: 'message_end', message: { role: 'assistant', content: [], stopReason: 'error', errorMessage: `400 ${w}` } }, { type: 'agent_end', messages: [] }), stderr: '', exitCode: 0, elapsedMs: 1 }),
  'copilot/json': (w) => ({ stdout: lines({ type: 'session.error', data: { errorType: 'api', message: `400 ${w}`, statusCode: 400 } }, { type: 'result', data: {}, exitCode: 1 }), stderr: '', exitCode: 1, elapsedMs: 1 }),
  'grok-cli/jsonl': (w) => ({ stdout: lines({ role: 'user', content: 'q' }, { role: 'assistant', content: `Sorry, I encountered an error: Grok API error: 400 ${w}` }), stderr: '', exitCode: 0, elapsedMs: 1 }),
  'codex/jsonl': (w) => ({ stdout: lines({ type: 'thread.started', thread_id: 't' }, { type: 'turn.started' }, { type: 'turn.failed', error: { message: JSON.stringify({ error: { message: w, type: 'invalid_request_error', param: 'text.format.schema', code: null } }) } }), stderr: '', exitCode: 1, elapsedMs: 1 }),
  'claude-code/json': (w) => ({ stdout: JSON.stringify({ type: 'result', subtype: 'success', is_error: true, result: `API Error: 400 ${w}`, terminal_reason: 'api_error', api_error_status: 400, session_id: 's' }), stderr: '', exitCode: 1, elapsedMs: 1 }),
  'amp/stream-json': (w) => ({ stdout: lines({ type: 'result', subtype: 'success', is_error: true, result: `API Error: 400 ${w}`, session_id: 's' }), stderr: '', exitCode: 1, elapsedMs: 1 }),
};

describe('a schema refused at the first request, on every route', () => {
  for (const [route, envelopeOf] of Object.entries(shapes)) {
    const words = route.startsWith('gemini') ? GEMINI : route === 'claude-code/json' || route === 'amp/stream-json' ? 'tools.3.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level' : OPENAI;
    it(`${route}: startup-rejected with the provider's words; another 400 stays a provider error`, () => {
      const refused = decoderFor(route).decode(envelopeOf(words)).status;
      expect(refused.kind).toBe('startup-rejected');
      expect(refused.message).toContain(words.slice(0, 40));
      expect(decoderFor(route).decode(envelopeOf(OTHER)).status.kind).toBe('provider-error');
    });
  }
});
