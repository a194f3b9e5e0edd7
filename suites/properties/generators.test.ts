/**
 * The generators themselves: payloads of every production schema are valid (an invalid one fails the
 * run, never silently filtered), the same seed gives the same envelopes, every dimension the
 * properties rely on is actually generated, and the ground truth follows the documented rules.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import {
  evidenceForm,
  expectedOf,
  InvalidPayloadError,
  povAnswer,
  productionSchema,
  productionSchemaNames,
  routeEnvelope,
  ROUTE_FAMILIES,
  schemaPayload,
  stderrText,
  STRUCTURED_SPELLINGS,
  checkAnswer,
  type ClaudeJsonPlan,
  type EnvelopePlan,
  type PovAnswer,
  type TextPlan,
} from '#src/arbitraries/index.ts';
import { compileValidator } from '#src/contract/validator.ts';

describe('schema payloads (json-schema-faker, fixed seeds, checked with ajv)', () => {
  it('covers every production schema in schemas/contracts', () => {
    expect(productionSchemaNames()).toEqual(expect.arrayContaining(['pov', 'code-review-findings', 'doc-review-findings', 'implementation-result', 'event', 'role-output']));
  });

  for (const name of productionSchemaNames()) {
    const validate = compileValidator(productionSchema(name));
    test.prop([schemaPayload({ name, seed: 7 })], { numRuns: 40 })(`${name}: every payload is valid`, (payload) => {
      expect(validate(payload)).toEqual([]);
    });
  }

  it('fails the run on an invalid payload instead of filtering it out', () => {
    const broken = schemaPayload({ name: 'pov', generate: () => ({ position: 'only the anchor' }) });
    expect(() => fc.assert(fc.property(broken, () => true), { numRuns: 5 })).toThrow(/invalid payload of schema pov/);
    expect(() => fc.sample(broken, 1)).toThrow(InvalidPayloadError);
  });

  it('gives the same payloads for the same seed', () => {
    expect(fc.sample(schemaPayload({ name: 'event', seed: 3 }), { numRuns: 10, seed: 1 })).toEqual(fc.sample(schemaPayload({ name: 'event', seed: 3 }), { numRuns: 10, seed: 1 }));
  });
});

describe('pov answers', () => {
  test.prop([povAnswer()], { numRuns: 100 })('each answer is what its finality says (ajv)', (answer) => {
    expect(() => checkAnswer(answer)).not.toThrow();
    if (answer.finality === 'final') expect(answer.value.final).toBe(true);
    if (answer.finality === 'missing') expect(Object.hasOwn(answer.value, 'final')).toBe(false);
  });

  it('rejects an answer labelled with the wrong finality', () => {
    const [final] = fc.sample(povAnswer({ finality: 'final' }), { numRuns: 1, seed: 5 }) as [PovAnswer];
    expect(() => checkAnswer({ ...final, finality: 'placeholder' })).toThrow(InvalidPayloadError);
    expect(() => checkAnswer({ ...final, finality: 'unshaped' })).toThrow(/must break the pov schema/);
  });
});

describe('stderr texts', () => {
  test.prop([stderrText({ kinds: ['exact-limit'] })])('exact-limit is 300 characters as evidence', (s) => {
    expect(evidenceForm(s)).toHaveLength(300);
  });
  test.prop([stderrText({ kinds: ['short'] })])('short is 1..299 characters as evidence', (s) => {
    expect(evidenceForm(s).length).toBeGreaterThan(0);
    expect(evidenceForm(s).length).toBeLessThan(300);
  });
  test.prop([stderrText({ kinds: ['long'] })])('long is more than 300 characters as evidence', (s) => {
    expect(evidenceForm(s).length).toBeGreaterThan(300);
  });
  test.prop([stderrText({ kinds: ['multi-line', 'ansi'] })])('multi-line and ANSI texts keep their line breaks and escape codes', (s) => {
    expect(s.includes('\n') || s.includes('\u001b[')).toBe(true);
  });
});

/** The verdicts of the pov contract (DESIGN.md "Words": verdict). */
const POV_VERDICTS = ['accepted', 'retry', 'dropped-nonfinal', 'dropped-unusable', 'startup-rejected', 'provider-error', 'timeout', 'crashed'];

function textsOf(plan: EnvelopePlan): TextPlan[] {
  if (plan.family === 'claude-code/json' || plan.family === 'cursor-agent/stream-json') return [plan.result];
  if (plan.family === 'claude-code/stream-json') return [plan.result, ...plan.events.flatMap((e) => (e.kind === 'assistant-text' ? [e.text] : []))];
  return [plan.text];
}

