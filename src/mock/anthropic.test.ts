import { afterEach, describe, expect, it } from 'vitest';
import { anthropicHandlers, anthropicToolSchemaProblem, readAnthropicTurnContext } from '#src/mock/anthropic.ts';
import { DEFAULT_PAYLOADS, PROSE_ONLY_TEXT, planTurn, withoutFinal } from '#src/mock/scenarios.ts';
import { startLoopbackServer, type LoopbackServer } from '#src/mock/server.ts';

const servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(...args: Parameters<typeof anthropicHandlers>): Promise<LoopbackServer> {
  const server = await startLoopbackServer(anthropicHandlers(...args));
  servers.push(server);
  return server;
}

const TOOL = { name: 'StructuredOutput', description: 'd', input_schema: { type: 'object' } };

function messagesRequest(url: string, body: object): Promise<Response> {
  return fetch(`${url}/v1/messages?beta=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'sk-ant-routecert-test-0000' },
    body: JSON.stringify(body),
  });
}

/** Parse an SSE body into `{event, data}` frames. */
function frames(text: string): { event: string; data: Record<string, unknown> }[] {
  return text
    .split('\n\n')
    .filter((f) => f.trim() !== '')
    .map((f) => {
      const event = /^event: (.*)$/m.exec(f)?.[1] ?? '';
      const data = JSON.parse(/^data: (.*)$/m.exec(f)?.[1] ?? 'null') as Record<string, unknown>;
      return { event, data };
    });
}

describe('startLoopbackServer', () => {
  it('binds 127.0.0.1 on an ephemeral port', async () => {
    const server = await serve({ scenario: 'final' });
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.port).toBeGreaterThan(0);
  });

  it('answers an unexpected request with a 501 that names it, and records it', async () => {
    const server = await serve({ scenario: 'final' });
    const res = await fetch(`${server.url}/v1/messages/count_tokens?beta=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'secret' },
      body: '{"model":"m"}',
    });
    expect(res.status).toBe(501);
    expect(await res.json()).toEqual({
      error: 'routecert mock: unexpected request',
      method: 'POST',
      path: '/v1/messages/count_tokens?beta=true',
    });
    expect(server.unexpected).toHaveLength(1);
    expect(server.unexpected[0]).toMatchObject({ method: 'POST', path: '/v1/messages/count_tokens?beta=true', body: { model: 'm' } });
    expect(server.unexpected[0]!.headers['x-api-key']).toBe('<redacted>');
    expect(server.requests).toEqual(server.unexpected);
  });

  it('answers a GET for an unknown path with a 501 too', async () => {
    const server = await serve({ scenario: 'final' });
    const res = await fetch(`${server.url}/health`);
    expect(res.status).toBe(501);
    expect(await res.json()).toMatchObject({ method: 'GET', path: '/health' });
  });

  it('refuses to bind anything but loopback', async () => {
    await expect(startLoopbackServer([], { host: '0.0.0.0' as '127.0.0.1' })).rejects.toThrow(/only 127\.0\.0\.1/);
  });
});

