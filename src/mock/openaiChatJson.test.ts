import { afterEach, describe, expect, it } from 'vitest';
import { openaiChatJsonHandlers, readChatJsonTurnContext } from '#src/mock/openaiChatJson.ts';
import { DEFAULT_PAYLOADS, PROSE_ONLY_TEXT, type ScenarioName } from '#src/mock/scenarios.ts';
import { startLoopbackServer, type LoopbackServer } from '#src/mock/server.ts';

const servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(scenario: ScenarioName, structuredToolName?: string): Promise<LoopbackServer> {
  const server = await startLoopbackServer(openaiChatJsonHandlers({ scenario, ...(structuredToolName ? { structuredToolName } : {}) }));
  servers.push(server);
  return server;
}

const TOOLS = [{ type: 'function', function: { name: 'view_file', parameters: { type: 'object' } } }];

function chat(url: string, body: object): Promise<Response> {
  return fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer xai-test' },
    body: JSON.stringify({ model: 'grok-code-fast-1', messages: [{ role: 'user', content: 'pick one' }], tools: TOOLS, tool_choice: 'auto', ...body }),
  });
}

type Completion = { object: string; model: string; choices: { message: { content: string | null; tool_calls?: unknown[] }; finish_reason: string }[]; usage: Record<string, number> };

describe('openaiChatJsonHandlers', () => {
  it('answers one chat.completion body with the final payload as text content', async () => {
    const server = await serve('final');
    const res = await chat(server.url, {});
    expect(res.status).toBe(200);
    const body = (await res.json()) as Completion;
    expect(body.object).toBe('chat.completion');
    expect(body.model).toBe('grok-code-fast-1');
    expect(body.choices[0]!.finish_reason).toBe('stop');
    expect(JSON.parse(body.choices[0]!.message.content!)).toEqual(DEFAULT_PAYLOADS.final);
    expect(body.choices[0]!.message.tool_calls).toBeUndefined();
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens! + body.usage.completion_tokens!);
  });

  it('puts placeholder and final on two lines of one content; prose-only is the prose', async () => {
    const both = (await (await chat((await serve('placeholder-then-final')).url, {})).json()) as Completion;
    expect(both.choices[0]!.message.content).toBe(`${JSON.stringify(DEFAULT_PAYLOADS.placeholder)}\n${JSON.stringify(DEFAULT_PAYLOADS.final)}`);
    const prose = (await (await chat((await serve('prose-only')).url, {})).json()) as Completion;
    expect(prose.choices[0]!.message.content).toBe(PROSE_ONLY_TEXT);
  });

  it('calls the structured tool when the CLI offers one', async () => {
    const server = await serve('final', 'structured_output');
    const res = await chat(server.url, { tools: [...TOOLS, { type: 'function', function: { name: 'structured_output', parameters: {} } }] });
    const body = (await res.json()) as Completion;
    expect(body.choices[0]!.finish_reason).toBe('tool_calls');
    const call = body.choices[0]!.message.tool_calls![0] as { function: { name: string; arguments: string } };
    expect(call.function.name).toBe('structured_output');
    expect(JSON.parse(call.function.arguments)).toEqual(DEFAULT_PAYLOADS.final);
  });

  it('answers api-400 and api-529 with OpenAI error bodies and those statuses', async () => {
    const r400 = await chat((await serve('api-400')).url, {});
    expect(r400.status).toBe(400);
    expect(await r400.json()).toMatchObject({ error: { type: 'invalid_request_error', message: expect.stringContaining('api-400') } });
    const r529 = await chat((await serve('api-529')).url, {});
    expect(r529.status).toBe(529);
    expect(await r529.json()).toMatchObject({ error: { message: 'Overloaded' } });
  });

  it('refuses a streaming request with a 400 that names the mismatch', async () => {
    const res = await chat((await serve('final')).url, { stream: true });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain('non-streaming');
  });

  it('stall: starts the body and never finishes it', async () => {
    const server = await serve('stall');
    const res = await chat(server.url, {});
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(' ');
    const next = await Promise.race([reader.read().then(() => 'more'), new Promise((resolve) => setTimeout(() => resolve('stalled'), 300))]);
    expect(next).toBe('stalled');
    await server.close();
    await reader.cancel().catch(() => undefined);
  });
});

describe('readChatJsonTurnContext', () => {
  it('sees the structured tool result in the last message and whether it was an error', () => {
    const body = {
      tools: [{ type: 'function', function: { name: 'structured_output' } }],
      messages: [
        { role: 'user', content: 'x' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'structured_output', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'Error: missing final' },
      ],
    };
    expect(readChatJsonTurnContext(body, 1, 'structured_output')).toEqual({
      index: 1,
      structuredTool: 'structured_output',
      lastToolResult: { isError: true, content: 'Error: missing final' },
      enforceNudge: false,
    });
    expect(readChatJsonTurnContext('not an object', 0).structuredTool).toBeNull();
  });
});
