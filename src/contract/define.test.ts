import { describe, expect, it } from 'vitest';
import { ContractDefinitionError, defineContract, definitionProblems, type ContractDefinition } from '#src/contract/define.ts';
import { judgeCase } from '#src/contract/judgeCase.ts';
import { decoderFor } from '#src/routes/registry.ts';
import type { Envelope } from '#src/envelope/types.ts';

const SCHEMA = { type: 'object', required: ['answer'], properties: { answer: { type: 'string' }, done: { type: 'boolean' }, items: { type: 'array' } } };
const base: ContractDefinition = { name: 'team', schema: SCHEMA, anchor: 'answer', finality: 'none', selection: 'score' };
const claude = decoderFor('claude-code/json');
const generic = decoderFor('generic');

function result(structured: unknown, elapsedMs = 1_000): Envelope {
  return { stdout: JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: JSON.stringify(structured), structured_output: structured }), stderr: '', exitCode: 0, elapsedMs };
}
const judge = (def: ContractDefinition, attempts: Envelope[], decoder = claude) => judgeCase({ attempts }, defineContract(def), decoder).verdict;

describe('defineContract: definitions', () => {
  it('names every unusable field in one error', () => {
    const problems = definitionProblems({ name: '', schema: 3, anchor: '', finality: 'final', selection: 'best', textFallback: 'some', clip: { head: -1, tail: 0 }, extra: 1 });
    expect(problems).toEqual([
      '`name` must be a non-empty string',
      '`schema` must be a path to a JSON Schema file or a schema object',
      '`anchor` must be a key ("position") or a JSON Pointer ("/result/findings")',
      '`finality` must be { key: "<boolean member>" } or "none"',
      '`selection` must be "score" or "last-shaped"',
      '`textFallback` must be "any", "fenced" or "off"',
      '`clip` must be { head, tail } (integers >= 0, not both 0)',
      expect.stringContaining('unknown field `extra`'),
    ]);
    expect(() => defineContract({ ...base, retry: { hardWindowMs: 1, retryMinMs: 1, paragraph: 'p' } })).toThrow(ContractDefinitionError);
  });

  it('a required field left out says what to write, not only what it must be', () => {
    const { anchor: _a, finality: _f, selection: _s, ...bare } = base;
    const problems = definitionProblems(bare);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^`anchor` is missing: add "anchor": /);
    expect(problems[1]).toMatch(/^`finality` is missing: add "finality": "none" .* or "finality": \{ "key": "<boolean member>" \}/);
    expect(problems[2]).toMatch(/^`selection` is missing: add "selection": "score" .* or "selection": "last-shaped"/);
  });

  it('a missing schema file and a schema that does not compile are named', () => {
    expect(() => defineContract({ ...base, schema: 'nope.schema.json' }, '/tmp')).toThrow(/schema file nope.schema.json not found/);
    expect(() => defineContract({ ...base, schema: { type: 'object', properties: { answer: { type: 'strng' } } } })).toThrow(/does not compile/);
  });

  it('keeps the normalized definition, defaults filled', () => {
    expect(defineContract(base).definition).toMatchObject({ anchorPointer: '/answer', emptyIsAnswer: false, textFallback: 'any', clip: { head: 147, tail: 147 }, retry: null, corrections: null, clis: null });
  });
});

describe('defineContract: finality', () => {
  it('with finality none, schema-valid is settled', () => {
    expect(judge(base, [result({ answer: 'yes' })])).toMatchObject({ verdict: 'accepted', origin: 'structured_output', value: { answer: 'yes' } });
  });

  it.each([
    ['false', { answer: 'a', done: false }],
    ['missing', { answer: 'a' }],
    ['not a boolean', { answer: 'a', done: 'true' }],
  ])('a finality key that is %s is never accepted (fail closed)', (_label, value) => {
    const def: ContractDefinition = { ...base, finality: { key: 'done' } };
    expect(judge(def, [result(value)]).verdict).toBe('dropped-nonfinal');
    const withRetry = { ...def, retry: { hardWindowMs: 600_000, retryMinMs: 60_000, paragraph: 'Finish: set done to true.' } };
    expect(judge(withRetry, [result(value)])).toMatchObject({ verdict: 'retry', addendum: 'Finish: set done to true.' });
    expect(judge(withRetry, [result(value, 590_000)]).verdict).toBe('dropped-nonfinal');
    expect(judge(withRetry, [result(value), result({ answer: 'b', done: true })])).toMatchObject({ verdict: 'accepted', attempt: 1, value: { answer: 'b', done: true } });
  });
});

