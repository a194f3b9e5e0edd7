import { afterEach, describe, expect, it } from 'vitest';
import {
  TITLE_TEXT,
  openaiChatHandlers,
  readOpenAiChatTurnContext,
} from '#src/mock/openaiChat.ts';
import { DEFAULT_PAYLOADS, PROSE_ONLY_TEXT, withoutFinal } from '#src/mock/scenarios.ts';
import { startLoopbackServer, type LoopbackServer } from '#src/mock/server.ts';
import { isTitleRequest } from '#src/mock/chatRequest.ts';

const servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(...args: Parameters<typeof openaiChatHandlers>): Promise<LoopbackServer> {
  const server = await startLoopbackServer(openaiChatHandlers(...args));
  servers.push(server);
  return server;
}

type Json = Record<string, unknown>;

const TOOL = { type: 'function', function: { name: 'structured_output', description: 'd', parameters: { type: 'object' } } };
const OTHER_TOOL = { type: 'function', function: { name: 'bash', description: 'd', parameters: { type: 'object' } } };

function chat(url: string, body: Json): Promise<Response> {
  return fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-routecert-test-0000' },
    body: JSON.stringify(body),
  });
}

/** The `data:` payloads of an SSE body, `[DONE]` kept as the string. */
function dataFrames(text: string): (Json | '[DONE]')[] {
  return text
    .split('\n\n')
    .filter((f) => f.trim() !== '')
    .map((f) => {
      const data = /^data: (.*)$/m.exec(f)?.[1] ?? 'null';
      return data === '[DONE]' ? '[DONE]' : (JSON.parse(data) as Json);
    });
}

/** What a client accumulates from the chunks: the text and each tool call's name and arguments. */
function accumulate(frames: (Json | '[DONE]')[]): { text: string; calls: { id: string; name: string; arguments: string }[]; finish: unknown; usage: unknown } {
  let text = '';
  const calls: { id: string; name: string; arguments: string }[] = [];
  let finish: unknown = null;
  let usage: unknown;
  for (const f of frames) {
    if (f === '[DONE]') continue;
    if (f.usage) usage = f.usage;
    const choice = (f.choices as Json[])[0];
    if (!choice) continue;
    if (choice.finish_reason) finish = choice.finish_reason;
    const delta = choice.delta as Json;
    if (typeof delta.content === 'string') text += delta.content;
    for (const tc of (delta.tool_calls ?? []) as Json[]) {
      const i = tc.index as number;
      const fn = (tc.function ?? {}) as Json;
      calls[i] ??= { id: '', name: '', arguments: '' };
      if (typeof tc.id === 'string') calls[i].id = tc.id;
      if (typeof fn.name === 'string') calls[i].name += fn.name;
      if (typeof fn.arguments === 'string') calls[i].arguments += fn.arguments;
    }
  }
  return { text, calls, finish, usage };
}

const userTurn = { role: 'user', content: 'Pick A or B.' };

