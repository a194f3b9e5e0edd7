import { describe, expect, it } from 'vitest';
import { codexDecoder, readCodexFailure } from './decoder.ts';
import type { Envelope } from '#src/envelope/types.ts';

const decoder = codexDecoder();
const FINAL = { position: 'Choose A', final: true };
const PLACEHOLDER = { position: 'blocked: gathering subject evidence', final: false };
const USAGE = { input_tokens: 100, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 54, reasoning_output_tokens: 0 };

/** JSONL as Codex 0.171.0 prints it: thread.started, turn.started, one item per agent message, then the tail. */
function jsonl(texts: string[], tail: object[] = [{ type: 'turn.completed', usage: USAGE }], head: object[] = []): string {
  const lines: object[] = [{ type: 'thread.started', thread_id: '01a2' }, ...head, { type: 'turn.started' }];
  texts.forEach((text, i) => lines.push({ type: 'item.completed', item: { id: `item_${i}`, type: 'agent_message', text } }));
  lines.push(...tail);
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