describe('defineContract: anchors, empties, free text', () => {
  it('an anchor may be a JSON Pointer', () => {
    const def: ContractDefinition = { ...base, schema: { type: 'object', required: ['result'], properties: { result: { type: 'object', required: ['answer'] } } }, anchor: '/result/answer' };
    expect(judge(def, [result({ result: { answer: 'x' } })]).verdict).toBe('accepted');
    expect(judge(def, [result({ result: { other: 'x' } })]).verdict).toBe('dropped-unusable');
  });

  it('an empty anchor array is an answer only with emptyIsAnswer', () => {
    const def: ContractDefinition = { ...base, schema: { type: 'object', required: ['items'], properties: { items: { type: 'array' } } }, anchor: 'items' };
    for (const selection of ['score', 'last-shaped'] as const) {
      expect(judge({ ...def, selection }, [result({ items: [] })]).verdict, selection).toBe('dropped-unusable');
      expect(judge({ ...def, selection, emptyIsAnswer: true }, [result({ items: [] })]).verdict, selection).toBe('accepted');
    }
  });

  it('textFallback decides whether an answer found only in free text is accepted, and marks it', () => {
    const bare: Envelope = { stdout: 'Here: {"answer":"x"}', stderr: '', exitCode: 0, elapsedMs: 1 };
    const fenced: Envelope = { stdout: 'Here:\n```json\n{"answer":"x"}\n```\n', stderr: '', exitCode: 0, elapsedMs: 1 };
    expect(judge(base, [bare], generic)).toMatchObject({ verdict: 'accepted', origin: 'stdout', fromText: true });
    expect(judge({ ...base, textFallback: 'fenced' }, [bare], generic).verdict).toBe('dropped-unusable');
    expect(judge({ ...base, textFallback: 'fenced' }, [fenced], generic)).toMatchObject({ verdict: 'accepted', fromText: true });
    expect(judge({ ...base, textFallback: 'off' }, [fenced], generic).verdict).toBe('dropped-unusable');
    expect(judge({ ...base, textFallback: 'off' }, [result({ answer: 'x' })])).not.toHaveProperty('fromText');
  });

  it('textFallback governs every free-text channel: a bare object in prose inside Claude\'s result string too (issue 21.7)', () => {
    const claudeResult = (text: string, extra: Record<string, unknown> = {}): Envelope => ({ stdout: JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: text, ...extra }), stderr: '', exitCode: 0, elapsedMs: 1 });
    const prose = claudeResult('Here is my answer: {"answer":"x"} as asked.');
    const fenced = claudeResult('Here:\n```json\n{"answer":"x"}\n```');
    const whole = claudeResult('{"answer":"x"}');
    for (const selection of ['score', 'last-shaped'] as const) {
      expect(judge({ ...base, selection }, [prose], claude).verdict, selection).toBe('accepted');
      expect(judge({ ...base, selection, textFallback: 'fenced' }, [prose], claude).verdict, selection).toBe('dropped-unusable');
      expect(judge({ ...base, selection, textFallback: 'fenced' }, [fenced], claude).verdict, selection).toBe('accepted');
      expect(judge({ ...base, selection, textFallback: 'off' }, [fenced], claude).verdict, selection).toBe('dropped-unusable');
      expect(judge({ ...base, selection, textFallback: 'off' }, [whole], claude).verdict, selection).toBe('dropped-unusable');
      // The structured field is not free text: accepted whatever textFallback says.
      expect(judge({ ...base, selection, textFallback: 'off' }, [claudeResult('{"answer":"x"}', { structured_output: { answer: 'x' } })], claude)).toMatchObject({ verdict: 'accepted', origin: 'structured_output' });
    }
  });

  it('corrections: a wrong reply earns a correction, then invalid_structured_output', () => {
    const def: ContractDefinition = { ...base, corrections: { budget: 1, message: 'Answer with {"answer": ...} only.' } };
    const prose: Envelope = { stdout: JSON.stringify({ type: 'result', result: 'no idea' }), stderr: '', exitCode: 0, elapsedMs: 1 };
    const judged = judgeCase({ attempts: [prose, prose] }, defineContract(def), claude);
    expect(judged.attempts.map((a) => a.verdict.verdict)).toEqual(['retry', 'invalid_structured_output']);
    expect(judged.attempts[0]!.verdict).toMatchObject({ addendum: 'Answer with {"answer": ...} only.' });
  });

  it('a clip of its own bounds the evidence', () => {
    const e: Envelope = { stdout: '', stderr: 'x'.repeat(5_000), exitCode: 1, elapsedMs: 1 };
    const v = judge({ ...base, clip: { head: 10, tail: 10 } }, [e]);
    expect(v.verdict).toBe('crashed');
    expect(v.evidence.find((l) => l.startsWith('peer skip evidence (stderr): '))).toBe(`peer skip evidence (stderr): ${'x'.repeat(10)} ... ${'x'.repeat(10)}`);
  });
});

