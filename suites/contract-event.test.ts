/**
 * The event contract (DESIGN.md "Contracts in the mission" item 4): `kind` limited to the agent's
 * allowed kinds from schemas/contracts/event.contract.json; the parser tier recorded on the verdict;
 * a raw-fallback reply never certifies; the structured HTTP route falls back from tool calling to
 * `response_format: json_schema` when the server answers 400 to tools, and the contract file's
 * `maxRetries` bounds the re-asks. The HTTP side runs in-process against msw (`setupServer`).
 */
import { readFileSync } from 'node:fs';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EventContract } from '#src/contract/event.ts';
import { loadContract } from '#src/contract/registry.ts';
import { structuredCall } from '#src/harness/httpStructured.ts';
import { openAiCompatHandlers, type OpenAiCompatRequest } from '#src/mock/openaiCompatHttp.ts';
import { projectPath } from '#src/paths.ts';
import { corpus, judge } from './_helpers/corpus.ts';

const rows = corpus.cases.filter((c) => c.case.contract === 'event');
const label = (c: (typeof rows)[number]) => `${c.case.id} ${c.case.route}: ${c.case.description}`;
const codec = (JSON.parse(readFileSync(projectPath('schemas/contracts/event.contract.json'), 'utf8')) as { extensions: { codec: { allowedKinds: string[]; maxRetries: number } } }).extensions.codec;
const definition = { allowedKinds: codec.allowedKinds, policy: { maxRetries: codec.maxRetries } };
const schema = JSON.parse(readFileSync(projectPath('schemas/contracts/event.schema.json'), 'utf8')) as { properties: { kind: { enum: string[] } } };

describe('event: corpus', () => {
  it('has at least eight cases, with every tier, accepted and rejected', () => {
    expect(rows.length).toBeGreaterThanOrEqual(8);
    for (const tier of ['strict-json', 'embedded-block', 'raw-fallback']) expect(rows.some((c) => c.case.tags.includes(`tier:${tier}`)), tier).toBe(true);
    expect(rows.some((c) => c.case.expect.verdict === 'accepted')).toBe(true);
    expect(rows.some((c) => c.case.tags.includes('kind-not-allowed'))).toBe(true);
  });

  it.each(rows.map((c) => [label(c), c] as const))('%s', async (_label, c) => {
    const verdict = await judge(c);
    expect(verdict.verdict).toBe(c.case.expect.verdict);
    const tierTag = c.case.tags.find((t) => t.startsWith('tier:'));
    if (tierTag) expect('tier' in verdict ? verdict.tier : undefined).toBe(tierTag.slice('tier:'.length));
    if ('tier' in verdict && verdict.tier === 'raw-fallback') expect(verdict.verdict).not.toBe('accepted');
  });
});

describe('event: kind is limited to the allowed kinds of the contract file', () => {
  const accepted = rows.filter((c) => c.case.expect.verdict === 'accepted');
  it('is narrower than the schema enum, so the rule is more than the schema', () => {
    expect(schema.properties.kind.enum.filter((k) => !definition.allowedKinds.includes(k)).length).toBeGreaterThan(0);
  });

  it.each(accepted.map((c) => [label(c), c] as const))('swapping the kind of %s is accepted only for an allowed kind', async (_label, c) => {
    const original = (c.case.expect.value as { kind: string }).kind;
    for (const kind of [...schema.properties.kind.enum, 'celebration']) {
      const swap = (text: string) =>
        text.split(`"kind":"${original}"`).join(`"kind":"${kind}"`).split(`\\"kind\\":\\"${original}\\"`).join(`\\"kind\\":\\"${kind}\\"`).split(`\\"kind\\": \\"${original}\\"`).join(`\\"kind\\": \\"${kind}\\"`);
      // The answer may sit in a side file too (codex's -o last message): swap it everywhere.
      const attempts = c.case.attempts.map((a) => ({
        ...a,
        stdout: swap(a.stdout),
        ...(a.files ? { files: Object.fromEntries(Object.entries(a.files).map(([k, v]) => [k, swap(v)])) } : {}),
      }));
      expect(attempts.some((a) => a.stdout.includes(kind)), 'the swap reached the envelope').toBe(true);
      const verdict = await judge(c, attempts);
      expect(verdict.verdict, kind).toBe(definition.allowedKinds.includes(kind) ? 'accepted' : 'dropped-unusable');
    }
  });
});

describe('event: structured HTTP route (in-process OpenAI-compatible mock)', async () => {
  const BASE = 'http://127.0.0.1:4011/v1';
  const contract = (await loadContract('event')) as EventContract;
  const eventSchema = JSON.parse(readFileSync(projectPath('schemas/contracts/event.schema.json'), 'utf8')) as Record<string, unknown>;
  const EVENT = { kind: 'finding', text: 'The cache is never invalidated.', ref: 'src/cache.ts:40' };
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  const serve = (replies: string[]): OpenAiCompatRequest[] => {
    const seen: OpenAiCompatRequest[] = [];
    server.use(...openAiCompatHandlers({ baseUrl: BASE, replies, toolCalling: 'reject', onRequest: (r) => seen.push(r) }));
    return seen;
  };
  const call = (mode: 'tools' | 'json_schema') =>
    structuredCall({ baseUrl: BASE, model: 'mock', messages: [{ role: 'user', content: 'One event, please.' }], schema: eventSchema, mode, maxRetries: contract.maxRetries, judge: contract });

  it('takes the maxRetries of the contract file', () => expect(contract.maxRetries).toBe(definition.policy.maxRetries));

  it('json_schema mode succeeds directly', async () => {
    serve([JSON.stringify(EVENT)]);
    const result = await call('json_schema');
    expect(result).toMatchObject({ path: ['json_schema'], fellBack: false });
    expect(result.verdict).toMatchObject({ verdict: 'accepted', tier: 'strict-json', value: EVENT });
  });

  it('tools mode falls back to json_schema after the 400 and records the path', async () => {
    const seen = serve([JSON.stringify(EVENT)]);
    const result = await call('tools');
    expect(result).toMatchObject({ path: ['tools', 'json_schema'], fellBack: true, reasks: 0 });
    expect(seen.map((r) => r.status)).toEqual([400, 200]);
    expect(result.verdict).toMatchObject({ verdict: 'accepted', value: EVENT });
  });

  it('a server that only answers prose is re-asked maxRetries times, then dropped as raw-fallback', async () => {
    const seen = serve(['I am still thinking about it.']);
    const result = await call('tools');
    expect(seen.filter((r) => r.status === 200)).toHaveLength(1 + definition.policy.maxRetries);
    expect(result.reasks).toBe(definition.policy.maxRetries);
    expect(result.verdict).toMatchObject({ verdict: 'dropped-unusable', tier: 'raw-fallback' });
  });

  it('a kind the agent may not emit is re-asked with the allowed kinds, and the corrected event is accepted', async () => {
    const seen = serve([JSON.stringify({ ...EVENT, kind: 'decision' }), JSON.stringify(EVENT)]);
    const result = await call('json_schema');
    expect(result.verdict).toMatchObject({ verdict: 'accepted', value: EVENT, attempt: 1 });
    const reask = (seen[1]!.body.messages as { content: string }[]).at(-1)!.content;
    for (const kind of definition.allowedKinds) expect(reask).toContain(`"${kind}"`);
  });
});
