import { describe, expect, it } from 'vitest';
import { copilotDecoder } from './decoder.ts';

const POV = { position: 'Choose A', final: true };
const decoder = copilotDecoder();
const env = (stdout: string, exitCode: number | null = 0, stderr = '') => ({ stdout, stderr, exitCode, elapsedMs: 1 });
const lines = (...events: object[]) => `${events.map((e) => JSON.stringify(e)).join('\n')}\n`;
const ev = (type: string, data: object, ephemeral = false) => ({ type, data, id: 'uuid', timestamp: '2026-11-30T05:26:07.929Z', parentId: 'uuid', ...(ephemeral ? { ephemeral } : {}) });
const result = (exitCode: number) => ({ type: 'result', timestamp: '2026-11-30T05:26:08.089Z', sessionId: 'uuid', exitCode, usage: { premiumRequests: 0, totalApiDurationMs: 776 } });
const content = JSON.stringify(POV);

describe('copilotDecoder', () => {
  it('reads assistant.message data.content, not the deltas that split it', () => {
    const stdout = lines(
      ev('assistant.message_delta', { messageId: 'm', deltaContent: content.slice(0, 10) }, true),
      ev('assistant.message_delta', { messageId: 'm', deltaContent: content.slice(10) }, true),
      ev('assistant.message', { messageId: 'm', model: 'm1', content, toolRequests: [] }),
      result(0),
    );
    const d = decoder.decode(env(stdout), { anchor: 'position' });
    expect(d.candidates).toMatchObject([{ origin: 'assistant-text', value: POV, pointer: '/data/content', event: 2 }]);
    expect(d.status.kind).toBe('ok');
    expect(d.usage).toEqual({ premiumRequests: 0, totalApiDurationMs: 776 });
    expect(d.keys).toEqual(['type', 'timestamp', 'sessionId', 'exitCode', 'usage']);
  });

  it('session.error with statusCode is a provider error', () => {
    const message = 'Failed to get response from the AI model; retried 5 times (total retry wait time: 5.00 seconds) Last error: 529 Overloaded';
    const d = decoder.decode(env(lines(ev('session.error', { errorType: 'query', message, statusCode: 529 }), result(1)), 1));
    expect(d.status).toEqual({ kind: 'provider-error', apiErrorStatus: 529, message });
    expect(d.ancillary).toEqual(['api_error_status=529']);
    expect(d.human).toEqual([message]);
  });

  it('a non-zero result exitCode without session.error is a CLI error', () => {
    expect(decoder.decode(env(lines(result(1)), 1)).status.kind).toBe('cli-error');
  });

  it('tool requests give tool_use candidates (arguments as an object or JSON text)', () => {
    const stdout = lines(ev('assistant.message', { content: '', toolRequests: [{ toolCallId: 't', name: 'bash', arguments: { command: 'ls' } }, { name: 'view', arguments: '{"path":"a"}' }] }));
    expect(decoder.decode(env(stdout)).candidates.map((c) => [c.origin, c.value])).toEqual([
      ['tool_use:bash', { command: 'ls' }],
      ['tool_use:view', { path: 'a' }],
    ]);
  });

  it('nothing on stdout, an unknown option refused and a non-zero exit is startup-rejected (issue 21.5)', () => {
    expect(decoder.decode(env('', 1, 'error: unknown option')).status).toEqual({ kind: 'startup-rejected', message: 'error: unknown option' });
  });

  it('nothing on stdout and a stack trace on stderr is still a crash', () => {
    expect(decoder.decode(env('', 1, 'TypeError: Cannot read properties of undefined\n    at main (file:///app/index.js:3:9)')).status.kind).toBe('crashed');
  });
});
