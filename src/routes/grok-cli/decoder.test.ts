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

  it('a missing key (stderr, exit 1, no stdout) is the CLI refusing its invocation: startup-rejected, keeping the message (issue 21.5)', () => {
    const d = decoder.decode({ stdout: '', stderr: '❌ Error: API key required.\n', exitCode: 1, elapsedMs: 5 });
    expect(d.status).toEqual({ kind: 'startup-rejected', message: '❌ Error: API key required.' });
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

describe('grokCliDecoder: newer --format json framings (issue 11)', () => {
  const lines = (...events: object[]) => `${events.map((e) => JSON.stringify(e)).join('\n')}\n`;
  const text = JSON.stringify(FINAL);
  const call = { id: 'c1', type: 'function', function: { name: 'view_file', arguments: '{"path":"a.ts"}' } };

  it('chunks: assembles the content after the last tool result, reasoning never read', () => {
    const stdout = lines(
      { type: 'content', content: JSON.stringify(PLACEHOLDER) },
      { type: 'tool_calls', toolCalls: [call] },
      { type: 'tool_result', toolCall: call, toolResult: { success: true, output: 'x' } },
      { type: 'reasoning', reasoning: JSON.stringify({ position: 'thinking', final: true }) },
      { type: 'content', content: text.slice(0, 10) },
      { type: 'content', content: text.slice(10) },
      { type: 'done' },
    );
    const d = decoder.decode({ stdout, stderr: '', exitCode: 0, elapsedMs: 1 }, { anchor: 'position' });
    expect(d.candidates.map((c) => [c.origin, c.value, c.event])).toEqual([
      ['assistant-text', PLACEHOLDER, 0],
      ['tool_use:view_file', { path: 'a.ts' }, 1],
      ['assistant-text', FINAL, 4],
    ]);
    expect(d.notes).toContain('assembled the text on line 5 from 2 content events');
    expect(d.status.kind).toBe('ok');
  });

  it('steps: reads text events, sums step usage, and a missing run_finish is incomplete', () => {
    const head = [{ type: 'step_start', stepNumber: 1 }, { type: 'text', stepNumber: 1, text }, { type: 'step_finish', stepNumber: 1, finishReason: 'stop', usage: { inputTokens: 9, outputTokens: 3, totalTokens: 12 } }];
    const ok = decoder.decode({ stdout: lines(...head, { type: 'run_finish', success: true, exitCode: 0, errorCount: 0 }), stderr: '', exitCode: 0, elapsedMs: 1 }, { anchor: 'position' });
    expect(ok.candidates.map((c) => c.value)).toEqual([FINAL]);
    expect(ok.status.kind).toBe('ok');
    expect(ok.usage).toEqual({ inputTokens: 9, outputTokens: 3, totalTokens: 12 });
    const cut = decoder.decode({ stdout: lines(...head), stderr: '', exitCode: 0, elapsedMs: 1 }, { anchor: 'position' });
    expect(cut.status).toMatchObject({ kind: 'crashed', incomplete: 'no terminal {"type":"run_finish"} event' });
  });

  it('steps: an error event is a provider error with its status; run_finish success false alone is a CLI error', () => {
    const err = decoder.decode({ stdout: lines({ type: 'step_start', stepNumber: 1 }, { type: 'error', message: '429 Rate limit' }, { type: 'run_finish', success: false, exitCode: 1, errorCount: 1 }), stderr: '', exitCode: 1, elapsedMs: 1 });
    expect(err.status).toMatchObject({ kind: 'provider-error', apiErrorStatus: 429 });
    const failed = decoder.decode({ stdout: lines({ type: 'step_start', stepNumber: 1 }, { type: 'run_finish', success: false, exitCode: 1, errorCount: 0 }), stderr: '', exitCode: 1, elapsedMs: 1 });
    expect(failed.status.kind).toBe('cli-error');
  });
});
