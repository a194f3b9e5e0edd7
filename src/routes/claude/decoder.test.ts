import { describe, expect, it } from 'vitest';
import { claudeDecoder } from './decoder.ts';
import { foldKey, findKeys } from '#src/envelope/keys.ts';

const decoder = claudeDecoder('claude-code/stream-json');
const POV = { position: 'Choose A', final: true };

describe('key spelling', () => {
  it('folds snake, camel, Pascal and kebab case to one key', () => {
    const folded = ['structured_output', 'structuredOutput', 'StructuredOutput', 'structured-output'].map(foldKey);
    expect(new Set(folded).size).toBe(1);
  });

  it('finds every spelling of a field in an object', () => {
    expect(findKeys({ 'structured-output': 1, other: 2 }, ['structured_output'])).toEqual(['structured-output']);
  });
});

describe('claudeDecoder', () => {
  it('reads the structured field under any key spelling', () => {
    for (const key of ['structured_output', 'structuredOutput', 'StructuredOutput', 'structured-output']) {
      const d = decoder.decode({ stdout: JSON.stringify({ type: 'result', [key]: POV }), stderr: '', exitCode: 0, elapsedMs: 1 });
      expect(d.structured).toMatchObject({ origin: key, value: POV, pointer: `/${key}` });
    }
  });

  it('reads candidates from stream events: tool_use input, assistant text and the result line', () => {
    const lines = [
      { type: 'system', subtype: 'init' },
      { type: 'assistant', message: { content: [{ type: 'text', text: 'draft {"position":"draft","final":false}' }] } },
      { type: 'assistant', message: { content: [{ type: 'tool_use', name: 'StructuredOutput', input: POV }] } },
      { type: 'result', subtype: 'success', is_error: false, result: JSON.stringify(POV), structured_output: POV },
    ];
    const stdout = `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
    const d = decoder.decode({ stdout, stderr: '', exitCode: 0, elapsedMs: 1 }, { anchor: 'position' });
    expect(d.candidates.map((c) => c.origin)).toEqual(['structured_output', 'assistant-text']);
    expect(d.candidates[0]!.event).toBe(3);
    expect(d.candidates[1]!.value).toEqual({ position: 'draft', final: false });
    for (const c of d.candidates) expect(c.offset).toBeLessThanOrEqual(stdout.length);
  });

  it('tolerates a truncated last line and says so', () => {
    const stdout = `${JSON.stringify({ type: 'system' })}\n{"type":"result","structured_out`;
    const d = decoder.decode({ stdout, stderr: '', exitCode: 0, elapsedMs: 1 });
    expect(d.notes.join(' ')).toMatch(/truncated/);
    expect(d.candidates).toEqual([]);
  });

  it('reads error_max_structured_output_retries as a CLI error with its message', () => {
    const stdout = JSON.stringify({ type: 'result', subtype: 'error_max_structured_output_retries', is_error: true, errors: ['Failed to provide valid structured output after 5 attempts'] });
    const d = decoder.decode({ stdout, stderr: '', exitCode: 1, elapsedMs: 1 });
    expect(d.status).toMatchObject({ kind: 'cli-error', subtype: 'error_max_structured_output_retries' });
    expect(d.human).toEqual(['Failed to provide valid structured output after 5 attempts']);
  });

  it('reads a startup rejection from stderr when stdout is empty', () => {
    const d = decoder.decode({ stdout: '', stderr: 'Error: --json-schema is not valid JSON: JSON Parse error', exitCode: 1, elapsedMs: 1 });
    expect(d.status.kind).toBe('startup-rejected');
  });

  it('never throws on arbitrary bytes', () => {
    for (const stdout of ['\u0000\uFFFD{{{', '{"type":"result","result":"{\\"a\\":', '\uFEFF[1,2]', '}'.repeat(1000)]) {
      expect(() => decoder.decode({ stdout, stderr: stdout, exitCode: 0, elapsedMs: 0 })).not.toThrow();
    }
  });
});
