import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { openAiResponsesHandlers } from './openaiResponses.ts';
import { DEFAULT_PAYLOADS, PROSE_ONLY_TEXT } from './scenarios.ts';
import { startLoopbackServer, type LoopbackServer } from './server.ts';

const servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(...args: Parameters<typeof openAiResponsesHandlers>): Promise<LoopbackServer> {
  const server = await startLoopbackServer(openAiResponsesHandlers(...args));
  servers.push(server);
  return server;
}

const readSchema = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../schemas/contracts/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;
const STRICT_POV = readSchema('pov.openai-strict.schema.json');
const PRODUCTION_POV = readSchema('pov.schema.json');

/** A Responses request body as Codex 0.171.0 sends it (the parts the mock reads). */
function body(schema: unknown, strict = true): object {
  return {
    model: 'gpt-5.5',
    stream: true,
    input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
    text: { verbosity: 'low', format: { type: 'json_schema', name: 'codex_output_schema', strict, schema } },
  };
}

function post(url: string, payload: object): Promise<Response> {
  return fetch(`${url}/v1/responses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-routecert-codex-test-0000' },
    body: JSON.stringify(payload),
  });
}

type Frame = { event: string; data: Record<string, unknown> };

/** Parse an SSE body into `{event, data}` frames. */
function frames(text: string): Frame[] {
  return text
    .split('\n\n')
    .filter((f) => f.trim() !== '')
    .map((f) => ({
      event: /^event: (.*)$/m.exec(f)?.[1] ?? '',
      data: JSON.parse(/^data: (.*)$/m.exec(f)?.[1] ?? 'null') as Record<string, unknown>,
    }));
}

/** The text of every completed output message, in order, and the phase of each. */
function messages(all: Frame[]): { text: string; phase: unknown }[] {
  return all
    .filter((f) => f.event === 'response.output_item.done')
    .map((f) => {
      const item = f.data.item as { phase: unknown; content: { text: string }[] };
      return { text: item.content.map((c) => c.text).join(''), phase: item.phase };
    });
}

describe('openAiResponsesHandlers', () => {
  it('final: streams one assistant message whose text is the final payload as JSON, then response.completed with usage', async () => {
    const server = await serve({ scenario: 'final' });
    const res = await post(server.url, body(STRICT_POV));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const all = frames(await res.text());
    expect(all.map((f) => f.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    for (const f of all) expect(f.data.type).toBe(f.event);
    expect(all.map((f) => f.data.sequence_number)).toEqual(all.map((_f, i) => i));
    const deltas = all.filter((f) => f.event === 'response.output_text.delta').map((f) => f.data.delta).join('');
    expect(JSON.parse(deltas)).toEqual(DEFAULT_PAYLOADS.final);
    expect(messages(all)).toEqual([{ text: JSON.stringify(DEFAULT_PAYLOADS.final), phase: 'final_answer' }]);
    const completed = all.at(-1)!.data.response as { status: string; model: string; usage: Record<string, unknown> };
    expect(completed.status).toBe('completed');
    expect(completed.model).toBe('gpt-5.5');
    expect(Object.keys(completed.usage)).toEqual(['input_tokens', 'input_tokens_details', 'output_tokens', 'output_tokens_details', 'total_tokens']);
  });

  it('placeholder-then-final: a commentary message with the placeholder, then the final answer message', async () => {
    const server = await serve({ scenario: 'placeholder-then-final' });
    const all = frames(await (await post(server.url, body(STRICT_POV))).text());
    expect(messages(all)).toEqual([
      { text: JSON.stringify(DEFAULT_PAYLOADS.placeholder), phase: 'commentary' },
      { text: JSON.stringify(DEFAULT_PAYLOADS.final), phase: 'final_answer' },
    ]);
    const added = all.filter((f) => f.event === 'response.output_item.added').map((f) => f.data.output_index);
    expect(added).toEqual([0, 1]);
  });

  it('prose-only: the message text is the prose, with no JSON', async () => {
    const server = await serve({ scenario: 'prose-only' });
    const all = frames(await (await post(server.url, body(STRICT_POV))).text());
    expect(messages(all)).toEqual([{ text: PROSE_ONLY_TEXT, phase: 'final_answer' }]);
  });

  it('refuses a strict schema that breaks the OpenAI rules with 400 invalid_json_schema naming the place', async () => {
    const seen: string[] = [];
    const server = await serve({ scenario: 'final', onTurn: () => seen.push('turn'), onSchemaRejected: (v) => seen.push(v.pointer) });
    const res = await post(server.url, body(PRODUCTION_POV));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        message:
          "Invalid schema for response_format 'codex_output_schema': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'cross_model_route'. (JSON Pointer: \"/required\")",
        type: 'invalid_request_error',
        param: 'text.format.schema',
        code: 'invalid_json_schema',
      },
    });
    expect(seen).toEqual(['/required']);
  });

  it('does not enforce the rules when the format is not strict, or when enforcement is off', async () => {
    const lax = await serve({ scenario: 'final' });
    expect((await post(lax.url, body(PRODUCTION_POV, false))).status).toBe(200);
    const off = await serve({ scenario: 'final', enforceStrict: false });
    expect((await post(off.url, body(PRODUCTION_POV))).status).toBe(200);
  });

  it('api-400 and api-529 answer with OpenAI error bodies and those statuses', async () => {
    const bad = await serve({ scenario: 'api-400' });
    const r400 = await post(bad.url, body(STRICT_POV));
    expect(r400.status).toBe(400);
    expect(await r400.json()).toEqual({
      error: { message: 'routecert mock: invalid request (scenario api-400)', type: 'invalid_request_error', param: null, code: 'invalid_request_error' },
    });
    const busy = await serve({ scenario: 'api-529' });
    const r529 = await post(busy.url, body(STRICT_POV));
    expect(r529.status).toBe(529);
    expect(await r529.json()).toEqual({ error: { message: 'Overloaded', type: 'server_error', param: null, code: 'overloaded_error' } });
  });

  it('stall: opens the stream and never completes it', async () => {
    const server = await serve({ scenario: 'stall' });
    const controller = new AbortController();
    const res = await fetch(`${server.url}/v1/responses`, { method: 'POST', body: JSON.stringify(body(STRICT_POV)), signal: controller.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = await reader.read();
    const text = new TextDecoder().decode(first.value);
    expect(frames(text).map((f) => f.event)).toEqual(['response.created', 'response.in_progress']);
    expect(text).not.toContain('response.completed');
    controller.abort();
    await reader.cancel().catch(() => undefined);
  });

  it('answers each request of a run the same way and counts them', async () => {
    const turns: number[] = [];
    const server = await serve({ scenario: 'nonfinal-only', onTurn: (ctx) => turns.push(ctx.index) });
    for (let i = 0; i < 2; i += 1) {
      expect(messages(frames(await (await post(server.url, body(STRICT_POV))).text()))).toEqual([
        { text: JSON.stringify(DEFAULT_PAYLOADS.placeholder), phase: 'final_answer' },
      ]);
    }
    expect(turns).toEqual([0, 1]);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(['<redacted>', '<redacted>']);
  });
});