describe('the bundled presets', () => {
  it('each preset file is valid against schemas/contract.schema.json and has no problems', async () => {
    const { readFileSync } = await import('node:fs');
    const { projectPath } = await import('#src/paths.ts');
    const { compileValidator } = await import('#src/contract/validator.ts');
    const { PRESET_NAMES } = await import('#src/contract/presets.ts');
    const validate = compileValidator(JSON.parse(readFileSync(projectPath('schemas/contract.schema.json'), 'utf8')) as Record<string, unknown>);
    for (const name of PRESET_NAMES) {
      const file = JSON.parse(readFileSync(projectPath('schemas/contracts', `${name}.contract.json`), 'utf8')) as unknown;
      expect(validate(file), name).toEqual([]);
      expect(definitionProblems(file), name).toEqual([]);
    }
  });
});

describe('defineContract: the anchor and the finality key must be members the schema declares', () => {
  it('a typo in the anchor is named with the properties the schema lists', () => {
    expect(() => defineContract({ ...base, anchor: 'answr' })).toThrow(/`anchor` "answr" names no property of its inline schema: the schema at \/properties lists "answer", "done", "items"/);
  });

  it('a JSON Pointer anchor is followed through nested properties', () => {
    const nested = { type: 'object', properties: { result: { type: 'object', properties: { findings: { type: 'array' } } } } };
    expect(() => defineContract({ ...base, schema: nested, anchor: '/result/findings' })).not.toThrow();
    expect(() => defineContract({ ...base, schema: nested, anchor: '/result/finding' })).toThrow(/the schema at \/properties\/result\/properties lists "findings"/);
  });

  it('the finality key must be a boolean property', () => {
    expect(() => defineContract({ ...base, finality: { key: 'done' } })).not.toThrow();
    expect(() => defineContract({ ...base, finality: { key: 'finished' } })).toThrow(/`finality.key` "finished" must be a boolean property/);
    expect(() => defineContract({ ...base, finality: { key: 'answer' } })).toThrow(/\/properties\/answer has type "string"/);
  });

  it('a schema that can add members some other way ($ref, allOf, patternProperties) or lists none is not second-guessed', () => {
    expect(() => defineContract({ ...base, schema: { type: 'object', properties: { a: {} }, allOf: [{ properties: { answer: {} } }] } })).not.toThrow();
    expect(() => defineContract({ ...base, schema: { type: 'object' } })).not.toThrow();
  });
});

describe('messages that name what to write', () => {
  it('an enum error lists the allowed values; an unknown contract name gets a did-you-mean', async () => {
    const { compileValidator } = await import('./validator.ts');
    const { UnknownContractError } = await import('./registry.ts');
    expect(compileValidator({ type: 'object', properties: { verdict: { enum: ['accepted', 'retry'] } } })({ verdict: 'acepted' })).toEqual(['/verdict must be equal to one of the allowed values: "accepted", "retry"']);
    expect(new UnknownContractError('pvo').message).toMatch(/Known contracts: pov, .*; did you mean "pov"\?$/);
  });
});
