import { describe, expect, it } from 'vitest';
import { grokCliDecoder, grokCliErrorStatus } from './decoder.ts';
import type { Envelope } from '#src/envelope/types.ts';

const FINAL = { position: 'Choose A', final: true };
const PLACEHOLDER = { position: 'blocked: gathering subject evidence', final: false };
const decoder = grokCliDecoder();
const USER = { role: 'user', content: `Answer as JSON:\n\`\`\`json\n${JSON.stringify({ properties: { position: { type: 'string' } } })}\n\`\`\`` };

function envelope(messages: object[], exitCode: number | null = 0, stderr = ''): Envelope {
  return { stdout: messages.map((m) => `${JSON.stringify(m)}\n`).join(''), stderr, exitCode, elapsedMs: 10 };
}

describe('grokCliDecoder', () => {
  it('reads JSON from the assistant content, never from the user line that repeats the prompt', () => {
    const d = decoder.decode(envelope([USER, { role: 'assistant', content: `${JSON.stringify(PLACEHOLDER)}\n${JSON.stringify(FINAL)}` }]), { anchor: 'position' });
    expect(d.status.kind).toBe('ok');
    expect(d.candidates.map((c) => [c.origin, c.event, c.value])).toEqual([
      ['assistant-text', 1, PLACEHOLDER],
      ['assistant-text', 1, FINAL],
    ]);
    expect(d.keys).toEqual(['role', 'content']);
  });

  it('reads tool call arguments as candidates', () => {
    const d = decoder.decode(
      envelope([USER, { role: 'assistant', content: 'Using tools to help you...', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'answer', arguments: JSON.stringify(FINAL) } }] }]),
      { anchor: 'position' },
    );
    expect(d.candidates).toEqual([expect.objectContaining({ origin: 'tool_use:answer', value: FINAL, pointer: '/tool_calls/0/function/arguments' })]);
  });

  it('reads "Sorry, I encountered an error: Grok API error: 529 ..." with exit 0 as a provider error with status 529', () => {
    const content = 'Sorry, I encountered an error: Grok API error: 529 Overloaded';
    const d = decoder.decode(envelope([USER, { role: 'assistant', content }]), { anchor: 'position' });
    expect(d.status).toEqual({ kind: 'provider-error', apiErrorStatus: 529, message: content });
    expect(d.ancillary).toEqual(['api_error_status=529']);
    expect(d.human).toEqual([content]);
    expect(d.candidates).toEqual([]);
  });

  it('an error without an HTTP status is a CLI error; a later answer wins over an earlier error', () => {
    expect(decoder.decode(envelope([{ role: 'assistant', content: 'Sorry, I encountered an error: No response from Grok' }])).status.kind).toBe('cli-error');
    const later = decoder.decode(envelope([{ role: 'assistant', content: 'Sorry, I encountered an error: Grok API error: 500 x' }, { role: 'assistant', content: JSON.stringify(FINAL) }]));
    expect(later.status.kind).toBe('ok');
  });

  it('a missing key (stderr, exit 1, no stdout) is a crash that keeps the message', () => {
    const d = decoder.decode({ stdout: '', stderr: '❌ Error: API key required.\n', exitCode: 1, elapsedMs: 5 });
    expect(d.status).toEqual({ kind: 'crashed', message: '❌ Error: API key required.' });
  });
});

describe('grokCliErrorStatus', () => {
  it('recognises the agent error prefix and the top-level "Error: " only with a non-zero exit', () => {
    expect(grokCliErrorStatus('Sorry, I encountered an error: Grok API error: 401 Incorrect API key', 0)).toMatchObject({ kind: 'provider-error', apiErrorStatus: 401 });
    expect(grokCliErrorStatus('Error: boom', 1)).toMatchObject({ kind: 'cli-error' });
    expect(grokCliErrorStatus('Error: is a fine word to start an answer with', 0)).toBeNull();
    expect(grokCliErrorStatus(JSON.stringify(FINAL), 0)).toBeNull();
  });
});
