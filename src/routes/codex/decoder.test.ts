import { describe, expect, it } from 'vitest';
import { codexDecoder, readCodexFailure } from './decoder.ts';
import type { Envelope } from '#src/envelope/types.ts';
import { pushAll } from '#src/arrays.ts';

const decoder = codexDecoder();
const FINAL = { position: 'Choose A', final: true };
const PLACEHOLDER = { position: 'blocked: gathering subject evidence', final: false };
const USAGE = { input_tokens: 100, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 54, reasoning_output_tokens: 0 };

/** JSONL as Codex 0.171.0 prints it: thread.started, turn.started, one item per agent message, then the tail. */
function jsonl(texts: string[], tail: object[] = [{ type: 'turn.completed', usage: USAGE }], head: object[] = []): string {
  const lines: object[] = [{ type: 'thread.started', thread_id: '01a2' }, ...head, { type: 'turn.started' }];
  texts.forEach((text, i) => lines.push({ type: 'item.completed', item: { id: `item_${i}`, type: 'agent_message', text } }));
  pushAll(lines, tail);
  return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
}

function envelope(stdout: string, extra: Partial<Envelope> = {}): Envelope {
  return { stdout, stderr: '', exitCode: 0, elapsedMs: 500, ...extra };
}

const failed = (message: string) => [{ type: 'error', message }, { type: 'turn.failed', error: { message } }];

