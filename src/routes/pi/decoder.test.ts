import { describe, expect, it } from 'vitest';
import { piDecoder, piErrorStatus } from './decoder.ts';

const POV = { position: 'Choose A', final: true };
const decoder = piDecoder();
const env = (stdout: string, exitCode: number | null = 0, stderr = '') => ({ stdout, stderr, exitCode, elapsedMs: 1 });
const lines = (...events: object[]) => `${events.map((e) => JSON.stringify(e)).join('\n')}\n`;
const session = { type: 'session', version: 3, id: 'uuid', timestamp: '2026-11-30T05:29:32.483Z', cwd: '<tmp>/work' };
const usage = { input: 100, output: 54, cacheRead: 0, cacheWrite: 0, totalTokens: 154, cost: { total: 0 } };
const assistant = (content: object[], extra: object = {}) => ({ role: 'assistant', content, api: 'openai-completions', provider: 'routecert', model: 'm1', usage, stopReason: 'stop', ...extra });
const end = (message: object) => ({ type: 'message_end', message });
const user = { role: 'user', content: [{ type: 'text', text: JSON.stringify({ position: 'in the prompt', final: true }) }] };

describe('piDecoder', () => {
  it('reads assistant message_end texts only (not the user prompt, not turn_end/agent_end repeats)', () => {
    const msg = assistant([{ type: 'text', text: JSON.stringify(POV) }]);
    const stdout = lines(session, { type: 'agent_start' }, end(user), { type: 'message_update', message: msg }, end(msg), { type: 'turn_end', message: msg }, { type: 'agent_end', messages: [user, msg] });
    const d = decoder.decode(env(stdout), { anchor: 'position' });
    expect(d.candidates).toMatchObject([{ origin: 'assistant-text', value: POV, event: 4, pointer: '/message/content/0/text' }]);
    expect(d.status.kind).toBe('ok');
    expect(d.usage).toEqual(usage);
  });

  it('exit 0 with stopReason error is still a provider error, with the status from errorMessage', () => {
    const err = assistant([], { stopReason: 'error', errorMessage: '400 routecert mock: invalid request (scenario api-400)' });
    const d = decoder.decode(env(lines(session, end(user), end(err), { type: 'agent_end', messages: [] }), 0));
    expect(d.status).toEqual({ kind: 'provider-error', apiErrorStatus: 400, message: '400 routecert mock: invalid request (scenario api-400)' });
    expect(d.ancillary).toEqual(['api_error_status=400']);
  });

  it('an answer after a retried error clears the error', () => {
    const err = assistant([], { stopReason: 'error', errorMessage: '529 Overloaded' });
    const ok = assistant([{ type: 'text', text: JSON.stringify(POV) }]);
    const stdout = lines(session, end(err), { type: 'auto_retry_start', attempt: 1, maxAttempts: 3, delayMs: 1, errorMessage: '529 Overloaded' }, end(ok), { type: 'agent_end', messages: [] });
    const d = decoder.decode(env(stdout), { anchor: 'position' });
    expect(d.status.kind).toBe('ok');
    expect(d.candidates).toHaveLength(1);
  });

  it('an unknown provider (stderr, exit 1, no JSON) is the CLI refusing its invocation: startup-rejected (issue 21.5)', () => {
    const d = decoder.decode(env('', 1, 'Error: Unknown provider "mock". Use --list-models to see available providers/models.'));
    expect(d.status.kind).toBe('startup-rejected');
  });

  it('piErrorStatus: an error without an HTTP status is a CLI error, unless the provider answered (a responseId): then a provider error without a status', () => {
    expect(piErrorStatus('Connection error.')).toEqual({ kind: 'cli-error', message: 'Connection error.' });
    const quota = 'You exceeded your current quota, please check your plan and billing details.';
    expect(piErrorStatus(quota, true)).toEqual({ kind: 'provider-error', message: quota });
    expect(piErrorStatus('429 Rate limit', true)).toEqual({ kind: 'provider-error', apiErrorStatus: 429, message: '429 Rate limit' });
  });
});
