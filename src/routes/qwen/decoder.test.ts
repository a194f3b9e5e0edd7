import { describe, expect, it } from 'vitest';
import { qwenDecoder, qwenErrorStatus, qwenRejectionLine } from './decoder.ts';

const POV = { position: 'Choose A', final: true };
const DRAFT = { position: 'draft', final: false };
const init = { type: 'system', subtype: 'init', session_id: 's', tools: ['structured_output'], qwen_code_version: '0.24.4' };
const env = (stdout: string, exitCode: number | null = 0, stderr = '') => ({ stdout, stderr, exitCode, elapsedMs: 1 });

/** Qwen Code 0.24.4 `-o json`: one array of every message, the result last. */
function jsonArray(...messages: object[]): string {
  return `${JSON.stringify(messages)}\n`;
}
/** Qwen Code 0.24.4 `-o stream-json`: the same objects one per line. */
function lines(...messages: object[]): string {
  return `${messages.map((m) => JSON.stringify(m)).join('\n')}\n`;
}

const assistant = (...content: object[]) => ({ type: 'assistant', message: { role: 'assistant', content } });
const result = (extra: object) => ({ type: 'result', subtype: 'success', is_error: false, num_turns: 1, usage: { input_tokens: 100 }, ...extra });

describe('qwenDecoder', () => {
  for (const route of ['qwen-code/json', 'qwen-code/stream-json'] as const) {
    const frame = route === 'qwen-code/json' ? jsonArray : lines;
    const decoder = qwenDecoder(route);

    it(`${route}: structured_result is the structured candidate; the tool call and the result string mirror it`, () => {
      const stdout = frame(init, assistant({ type: 'tool_use', id: 'c1', name: 'structured_output', input: POV }), result({ result: JSON.stringify(POV), structured_result: POV }));
      const d = decoder.decode(env(stdout), { anchor: 'position' });
      expect(d.structured).toMatchObject({ origin: 'structured_result', value: POV });
      expect(d.candidates.map((c) => c.origin)).toEqual(['structured_result']);
      expect(d.status.kind).toBe('ok');
      expect(d.usage).toEqual({ input_tokens: 100 });
      if (route === 'qwen-code/json') expect(d.structured?.pointer).toBe('/2/structured_result');
      else expect(d.structured?.event).toBe(2);
    });

    it(`${route}: rejected tool calls stay candidates after loop detection ends the run`, () => {
      const stdout = frame(
        init,
        assistant({ type: 'tool_use', id: 'c1', name: 'structured_output', input: { position: 'A' } }),
        { type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 'c1', is_error: true, content: "params must have required property 'final'" }] } },
        { type: 'result', subtype: 'error_during_execution', is_error: true, error: { message: 'Loop detection halted the run (consecutive_identical_tool_calls ...)' } },
      );
      const d = decoder.decode(env(stdout, 1));
      expect(d.candidates).toMatchObject([{ origin: 'tool_use:structured_output', value: { position: 'A' } }]);
      expect(d.status).toMatchObject({ kind: 'cli-error', subtype: 'error_during_execution' });
      expect(d.human).toEqual(['Loop detection halted the run (consecutive_identical_tool_calls ...)']);
    });

    it(`${route}: a placeholder in text and the final in the tool call are both candidates, in stream order`, () => {
      const stdout = frame(init, assistant({ type: 'text', text: JSON.stringify(DRAFT) }), assistant({ type: 'tool_use', id: 'c1', name: 'structured_output', input: POV }), result({ structured_result: POV }));
      const d = decoder.decode(env(stdout), { anchor: 'position' });
      expect(d.candidates.map((c) => [c.origin, c.value])).toEqual([
        ['assistant-text', DRAFT],
        ['structured_result', POV],
      ]);
    });

    it(`${route}: an API error is a provider error with the status from "[API Error: <status> ...]"`, () => {
      const text = '[API Error: 503 The server is overloaded or not ready yet.]';
      const stdout = frame(init, assistant({ type: 'text', text }), { type: 'result', subtype: 'error_during_execution', is_error: true, error: { message: text } });
      const d = decoder.decode(env(stdout, 1));
      expect(d.status).toMatchObject({ kind: 'provider-error', apiErrorStatus: 503, message: text });
      expect(d.ancillary).toContain('api_error_status=503');
      expect(d.candidates).toEqual([]);
    });
  }

  it('reads a refused schema from the red stderr line when stdout is empty (exit 52)', () => {
    const stderr = '\u001b[31m--json-schema is not a valid JSON Schema: strict mode: unknown keyword: "_meta"\u001b[0m\n';
    const d = qwenDecoder('qwen-code/json').decode(env('', 52, stderr));
    expect(d.status).toEqual({ kind: 'startup-rejected', message: '--json-schema is not a valid JSON Schema: strict mode: unknown keyword: "_meta"' });
  });

  it('a crash without JSON is crashed, never ok', () => {
    const d = qwenDecoder('qwen-code/stream-json').decode(env('', 1, 'TypeError: boom'));
    expect(d.status).toEqual({ kind: 'crashed', message: 'TypeError: boom' });
  });

  it('a plain text reply ends as a CLI error; the text is still scanned for a fenced answer', () => {
    const text = `Here:\n\`\`\`json\n${JSON.stringify(POV)}\n\`\`\``;
    const stdout = jsonArray(init, assistant({ type: 'text', text }), { type: 'result', subtype: 'error_during_execution', is_error: true, error: { message: 'Model produced plain text instead of calling the structured_output tool ...' } });
    const d = qwenDecoder('qwen-code/json').decode(env(stdout, 1), { anchor: 'position' });
    expect(d.candidates).toMatchObject([{ origin: 'assistant-text', value: POV, fenced: true }]);
    expect(d.status.kind).toBe('cli-error');
  });
});

describe('qwenErrorStatus / qwenRejectionLine', () => {
  it('reads the HTTP status only from an [API Error: ...] text', () => {
    expect(qwenErrorStatus('[API Error: 400 bad request]')).toBe(400);
    expect(qwenErrorStatus('API Error 400')).toBeNull();
    expect(qwenErrorStatus('[API Error: 200 fine]')).toBeNull();
  });
  it('finds the rejection line among other stderr lines', () => {
    expect(qwenRejectionLine('Ripgrep not available\n\u001b[31m--json-schema is not valid JSON: Unexpected token\u001b[0m')).toBe('--json-schema is not valid JSON: Unexpected token');
    expect(qwenRejectionLine('Ripgrep not available')).toBeNull();
  });
});