describe('openaiChatHandlers', () => {
  it('final: streams one structured_output tool call with the final payload, a finish chunk, a usage chunk, then [DONE]', async () => {
    const server = await serve({ scenario: 'final' });
    const res = await chat(server.url, { model: 'm1', stream: true, stream_options: { include_usage: true }, tools: [TOOL], messages: [userTurn] });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const frames = dataFrames(await res.text());
    expect(frames.at(-1)).toBe('[DONE]');
    const usageChunk = frames.at(-2) as Json;
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage).toMatchObject({ prompt_tokens: 100 });
    for (const f of frames.slice(0, -1)) expect(f).toMatchObject({ object: 'chat.completion.chunk', model: 'm1' });
    const got = accumulate(frames);
    expect(got.finish).toBe('tool_calls');
    expect(got.text).toBe('');
    expect(got.calls).toHaveLength(1);
    expect(got.calls[0]!.name).toBe('structured_output');
    expect(JSON.parse(got.calls[0]!.arguments)).toEqual(DEFAULT_PAYLOADS.final);
  });

  it('answers in text when the request offers no structured tool, and leaves out the usage chunk unless asked', async () => {
    const server = await serve({ scenario: 'final' });
    const res = await chat(server.url, { model: 'm1', stream: true, tools: [OTHER_TOOL], messages: [userTurn] });
    const frames = dataFrames(await res.text());
    expect(frames.some((f) => f !== '[DONE]' && f.usage !== undefined)).toBe(false);
    const got = accumulate(frames);
    expect(got.finish).toBe('stop');
    expect(got.calls).toEqual([]);
    expect(JSON.parse(got.text)).toEqual(DEFAULT_PAYLOADS.final);
  });

  it('placeholder-then-final without a structured tool: both objects in one text, placeholder first', async () => {
    const server = await serve({ scenario: 'placeholder-then-final' });
    const got = accumulate(dataFrames(await (await chat(server.url, { stream: true, messages: [userTurn] })).text()));
    const [first, second] = got.text.split('\n\n');
    expect(JSON.parse(first!)).toEqual(DEFAULT_PAYLOADS.placeholder);
    expect(JSON.parse(second!)).toEqual(DEFAULT_PAYLOADS.final);
  });

  it('routes a title-generation request by its content: a short title, and the next request is still turn 0', async () => {
    const turns: number[] = [];
    const server = await serve({ scenario: 'prose-only', onTurn: (ctx) => turns.push(ctx.index) });
    const title = await chat(server.url, {
      stream: true,
      messages: [{ role: 'system', content: 'You are a title generator. You output ONLY a thread title. Nothing else.' }, { role: 'user', content: 'Generate a title for this conversation:' }],
    });
    expect(accumulate(dataFrames(await title.text())).text).toBe(TITLE_TEXT);
    const real = await chat(server.url, { stream: true, tools: [OTHER_TOOL], messages: [userTurn] });
    expect(accumulate(dataFrames(await real.text())).text).toBe(PROSE_ONLY_TEXT);
    expect(turns).toEqual([0]);
  });

  it('answers a non-streamed request with one chat.completion body', async () => {
    const server = await serve({ scenario: 'final' });
    const res = await chat(server.url, { model: 'm1', tools: [TOOL], messages: [userTurn] });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await res.json()) as Json;
    expect(body).toMatchObject({ object: 'chat.completion', model: 'm1', choices: [{ finish_reason: 'tool_calls', message: { role: 'assistant', content: null } }] });
    const call = ((body.choices as Json[])[0]!.message as Json).tool_calls as Json[];
    expect(JSON.parse((call[0]!.function as Json).arguments as string)).toEqual(DEFAULT_PAYLOADS.final);
  });

  it('api-400: OpenAI\'s error body with invalid_request_error', async () => {
    const server = await serve({ scenario: 'api-400' });
    const res = await chat(server.url, { stream: true, messages: [userTurn] });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { message: 'routecert mock: invalid request (scenario api-400)', type: 'invalid_request_error', param: null, code: null } });
    expect(res.headers.get('retry-after-ms')).toBeNull();
  });

  it('api-529: 529 by default; 503 server_error when asked; retry-after headers only when asked', async () => {
    const plain = await serve({ scenario: 'api-529' });
    const a = await chat(plain.url, { stream: true, messages: [userTurn] });
    expect(a.status).toBe(529);
    expect(await a.json()).toMatchObject({ error: { type: 'overloaded_error', message: 'Overloaded' } });
    expect(a.headers.get('retry-after-ms')).toBeNull();

    const openai = await serve({ scenario: 'api-529', overloadedStatus: 503, retryAfterMs: 1 });
    const b = await chat(openai.url, { stream: true, messages: [userTurn] });
    expect(b.status).toBe(503);
    expect(await b.json()).toMatchObject({ error: { type: 'server_error' } });
    expect(b.headers.get('retry-after-ms')).toBe('1');
    expect(b.headers.get('retry-after')).toBe('1');
  });

  it('stall: sends the first chunk and never finishes; close() still returns', async () => {
    const server = await serve({ scenario: 'stall' });
    const res = await chat(server.url, { stream: true, messages: [userTurn] });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('"role":"assistant"');
    const next = await Promise.race([reader.read().then(() => 'more'), new Promise((r) => setTimeout(() => r('stalled'), 300))]);
    expect(next).toBe('stalled');
    await server.close();
    await reader.cancel().catch(() => undefined);
  });

  it('answers anything else with the 501 catch-all', async () => {
    const server = await serve({ scenario: 'final' });
    const res = await fetch(`${server.url}/v1/models`);
    expect(res.status).toBe(501);
    expect(server.unexpected.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models']);
  });
});

describe('readOpenAiChatTurnContext', () => {
  const assistantCall = { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'structured_output', arguments: '{}' } }] };

  it('reads a rejected structured tool result (no wire flag: the text says it)', () => {
    const body = { tools: [TOOL], messages: [userTurn, assistantCall, { role: 'tool', tool_call_id: 'call_1', content: "params must have required property 'final'" }] };
    expect(readOpenAiChatTurnContext(body, 2)).toEqual({
      index: 2,
      structuredTool: 'structured_output',
      lastToolResult: { isError: true, content: "params must have required property 'final'" },
      enforceNudge: false,
    });
  });

  it('reads an accepted structured tool result, and the model then closes the turn', async () => {
    const body = { tools: [TOOL], messages: [userTurn, assistantCall, { role: 'tool', tool_call_id: 'call_1', content: 'Structured output accepted.' }] };
    expect(readOpenAiChatTurnContext(body, 1).lastToolResult).toEqual({ isError: false, content: 'Structured output accepted.' });
    const server = await serve({ scenario: 'final' });
    const got = accumulate(dataFrames(await (await chat(server.url, { stream: true, ...body })).text()));
    expect(got.calls).toEqual([]);
    expect(got.text).toBe('Done.');
  });

  it('missing-final: the same tool call without final on every request', async () => {
    const server = await serve({ scenario: 'missing-final' });
    const body = { stream: true, tools: [TOOL], messages: [userTurn, assistantCall, { role: 'tool', tool_call_id: 'call_1', content: 'Error: invalid params' }] };
    const got = accumulate(dataFrames(await (await chat(server.url, body)).text()));
    expect(JSON.parse(got.calls[0]!.arguments)).toEqual(withoutFinal(DEFAULT_PAYLOADS.final));
  });

  it('never throws on odd bodies', () => {
    for (const body of [null, 1, 'x', [], { messages: 'x', tools: {} }, { messages: [null, 1, { role: 'tool' }], tools: [null, { function: 1 }] }]) {
      expect(readOpenAiChatTurnContext(body, 0)).toMatchObject({ structuredTool: null, lastToolResult: null, enforceNudge: false });
    }
  });
});

describe('isTitleRequest', () => {
  it('is true only for a system message that asks for a title', () => {
    expect(isTitleRequest({ messages: [{ role: 'system', content: 'You are a title generator. You output ONLY a thread title.' }] })).toBe(true);
    expect(isTitleRequest({ messages: [{ role: 'system', content: [{ type: 'text', text: 'Generate a short title for the conversation.' }] }] })).toBe(true);
    expect(isTitleRequest({ messages: [{ role: 'user', content: 'You are a title generator.' }] })).toBe(false);
    expect(isTitleRequest({ messages: [{ role: 'system', content: 'You are a coding agent. Give each file a title comment.' }] })).toBe(false);
    expect(isTitleRequest(null)).toBe(false);
  });
});
