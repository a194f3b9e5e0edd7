import { afterEach, describe, expect, it } from 'vitest';
import { geminiHandlers, satisfySchema } from '#src/mock/gemini.ts';
import { DEFAULT_PAYLOADS, PROSE_ONLY_TEXT, fencedText } from '#src/mock/scenarios.ts';
import { startLoopbackServer, type LoopbackServer } from '#src/mock/server.ts';
import type { ScenarioName } from '#src/mock/scenarios.ts';

const servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(scenario: ScenarioName): Promise<LoopbackServer> {
  const server = await startLoopbackServer(geminiHandlers({ scenario }));
  servers.push(server);
  return server;
}

function post(url: string, path: string, body: object): Promise<Response> {
  return fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': 'test' },
    body: JSON.stringify(body),
  });
}

const CHAT = '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse';
const USER = { contents: [{ role: 'user', parts: [{ text: 'pick one' }] }] };

/** The `data:` chunks of an SSE body, parsed. */
function chunks(text: string): Record<string, unknown>[] {
  return text
    .split(/\r?\n\r?\n/)
    .filter((f) => f.startsWith('data: '))
    .map((f) => JSON.parse(f.slice('data: '.length)) as Record<string, unknown>);
}

/** The text a client would assemble from the chunks (all text parts, no separator). */
function assembled(all: Record<string, unknown>[]): string {
  return all
    .flatMap((c) => (c.candidates as { content: { parts: { text?: string }[] } }[])[0]!.content.parts)
    .map((p) => p.text ?? '')
    .join('');
}

describe('geminiHandlers: chat requests', () => {
  it('streams the final payload as JSON text split over chunks, the last one with STOP and usage', async () => {
    const server = await serve('final');
    const res = await post(server.url, CHAT, USER);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const all = chunks(await res.text());
    expect(all.length).toBeGreaterThan(2);
    expect(JSON.parse(assembled(all))).toEqual(DEFAULT_PAYLOADS.final);
    const last = all.at(-1)!;
    expect((last.candidates as { finishReason?: string }[])[0]!.finishReason).toBe('STOP');
    expect(last.usageMetadata).toMatchObject({ promptTokenCount: 100 });
    expect(last.modelVersion).toBe('gemini-2.5-flash');
  });

  it('plays placeholder-then-final as two objects back to back, prose-only as prose, fenced as a fence', async () => {
    const server = await serve('placeholder-then-final');
    const text = assembled(chunks(await (await post(server.url, CHAT, USER)).text()));
    expect(text).toBe(JSON.stringify(DEFAULT_PAYLOADS.placeholder) + JSON.stringify(DEFAULT_PAYLOADS.final));
    const prose = await serve('prose-only');
    expect(assembled(chunks(await (await post(prose.url, CHAT, USER)).text()))).toBe(PROSE_ONLY_TEXT);
    const fenced = await serve('fenced');
    expect(assembled(chunks(await (await post(fenced.url, CHAT, USER)).text()))).toBe(fencedText(DEFAULT_PAYLOADS.final));
  });

  it('answers api-400 and api-529 with Google error bodies carrying the HTTP code', async () => {
    const bad = await serve('api-400');
    const r400 = await post(bad.url, CHAT, USER);
    expect(r400.status).toBe(400);
    expect(await r400.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
    const busy = await serve('api-529');
    const r529 = await post(busy.url, CHAT, USER);
    expect(r529.status).toBe(529);
    expect(await r529.json()).toMatchObject({ error: { code: 529, message: 'Overloaded', status: 'UNAVAILABLE' } });
  });

  it('stall: starts the stream with an empty chunk and never ends it', async () => {
    const server = await serve('stall');
    const res = await post(server.url, CHAT, USER);
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(assembled(chunks(new TextDecoder().decode(first.value)))).toBe('');
    const next = await Promise.race([reader.read().then(() => 'more'), new Promise((resolve) => setTimeout(() => resolve('stalled'), 300))]);
    expect(next).toBe('stalled');
    await server.close();
    await reader.cancel().catch(() => undefined);
  });
});

describe('geminiHandlers: utility requests (the model router)', () => {
  it("answers the router's classifier with an object its schema accepts, whatever the scenario", async () => {
    const server = await serve('api-400');
    const schema = {
      type: 'OBJECT',
      properties: { complexity_reasoning: { type: 'STRING' }, complexity_score: { type: 'INTEGER' } },
      required: ['complexity_reasoning', 'complexity_score'],
    };
    const res = await post(server.url, '/v1beta/models/gemini-3.5-flash-lite:generateContent', {
      ...USER,
      generationConfig: { responseMimeType: 'application/json', responseJsonSchema: schema },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { candidates: { content: { parts: { text: string }[] } }[] };
    const answer = JSON.parse(body.candidates[0]!.content.parts[0]!.text) as Record<string, unknown>;
    expect(typeof answer.complexity_reasoning).toBe('string');
    expect(Number.isInteger(answer.complexity_score)).toBe(true);
    // The utility call is not a scenario turn: the next chat request still gets the scenario's 400.
    expect((await post(server.url, CHAT, USER)).status).toBe(400);
  });

  it('satisfySchema fills required properties, takes the first enum member, skips optional ones', () => {
    expect(
      satisfySchema({
        type: 'object',
        properties: { who: { type: 'string', enum: ['user', 'model'] }, n: { type: 'number' }, ok: { type: 'boolean' }, extra: { type: 'string' } },
        required: ['who', 'n', 'ok'],
      }),
    ).toEqual({ who: 'user', n: 10, ok: false });
  });
});

describe('geminiHandlers: unexpected requests', () => {
  it('leaves other Gemini endpoints to the 501 catch-all, which records them', async () => {
    const server = await serve('final');
    const res = await post(server.url, '/v1beta/models/gemini-2.5-flash:countTokens', USER);
    expect(res.status).toBe(501);
    expect(server.unexpected.map((r) => r.path)).toEqual(['/v1beta/models/gemini-2.5-flash:countTokens']);
  });
});

describe("generateContent: 'scenario' (an in-process consumer's one-shot call)", () => {
  let own: LoopbackServer | undefined;
  afterEach(async () => {
    await own?.close();
    own = undefined;
  });
  const post = (url: string) =>
    fetch(`${url}/v1beta/models/gemini-2.5-flash:generateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': 'fake' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Give your POV' }] }], generationConfig: { responseMimeType: 'application/json' } }),
    });

  it('answers the final payload as one response with usage, not a schema-satisfying utility answer', async () => {
    own = await startLoopbackServer(geminiHandlers({ scenario: 'final', generateContent: 'scenario' }));
    const body = (await (await post(own.url)).json()) as { candidates: { content: { parts: { text: string }[] } }[]; usageMetadata: { promptTokenCount: number } };
    expect(JSON.parse(body.candidates[0]!.content.parts.map((p) => p.text).join(''))).toEqual(DEFAULT_PAYLOADS.final);
    expect(body.usageMetadata.promptTokenCount).toBe(100);
  });

  it('answers api-400 with Google\'s error body', async () => {
    own = await startLoopbackServer(geminiHandlers({ scenario: 'api-400', generateContent: 'scenario' }));
    const response = await post(own.url);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { status: string } }).error.status).toBe('INVALID_ARGUMENT');
  });
});