describe('codexDecoder: answers', () => {
  it('reads the last agent message, with the -o copy as the structured answer and the last candidate', () => {
    const text = JSON.stringify(FINAL);
    const stdout = jsonl([text]);
    const d = decoder.decode(envelope(stdout, { files: { 'last-message': text } }), { anchor: 'position' });
    expect(d.candidates).toHaveLength(1);
    expect(d.structured).toBe(d.candidates[0]);
    expect(d.structured).toMatchObject({ origin: 'last-message', value: FINAL, pointer: '', nested: 0, offset: stdout.length });
    expect(d.status).toEqual({ kind: 'ok' });
    expect(d.usage).toEqual(USAGE);
    expect(d.keys).toEqual(['type', 'usage']);
  });

  it('without the -o file, the last agent message is the structured answer, located by its event line', () => {
    const stdout = jsonl([JSON.stringify(FINAL)]);
    const d = decoder.decode(envelope(stdout));
    expect(d.structured).toMatchObject({ origin: 'assistant-text', pointer: '/item/text', event: 2, value: FINAL, nested: 1 });
    expect(stdout.slice(d.structured!.offset)).toMatch(/^\{"type":"item.completed"/);
  });

  it('keeps every agent message in stream order, so a later schema-shaped message follows an earlier one', () => {
    const later = { ...FINAL, position: 'Choose B' };
    const d = decoder.decode(envelope(jsonl([JSON.stringify(PLACEHOLDER), JSON.stringify(FINAL), JSON.stringify(later)])));
    expect(d.candidates.map((c) => c.value)).toEqual([PLACEHOLDER, FINAL, later]);
    expect(d.candidates.map((c) => c.event)).toEqual([2, 3, 4]);
    expect(d.structured?.value).toEqual(later);
  });

  it('keeps a repeated value at its last place, never the first', () => {
    const other = { ...FINAL, position: 'Choose B' };
    const texts = [JSON.stringify(FINAL), JSON.stringify(other), JSON.stringify(FINAL)];
    const d = decoder.decode(envelope(jsonl(texts), { files: { 'last-message': texts[2]! } }));
    expect(d.candidates.map((c) => [c.origin, c.value])).toEqual([
      ['assistant-text', other],
      ['last-message', FINAL],
    ]);
  });

  it('finds a fenced answer in prose, in the message and in the -o file', () => {
    const text = `Here is my answer:\n\n\`\`\`json\n${JSON.stringify(FINAL, null, 2)}\n\`\`\`\n\nThat is my final position.`;
    const d = decoder.decode(envelope(jsonl([text]), { files: { 'last-message': text } }), { anchor: 'position' });
    expect(d.candidates).toEqual([expect.objectContaining({ origin: 'last-message', value: FINAL, fenced: true, nested: 0 })]);
    expect(d.structured).toBeUndefined();
  });

  it('exit 0 with a prose answer is not an answer: no candidate, the prose is the evidence, and a note says so', () => {
    const prose = 'I think option A is the better choice.';
    const d = decoder.decode(envelope(jsonl([prose]), { files: { 'last-message': prose } }));
    expect(d.candidates).toEqual([]);
    expect(d.status.kind).toBe('ok');
    expect(d.human).toEqual([prose]);
    expect(d.notes.join(' ')).toMatch(/not one JSON object/);
  });

  it('tolerates non-fatal error items and reconnect errors when the turn completes', () => {
    const head = [{ type: 'item.completed', item: { id: 'item_0', type: 'error', message: 'Model metadata for `m` not found.' } }];
    const stdout = jsonl([JSON.stringify(FINAL)], [{ type: 'error', message: 'Reconnecting... 1/5 (stream disconnected)' }, { type: 'turn.completed', usage: USAGE }], head);
    const d = decoder.decode(envelope(stdout));
    expect(d.status).toEqual({ kind: 'ok' });
    expect(d.structured?.value).toEqual(FINAL);
    expect(d.notes).toContain('non-fatal error item: Model metadata for `m` not found.');
  });
});

describe('codexDecoder: failures', () => {
  it('reads HTTP 400 from the raw error body Codex prints for it, with the provider message', () => {
    const raw = JSON.stringify({ error: { message: 'bad request body', type: 'invalid_request_error', param: null, code: 'invalid_request_error' } });
    const d = decoder.decode(envelope(jsonl([], failed(raw)), { exitCode: 1, files: { 'last-message': '' } }));
    expect(d.status).toEqual({ kind: 'provider-error', message: 'bad request body', apiErrorStatus: 400, isError: true });
    expect(d.ancillary).toEqual(['api_error_status=400', 'error_code=invalid_request_error']);
    expect(d.human).toEqual(['bad request body']);
    expect(d.candidates).toEqual([]);
    expect(d.keys).toEqual(['type', 'error']);
  });

  it('reads a schema the provider refused (invalid_json_schema) as a startup rejection with its message', () => {
    const message = "Invalid schema for response_format 'codex_output_schema': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'x'.";
    const raw = JSON.stringify({ error: { message, type: 'invalid_request_error', param: 'text.format.schema', code: 'invalid_json_schema' } });
    const d = decoder.decode(envelope(jsonl([], failed(raw)), { exitCode: 1 }));
    expect(d.status).toMatchObject({ kind: 'startup-rejected', message, apiErrorStatus: 400 });
    expect(d.ancillary).toContain('error_code=invalid_json_schema');
  });

  it('reads the status out of the worded failures, and none where the words give none', () => {
    const cases: [string, number | null][] = [
      ['unexpected status 529 <unknown status code>: Overloaded, url: http://127.0.0.1:1/v1/responses, request id: r', 529],
      ['unexpected status 401 Unauthorized: mock 401, url: http://127.0.0.1:1/v1/responses', 401],
      ['exceeded retry limit, last status: 429 Too Many Requests', 429],
      ['We’re currently experiencing high demand, which may cause temporary errors.', null],
    ];
    for (const [message, status] of cases) {
      const d = decoder.decode(envelope(jsonl([], failed(message)), { exitCode: 1 }));
      expect(d.status).toMatchObject({ kind: 'provider-error', apiErrorStatus: status, message });
    }
  });

  it('a refused or unreadable schema file stops Codex before any event: startup-rejected from stderr', () => {
    const stderr = 'Output schema file <tmp>/s.json is not valid JSON: expected value at line 1 column 1\n';
    const d = decoder.decode(envelope('', { stderr, exitCode: 1 }));
    expect(d.status).toEqual({ kind: 'startup-rejected', message: 'Output schema file <tmp>/s.json is not valid JSON: expected value at line 1 column 1' });
  });

  it('no JSONL and a non-zero exit or a signal is a crash; a turn that never ended says so', () => {
    expect(decoder.decode(envelope('', { stderr: 'thread panicked', exitCode: 101 })).status).toEqual({ kind: 'crashed', message: 'thread panicked' });
    const killed = decoder.decode(envelope(jsonl([], []), { exitCode: null, signal: 'SIGKILL' }));
    expect(killed.status.kind).toBe('crashed');
    expect(killed.notes).toContain('no turn.completed or turn.failed event: the turn never ended');
  });
});

describe('readCodexFailure', () => {
  it('keeps the words when a JSON-looking message is not an error body', () => {
    expect(readCodexFailure('{"oops":')).toEqual({ status: null, message: '{"oops":', code: null });
    expect(readCodexFailure('{"detail":"x"}')).toEqual({ status: null, message: '{"detail":"x"}', code: null });
  });
});

describe('codexDecoder.detect', () => {
  it('recognises Codex JSONL and nothing else', () => {
    expect(decoder.detect(envelope(jsonl([])))).toBe(true);
    expect(decoder.detect(envelope('{"type":"result","is_error":false}'))).toBe(false);
  });
});

describe('codexDecoder: commentary and incomplete turns (issue 11)', () => {
  const item = (text: string, phase?: string) => ({ type: 'item.completed', item: { id: 'i', type: 'agent_message', text, ...(phase ? { phase } : {}) } });
  const lines = (...events: object[]) => `${events.map((e) => JSON.stringify(e)).join('\n')}\n`;
  const start = [{ type: 'thread.started', thread_id: 't' }, { type: 'turn.started' }];
  const done = { type: 'turn.completed', usage: USAGE };

  it('never reads a message marked phase "commentary", nor the -o file that repeats it (openai/codex#30190)', () => {
    const d = decoder.decode(envelope(lines(...start, item(JSON.stringify(FINAL), 'commentary'), done), { files: { 'last-message': JSON.stringify(FINAL) } }), { anchor: 'position' });
    expect(d.candidates).toEqual([]);
    expect(d.notes.join(' ')).toContain('phase: "commentary"');
    expect(d.notes.join(' ')).toContain('repeats a commentary message');
  });

  it('reads the final_answer message after a commentary one', () => {
    const d = decoder.decode(envelope(lines(...start, item(JSON.stringify(PLACEHOLDER), 'commentary'), item(JSON.stringify(FINAL), 'final_answer'), done), { files: { 'last-message': JSON.stringify(FINAL) } }), { anchor: 'position' });
    expect(d.candidates.map((c) => [c.origin, c.value])).toEqual([['last-message', FINAL]]);
  });

  it('a turn that never ends (no turn.completed or turn.failed) is incomplete even with exit 0', () => {
    const d = decoder.decode(envelope(lines(...start, item(JSON.stringify(FINAL))), { files: { 'last-message': JSON.stringify(FINAL) } }), { anchor: 'position' });
    expect(d.status).toMatchObject({ kind: 'crashed', incomplete: 'no turn.completed or turn.failed event' });
  });

  it('names lost output when the turn spent tokens and left no message', () => {
    const d = decoder.decode(envelope(lines(...start, done)), { anchor: 'position' });
    expect(d.human).toEqual(['lost output: 54 output token(s) spent, nothing delivered']);
  });
});

describe('codexDecoder: the first thread/item releases (openai/codex#4525)', () => {
  it('reads item_type assistant_message as the answer and never a reasoning item', () => {
    const stdout = `${[
      { type: 'thread.started', thread_id: 't' },
      { type: 'turn.started' },
      { type: 'item.completed', item: { id: 'item_0', item_type: 'reasoning', text: JSON.stringify(PLACEHOLDER) } },
      { type: 'item.completed', item: { id: 'item_1', item_type: 'assistant_message', text: JSON.stringify(FINAL) } },
      { type: 'turn.completed', usage: USAGE },
    ]
      .map((e) => JSON.stringify(e))
      .join('\n')}\n`;
    const d = decoder.decode(envelope(stdout), { anchor: 'position' });
    expect(d.candidates.map((c) => [c.origin, c.value, c.event])).toEqual([['assistant-text', FINAL, 3]]);
    expect(d.status.kind).toBe('ok');
  });
});

describe('codexDecoder: the legacy {"id","msg"} format (before openai/codex#4525)', () => {
  /** A config summary, the prompt line, then `{"id","msg"}` events, as BloopAI/vibe-kanban's fixtures of it show. */
  function legacy(...msgs: object[]): string {
    const lines: object[] = [{ sandbox: 'read-only', approval: 'Never', provider: 'openai', model: 'gpt-5-codex' }, { prompt: 'Give your point of view.' }, { id: '0', msg: { type: 'session_configured', session_id: 's' } }, { id: '1', msg: { type: 'task_started' } }];
    for (const msg of msgs) lines.push({ id: '1', msg });
    return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
  }
  const text = JSON.stringify(FINAL);

  it('reads agent_message as the answer and task_complete as the end of the turn, with the token_count usage', () => {
    const usage = { input_tokens: 100, output_tokens: 54 };
    const d = decoder.decode(envelope(legacy({ type: 'agent_message', message: text }, { type: 'token_count', info: { total_token_usage: usage } }, { type: 'task_complete', last_agent_message: text })), { anchor: 'position' });
    expect(d.status.kind).toBe('ok');
    expect(d.candidates.map((c) => c.value)).toEqual([FINAL]);
    expect(d.usage).toEqual(usage);
    expect(decoder.detect(envelope(legacy({ type: 'agent_message', message: text })))).toBe(true);
  });

  it('is an incomplete stream without task_complete, whatever the exit code', () => {
    const d = decoder.decode(envelope(legacy({ type: 'agent_message', message: text })), { anchor: 'position' });
    expect(d.status).toMatchObject({ kind: 'crashed', incomplete: 'no task_complete event' });
  });

  it('is a failure when an error event ends a run that exited non-zero', () => {
    const message = 'stream disconnected before completion: error sending request';
    const d = decoder.decode(envelope(legacy({ type: 'stream_error', message: `${message}; retrying 1/5 in 200ms…` }, { type: 'error', message }), { exitCode: 1 }), { anchor: 'position' });
    expect(d.status).toMatchObject({ kind: 'provider-error', message });
  });
});
