/**
 * The structured HTTP call against an in-process OpenAI-compatible mock (msw `setupServer`: nothing
 * leaves the process; any request msw has no handler for fails the test).
 */
import { readFileSync } from 'node:fs';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defineContract } from '#src/contract/define.ts';
import type { EventContract } from '#src/contract/event.ts';
import { presetDefinition, PRESET_DIR } from '#src/contract/presets.ts';
import { structuredCall, type StructuredCallOptions } from '#src/harness/httpStructured.ts';
import { openAiCompatHandlers, type OpenAiCompatOptions, type OpenAiCompatRequest } from '#src/mock/openaiCompatHttp.ts';
import { projectPath } from '#src/paths.ts';

const BASE = 'http://127.0.0.1:4010/v1';
const schema = JSON.parse(readFileSync(projectPath('schemas/contracts/event.schema.json'), 'utf8')) as Record<string, unknown>;
const judge = defineContract({ ...presetDefinition('event'), schema, extensions: { codec: { kind: 'event', allowedKinds: ['progress', 'finding', 'done'] } } }, PRESET_DIR) as EventContract;
const EVENT = { kind: 'finding', text: 'The cache is never invalidated.', ref: 'src/cache.ts:40' };

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** Serve the mock with `options` and return the requests it will record. */
function serve(options: Omit<OpenAiCompatOptions, 'baseUrl' | 'onRequest'>): OpenAiCompatRequest[] {
  const seen: OpenAiCompatRequest[] = [];
  server.use(...openAiCompatHandlers({ baseUrl: BASE, ...options, onRequest: (r) => seen.push(r) }));
  return seen;
}

const call = (over: Partial<StructuredCallOptions>) =>
  structuredCall({ baseUrl: BASE, model: 'mock-1', messages: [{ role: 'user', content: 'Report one event.' }], schema, mode: 'json_schema', maxRetries: 2, judge, ...over });

describe('structuredCall', () => {
  it('json_schema mode: one request with response_format json_schema, accepted strict-json', async () => {
    const seen = serve({ replies: [JSON.stringify(EVENT)] });
    const result = await call({ mode: 'json_schema' });
    expect(result.path).toEqual(['json_schema']);
    expect(result.fellBack).toBe(false);
    expect(result.verdict).toMatchObject({ verdict: 'accepted', value: EVENT, tier: 'strict-json', origin: 'choices[0].message.content' });
    expect(seen.map((r) => r.mode)).toEqual(['json_schema']);
    expect(seen[0]!.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'event', schema, strict: true } });
  });

  it('tools mode against a server that answers 400 to tool calling falls back to json_schema and records the path', async () => {
    const seen = serve({ replies: [JSON.stringify(EVENT)], toolCalling: 'reject' });
    const result = await call({ mode: 'tools' });
    expect(result.path).toEqual(['tools', 'json_schema']);
    expect(result.fellBack).toBe(true);
    expect(result.reasks).toBe(0);
    expect(result.requests.map((r) => [r.mode, r.status])).toEqual([
      ['tools', 400],
      ['json_schema', 200],
    ]);
    expect(seen.map((r) => [r.mode, r.status])).toEqual([
      ['tools', 400],
      ['json_schema', 200],
    ]);
    expect(result.verdict).toMatchObject({ verdict: 'accepted', value: EVENT });
    expect(result.verdict.evidence[0]).toContain('tools mode refused (HTTP 400');
  });

  it('tools mode against a server that accepts tools reads the tool call arguments and does not fall back', async () => {
    serve({ replies: [JSON.stringify(EVENT)], toolCalling: 'accept' });
    const result = await call({ mode: 'tools' });
    expect(result.path).toEqual(['tools']);
    expect(result.verdict).toMatchObject({ verdict: 'accepted', origin: 'tool_calls[0].function.arguments', value: EVENT });
  });

  it('re-asks an invalid answer with its problem, and the corrected answer is accepted', async () => {
    const seen = serve({ replies: ['Still reading.', JSON.stringify({ ...EVENT, kind: 'decision' }), `Sure: ${JSON.stringify(EVENT)}`] });
    const result = await call({ mode: 'json_schema', maxRetries: 2 });
    expect(result.reasks).toBe(2);
    expect(result.requests.map((r) => r.tier)).toEqual(['raw-fallback', 'strict-json', 'embedded-block']);
    expect(result.verdict).toMatchObject({ verdict: 'accepted', tier: 'embedded-block', value: EVENT });
    const lastMessages = seen.at(-1)!.body.messages as { role: string; content: string }[];
    expect(lastMessages.at(-1)!.content).toContain('kind "decision" is not one of');
    expect(lastMessages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
  });

  it('max_retries bounds the re-asks; the last answer is dropped with its tier and the usage of every response is summed', async () => {
    const seen = serve({ replies: [{ content: 'prose', usage: { prompt_tokens: 100, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 40 } } }], toolCalling: 'reject' });
    const result = await call({ mode: 'tools', maxRetries: 1 });
    expect(seen.map((r) => [r.mode, r.status])).toEqual([
      ['tools', 400],
      ['json_schema', 200],
      ['json_schema', 200],
    ]);
    expect(result.reasks).toBe(1);
    expect(result.verdict).toMatchObject({ verdict: 'dropped-unusable', tier: 'raw-fallback' });
    expect(result.usage).toEqual({ prompt_tokens: 200, completion_tokens: 10, 'prompt_tokens_details.cached_tokens': 80 });
    expect(result.verdict.usage).toEqual(result.usage);
  });

  it('max_retries 0 never re-asks', async () => {
    const seen = serve({ replies: ['prose'] });
    const result = await call({ maxRetries: 0 });
    expect(seen).toHaveLength(1);
    expect(result.verdict.verdict).toBe('dropped-unusable');
  });

  it('a 400 in json_schema mode is a provider error, not a fallback', async () => {
    server.use(http.post(`${BASE}/chat/completions`, () => HttpResponse.json({ error: { message: 'response_format is not supported' } }, { status: 400 })));
    const result = await call({ mode: 'json_schema' });
    expect(result.path).toEqual(['json_schema']);
    expect(result.verdict).toMatchObject({ verdict: 'provider-error', status: 400 });
    expect(result.verdict.evidence[0]).toContain('response_format is not supported');
  });
});
