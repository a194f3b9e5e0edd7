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
    // The answer repeated by the tool input and the result line stands where its last copy does (issue 19).
    expect(d.candidates.map((c) => c.origin)).toEqual(['assistant-text', 'structured_output']);
    expect(d.candidates[1]!.event).toBe(3);
    expect(d.candidates[0]!.value).toEqual({ position: 'draft', final: false });
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

describe('claudeDecoder: shapes of issue 11', () => {
  const json = claudeDecoder('claude-code/json');
  const env = (stdout: string, exitCode: number | null = 0, stderr = '') => ({ stdout, stderr, exitCode, elapsedMs: 1 });
  const result = { type: 'result', subtype: 'success', is_error: false, session_id: 's', usage: { output_tokens: 54 }, result: JSON.stringify(POV), structured_output: POV };

  it('reads the --verbose JSON array of every event: the result element structured field first, at its array pointer', () => {
    const events = [{ type: 'system', subtype: 'init' }, { type: 'assistant', message: { content: [{ type: 'tool_use', name: 'StructuredOutput', input: POV }] } }, { type: 'user' }, result];
    const d = json.decode(env(JSON.stringify(events)), { anchor: 'position' });
    expect(d.structured).toMatchObject({ origin: 'structured_output', pointer: '/3/structured_output', value: POV });
    expect(d.candidates.map((c) => c.origin)).toEqual(['structured_output']);
    expect(d.status.kind).toBe('ok');
    expect(d.notes.join(' ')).toContain('one JSON array of every event');
  });

  it('is_error wins over subtype success: an API Error text is a provider error (claude-code#79500), its status read when given', () => {
    const d = json.decode(env(JSON.stringify({ type: 'result', subtype: 'success', is_error: true, result: 'API Error: Rate limit reached' })));
    expect(d.status).toMatchObject({ kind: 'provider-error', isError: true, message: 'API Error: Rate limit reached' });
    const s = json.decode(env(JSON.stringify({ type: 'result', subtype: 'success', is_error: true, result: 'API Error: 529 {"type":"error"}' })));
    expect(s.status).toMatchObject({ kind: 'provider-error', apiErrorStatus: 529 });
    expect(s.ancillary).toContain('api_error_status=529');
    expect(json.decode(env(JSON.stringify({ type: 'result', subtype: 'success', is_error: true, result: 'Something odd' }))).status.kind).toBe('cli-error');
  });

  it('names lost output: tokens spent, nothing delivered (claude-code#38805)', () => {
    const d = json.decode(env(JSON.stringify({ ...result, result: '', structured_output: undefined, usage: { output_tokens: 5 } })), { anchor: 'position' });
    expect(d.human).toEqual(['lost output: 5 output token(s) spent, nothing delivered']);
    expect(json.decode(env(JSON.stringify({ ...result, result: 'prose only', structured_output: undefined })), { anchor: 'position' }).human).toEqual(['prose only']);
  });

  it('a stream without its result line, or with the result line cut, is incomplete whatever it holds', () => {
    const tool = JSON.stringify({ type: 'assistant', message: { content: [{ type: 'tool_use', name: 'StructuredOutput', input: POV }] } });
    const none = decoder.decode(env(`${tool}\n`), { anchor: 'position' });
    expect(none.status).toMatchObject({ kind: 'crashed', incomplete: 'no terminal {"type":"result"} object' });
    expect(none.candidates).toHaveLength(1);
    const cut = decoder.decode(env(`${tool}\n${JSON.stringify(result).slice(0, 40)}`), { anchor: 'position' });
    expect(cut.status).toMatchObject({ kind: 'crashed', incomplete: 'the last line of stdout is cut' });
    expect(cut.ancillary).toContain('incomplete stream: the last line of stdout is cut');
  });

  it('reads the result past stray non-JSON lines around it', () => {
    const d = json.decode(env(`some warning\n${JSON.stringify(result, null, 2)}\n`), { anchor: 'position' });
    expect(d.structured?.value).toEqual(POV);
    expect(d.status.kind).toBe('ok');
  });

  it('is startup-rejected when commander refuses an argument', () => {
    expect(json.decode(env('', 1, "error: unknown option '--x'\n")).status).toEqual({ kind: 'startup-rejected', message: "error: unknown option '--x'" });
  });
});

describe('one assistant message split over several stream events (anthropics/claude-code#78686)', () => {
  it('reads the text blocks of one message id joined, while the result holds only the first fragment', () => {
    const answer = JSON.stringify({ position: 'Choose A', reasoning: 'r'.repeat(40), final: true });
    const cut = 30;
    const lines = [
      { type: 'system', subtype: 'init', session_id: 's' },
      { type: 'assistant', message: { id: 'msg_1', role: 'assistant', content: [{ type: 'text', text: answer.slice(0, cut) }], stop_reason: null }, session_id: 's' },
      { type: 'assistant', message: { id: 'msg_1', role: 'assistant', content: [{ type: 'text', text: answer.slice(cut) }], stop_reason: 'end_turn' }, session_id: 's' },
      { type: 'result', subtype: 'success', is_error: false, result: answer.slice(0, cut), session_id: 's' },
    ];
    const d = decoder.decode({ stdout: `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`, stderr: '', exitCode: 0, elapsedMs: 1 }, { anchor: 'position' });
    expect(d.candidates.map((c) => [c.origin, c.value])).toEqual([['assistant-text', JSON.parse(answer)]]);
    expect(d.candidates[0]!.event).toBe(2);
  });
});

describe('schema refusal: the provider wording only (issue 21, hcheck false positive)', () => {
  const json = claudeDecoder('claude-code/json');
  const result = (text: string) => JSON.stringify({ type: 'result', subtype: 'success', is_error: true, num_turns: 1, result: text, session_id: 'x' });
  it('a 400 naming tools.N.custom.input_schema is startup-rejected; a 400 that mentions input_schema in a refused message is a provider error', () => {
    const refused = 'API Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"tools.14.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level"}}';
    expect(json.decode({ stdout: result(refused), stderr: '', exitCode: 1, elapsedMs: 1 }).status.kind).toBe('startup-rejected');
    const other = 'API Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"messages.3.content.1.tool_use.input: Input should be a valid dictionary; the tool StructuredOutput input_schema was fine"}}';
    expect(json.decode({ stdout: result(other), stderr: '', exitCode: 1, elapsedMs: 1 }).status).toMatchObject({ kind: 'provider-error', apiErrorStatus: 400 });
  });
  it('after a model turn, a schema-worded 400 is a provider error (the schema was accepted then)', () => {
    const refused = 'API Error: 400 tools.0.custom.input_schema: JSON schema is invalid';
    const turn = JSON.stringify({ type: 'assistant', message: { model: 'claude-x', role: 'assistant', content: [{ type: 'text', text: 'working' }] }, session_id: 'x' });
    expect(decoder.decode({ stdout: `${turn}\n${result(refused)}\n`, stderr: '', exitCode: 1, elapsedMs: 1 }).status.kind).toBe('provider-error');
  });
});