describe('envelopes', () => {
  const samples = fc.sample(routeEnvelope(), { numRuns: 600, seed: 20_261_130 });

  it('gives the same envelopes for the same seed', () => {
    expect(fc.sample(routeEnvelope(), { numRuns: 15, seed: 99 })).toEqual(fc.sample(routeEnvelope(), { numRuns: 15, seed: 99 }));
  });

  it('covers every route family and every verdict of the pov contract', () => {
    expect(new Set(samples.map((g) => g.route))).toEqual(new Set(ROUTE_FAMILIES));
    expect(new Set(samples.map((g) => g.expected.verdict))).toEqual(new Set(POV_VERDICTS));
  });

  it('puts answers everywhere: structured field under every spelling, result/text strings, stream events, fences, prose, nested strings', () => {
    const keys = new Set<string>();
    const wraps = new Set<string>();
    const events = new Set<string>();
    let asString = 0;
    for (const { plan } of samples) {
      if ('structured' in plan && plan.structured) {
        keys.add(plan.structured.key);
        if (plan.structured.asString) asString += 1;
      }
      if (plan.family === 'claude-code/stream-json') for (const e of plan.events) events.add(e.kind);
      for (const t of textsOf(plan)) for (const { piece } of t.pieces) if (piece.kind === 'answer') wraps.add(piece.style.wrap);
    }
    expect(keys).toEqual(new Set(STRUCTURED_SPELLINGS));
    expect(wraps).toEqual(new Set(['bare', 'fenced', 'fenced-plain', 'nested-string']));
    expect(events).toEqual(new Set(['system', 'assistant-text', 'tool-use', 'tool-result', 'prose-line', 'blank']));
    expect(asString).toBeGreaterThan(0);
  });

  it('writes placeholder-then-final and final-then-placeholder, concatenated with and without whitespace', () => {
    let before = 0;
    let after = 0;
    let glued = 0;
    for (const { plan } of samples) {
      for (const t of textsOf(plan)) {
        const answers = t.pieces.filter((p) => p.piece.kind === 'answer').map((p) => (p.piece.kind === 'answer' ? p.piece.answer.finality : ''));
        const f = answers.indexOf('final');
        if (f > 0 && answers.slice(0, f).some((a) => a !== 'unshaped')) before += 1;
        if (f >= 0 && answers.slice(f + 1).some((a) => a !== 'unshaped')) after += 1;
        t.pieces.forEach((p, i) => {
          if (i > 0 && p.sep === '' && p.piece.kind === 'answer') glued += 1;
        });
      }
    }
    expect(before).toBeGreaterThan(0);
    expect(after).toBeGreaterThan(0);
    expect(glued).toBeGreaterThan(0);
  });

  it('varies the bytes: BOM, CRLF, duplicate keys, \\u escapes, lone surrogates, deep nesting', () => {
    const stdouts = samples.map((g) => g.envelope.stdout);
    expect(stdouts.some((s) => s.startsWith('\uFEFF'))).toBe(true);
    expect(stdouts.some((s) => s.includes('\r\n'))).toBe(true);
    expect(stdouts.some((s) => s.includes('(draft)'))).toBe(true);
    expect(stdouts.some((s) => /\\{1,3}u00[89a-f][0-9a-f]|\\{1,3}u[1-9a-f][0-9a-f]{3}/.test(s))).toBe(true);
    expect(stdouts.some((s) => /\\{1,3}ud[89ab][0-9a-f]{2}/i.test(s))).toBe(true);
    expect(stdouts.some((s) => s.includes('{"a":{"a":{"a":{"a":') || s.includes('[[[[['))).toBe(true);
  });
});

describe('ground truth follows the documented rules, not routecert', () => {
  const final: PovAnswer = { finality: 'final', value: { voice: 'peer', position: 'Choose A', reasoning: 'r', evidence: [], external_check: 'ran', mode: 'independent', movement: 'initial', final: true } };
  const placeholder: PovAnswer = { finality: 'placeholder', value: { ...final.value, position: 'blocked: gathering', final: false } };
  const plain = { pretty: false, escapeUnicode: false, duplicateKeys: false, wrap: 'bare' as const };
  const plan = (over: Partial<ClaudeJsonPlan> = {}): ClaudeJsonPlan => ({
    family: 'claude-code/json',
    process: { stderr: '', exitCode: 0, signal: null, timedOut: false, elapsedMs: 20_000, bom: false, lineEnd: '\n', trailingNewline: true },
    body: 'result',
    structured: { key: 'structuredOutput', answer: placeholder, style: { escapeUnicode: false, duplicateKeys: false }, asString: false },
    structuredFirst: false,
    result: { pieces: [{ sep: '', piece: { kind: 'answer', answer: final, style: plain } }] },
    failure: null,
    deepNoise: 0,
    ...over,
  });

  it('a final answer anywhere the route reads wins over a placeholder in the structured field', () => {
    expect(expectedOf(plan())).toEqual({ verdict: 'accepted', value: final.value });
  });
  it('without a final answer: retry while 60 s of the 600 s window remain, then dropped-nonfinal', () => {
    expect(expectedOf(plan({ result: { pieces: [] } })).verdict).toBe('retry');
    expect(expectedOf(plan({ result: { pieces: [] }, process: { ...plan().process, elapsedMs: 540_001 } })).verdict).toBe('dropped-nonfinal');
  });
  it('a timeout discards even a final answer; an API error without answers is provider-error', () => {
    expect(expectedOf(plan({ process: { ...plan().process, timedOut: true } })).verdict).toBe('timeout');
    expect(expectedOf(plan({ structured: null, result: { pieces: [] }, failure: { kind: 'provider-error', status: 529, message: 'API Error' } })).verdict).toBe('provider-error');
  });
});
