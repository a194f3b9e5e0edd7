import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UsageLedger, addUsage, flattenUsage } from '#src/policy/usage.ts';

/** Anthropic usage as Claude Code 2.1.332 reports it (fixtures/cases/claude-code/json/final.json). */
const ANTHROPIC = {
  input_tokens: 100,
  cache_creation_input_tokens: 7,
  cache_read_input_tokens: 3,
  output_tokens: 54,
  output_tokens_details: { thinking_tokens: 11 },
  server_tool_use: { web_search_requests: 1, web_fetch_requests: 0 },
  service_tier: 'standard',
  cache_creation: { ephemeral_1h_input_tokens: 2, ephemeral_5m_input_tokens: 5 },
  inference_geo: '',
  iterations: [],
  speed: 'standard',
  fallback_credit: null,
};

/** OpenAI Chat Completions usage with the nested details objects. */
const OPENAI = {
  prompt_tokens: 700,
  completion_tokens: 20,
  total_tokens: 720,
  prompt_tokens_details: { cached_tokens: 512, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 64, accepted_prediction_tokens: 0 },
};

describe('flattenUsage', () => {
  it('keeps every numeric field of an Anthropic usage object, nested ones by dotted path, and skips strings and null', () => {
    expect(flattenUsage(ANTHROPIC)).toEqual({
      input_tokens: 100,
      cache_creation_input_tokens: 7,
      cache_read_input_tokens: 3,
      output_tokens: 54,
      'output_tokens_details.thinking_tokens': 11,
      'server_tool_use.web_search_requests': 1,
      'server_tool_use.web_fetch_requests': 0,
      'cache_creation.ephemeral_1h_input_tokens': 2,
      'cache_creation.ephemeral_5m_input_tokens': 5,
    });
  });

  it('keeps the nested *_details of an OpenAI usage object, in document order', () => {
    expect(Object.keys(flattenUsage(OPENAI))).toEqual([
      'prompt_tokens',
      'completion_tokens',
      'total_tokens',
      'prompt_tokens_details.cached_tokens',
      'prompt_tokens_details.audio_tokens',
      'completion_tokens_details.reasoning_tokens',
      'completion_tokens_details.accepted_prediction_tokens',
    ]);
  });

  it('reads array items by index (Gemini usageMetadata.promptTokensDetails)', () => {
    expect(flattenUsage({ promptTokenCount: 9, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 9 }] })).toEqual({
      promptTokenCount: 9,
      'promptTokensDetails.0.tokenCount': 9,
    });
  });

  it('gives {} for anything that is not an object', () => {
    for (const v of [undefined, null, 3, 'x', true]) expect(flattenUsage(v)).toEqual({});
  });
});

describe('addUsage', () => {
  it('adds key by key, a missing key counting as 0, and rounds cost sums', () => {
    expect(addUsage({ a: 1, cost: 0.1 }, { b: 2, cost: 0.2 })).toEqual({ a: 1, b: 2, cost: 0.3 });
  });
});

describe('UsageLedger', () => {
  it('sums every turn, whatever the provider shape', () => {
    const ledger = new UsageLedger();
    ledger.add(0, OPENAI);
    ledger.add(1, OPENAI);
    expect(ledger.totals['prompt_tokens_details.cached_tokens']).toBe(1024);
    expect(ledger.totals.completion_tokens).toBe(40);
    expect(ledger.turns).toBe(2);
    expect(ledger.cursor).toBe(1);
  });

  it('never counts a turn twice, also after a save and restore', () => {
    const ledger = new UsageLedger();
    expect(ledger.add(0, { input_tokens: 100 })).toBe(true);
    expect(ledger.add(0, { input_tokens: 100 })).toBe(false);
    const resumed = UsageLedger.restore(ledger.save());
    expect(resumed.add(0, { input_tokens: 100 })).toBe(false);
    expect(resumed.add(1, { input_tokens: 110 })).toBe(true);
    expect(resumed.totals).toEqual({ input_tokens: 210 });
    expect(ledger.totals).toEqual({ input_tokens: 100 });
  });

  it('counts a turn without usage as a turn with no tokens', () => {
    const ledger = new UsageLedger();
    ledger.add(0, undefined);
    expect(ledger.save()).toEqual({ cursor: 0, turns: 1, totals: {} });
  });

  it('rejects a negative or fractional turn index', () => {
    expect(() => new UsageLedger().add(-1, {})).toThrow(RangeError);
    expect(() => new UsageLedger().add(1.5, {})).toThrow(RangeError);
  });

  it('a replay from any saved cursor gives the totals of a single pass', () => {
    const usage = fc.dictionary(fc.constantFrom('input_tokens', 'output_tokens', 'cached'), fc.nat({ max: 10_000 }));
    fc.assert(
      fc.property(fc.array(usage, { minLength: 1, maxLength: 6 }), fc.nat(), (turns, cut) => {
        const once = new UsageLedger();
        turns.forEach((u, i) => once.add(i, u));
        const first = new UsageLedger();
        const stop = cut % turns.length;
        for (let i = 0; i <= stop; i += 1) first.add(i, turns[i]);
        const replay = UsageLedger.restore(first.save());
        turns.forEach((u, i) => replay.add(i, u));
        expect(replay.totals).toEqual(once.totals);
        expect(replay.turns).toBe(turns.length);
      }),
    );
  });
});