describe('anthropicHandlers', () => {
  it('final: streams one StructuredOutput tool_use with the final payload, in SSE order', async () => {
    const server = await serve({ scenario: 'final' });
    const res = await messagesRequest(server.url, { model: 'claude-sonnet-4-5', tools: [TOOL], messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const f = frames(await res.text());
    expect(f.map((x) => x.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(f.every((x) => x.data.type === x.event)).toBe(true);
    expect(f[1]!.data.content_block).toMatchObject({ type: 'tool_use', name: 'StructuredOutput', input: {} });
    const json = f
      .filter((x) => x.event === 'content_block_delta')
      .map((x) => (x.data.delta as { partial_json: string }).partial_json)
      .join('');
    expect(JSON.parse(json)).toEqual(DEFAULT_PAYLOADS.final);
    expect(f[5]!.data.delta).toMatchObject({ stop_reason: 'tool_use' });
    expect(server.requests).toHaveLength(1);
    expect(server.unexpected).toEqual([]);
  });

  it('api-529: answers Anthropic\'s overloaded_error body with status 529', async () => {
    const server = await serve({ scenario: 'api-529' });
    const res = await messagesRequest(server.url, { tools: [TOOL], messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).toBe(529);
    expect(await res.json()).toMatchObject({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
  });

  it('api-400: answers invalid_request_error with status 400', async () => {
    const server = await serve({ scenario: 'api-400' });
    const res = await messagesRequest(server.url, { tools: [TOOL], messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });

  it('stall: starts the stream and never finishes it; close() still returns', async () => {
    const server = await serve({ scenario: 'stall' });
    const res = await messagesRequest(server.url, { tools: [TOOL], messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('event: message_start');
    const next = await Promise.race([reader.read().then(() => 'more'), new Promise((r) => setTimeout(() => r('stalled'), 300))]);
    expect(next).toBe('stalled');
    await server.close();
    await reader.cancel().catch(() => undefined);
  });
});

describe('readAnthropicTurnContext', () => {
  it('finds the structured tool, a rejected tool_result, and the enforcement nudge', () => {
    const body = {
      tools: [TOOL],
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'StructuredOutput', input: {} }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', is_error: true, content: 'Output does not match required schema' },
            { type: 'text', text: '[structured-output-enforce] You MUST call the StructuredOutput tool' },
          ],
        },
      ],
    };
    expect(readAnthropicTurnContext(body, 3)).toEqual({
      index: 3,
      structuredTool: 'StructuredOutput',
      lastToolResult: { isError: true, content: 'Output does not match required schema' },
      enforceNudge: true,
    });
  });

  it('never throws on odd bodies', () => {
    for (const body of [null, 1, 'x', [], { messages: 'x', tools: {} }, { messages: [null, 1, { role: 'user', content: [null] }] }]) {
      expect(readAnthropicTurnContext(body, 0)).toMatchObject({ structuredTool: null, lastToolResult: null, enforceNudge: false });
    }
  });
});

describe('planTurn', () => {
  const ctx = { index: 0, structuredTool: 'StructuredOutput', lastToolResult: null, enforceNudge: false };

  it('missing-final calls the tool without `final`, the same on every retry', () => {
    const retry = { ...ctx, index: 2, lastToolResult: { isError: true, content: 'bad' } };
    const expected = { kind: 'message', blocks: [{ type: 'tool_use', name: 'StructuredOutput', input: withoutFinal(DEFAULT_PAYLOADS.final) }], stopReason: 'tool_use' };
    expect(planTurn('missing-final', DEFAULT_PAYLOADS, ctx)).toEqual(expected);
    expect(planTurn('missing-final', DEFAULT_PAYLOADS, retry)).toEqual(expected);
    expect(withoutFinal(DEFAULT_PAYLOADS.final)).not.toHaveProperty('final');
  });

  it('prose-only answers prose on the enforcement turn too', () => {
    expect(planTurn('prose-only', DEFAULT_PAYLOADS, { ...ctx, enforceNudge: true })).toEqual({
      kind: 'message',
      blocks: [{ type: 'text', text: PROSE_ONLY_TEXT }],
      stopReason: 'end_turn',
    });
  });

  it('placeholder-then-final: a text block with the placeholder JSON, then the tool call', () => {
    const turn = planTurn('placeholder-then-final', DEFAULT_PAYLOADS, ctx);
    expect(turn).toEqual({
      kind: 'message',
      blocks: [
        { type: 'text', text: JSON.stringify(DEFAULT_PAYLOADS.placeholder) },
        { type: 'tool_use', name: 'StructuredOutput', input: DEFAULT_PAYLOADS.final },
      ],
      stopReason: 'tool_use',
    });
  });

  it('closes the turn with text once the structured tool was accepted', () => {
    const turn = planTurn('final', DEFAULT_PAYLOADS, { ...ctx, lastToolResult: { isError: false, content: 'ok' } });
    expect(turn).toMatchObject({ kind: 'message', stopReason: 'end_turn' });
  });
});

describe('anthropicToolSchemaProblem (the Messages API refuses a top-level oneOf/allOf/anyOf input_schema)', () => {
  it('names the first such tool as the API does, and passes any other schema', () => {
    const tool = (input_schema: unknown) => ({ name: 'T', input_schema });
    expect(anthropicToolSchemaProblem({ tools: [tool({ type: 'object' }), tool({ anyOf: [{ type: 'object' }] })] })).toBe(
      'tools.1.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level',
    );
    expect(anthropicToolSchemaProblem({ tools: [tool({ type: 'object', properties: { a: { anyOf: [{ type: 'string' }] } } })] })).toBeNull();
    expect(anthropicToolSchemaProblem({})).toBeNull();
  });
});
