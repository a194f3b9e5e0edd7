import { describe, expect, it } from 'vitest';
import { describeDifferences, meaningDifferences } from './meaning.ts';
import { POV_DEFINITION, rulesOf } from './rules.ts';

const schema = { type: 'object', properties: { voice: {}, position: {}, evidence: {}, final: {}, cross_model_route: {} } };
const answer = { voice: 'peer', position: 'Choose A', evidence: ['src/a.ts:1'], final: true };

describe('meaningDifferences', () => {
  it("ignores receipt fields and key order: ce-pov's published POV carries the answer", () => {
    const published = { final: true, cross_model_route: 'claude', model_actual: 'claude-opus-5-20260801', independence_verified: false, evidence: ['src/a.ts:1'], position: 'Choose A', voice: 'peer' };
    expect(meaningDifferences(answer, published, schema)).toEqual([]);
  });

  it('names each schema property that is missing or differs, deep', () => {
    const diffs = meaningDifferences(answer, { voice: 'peer-claude', position: 'Choose A', evidence: ['src/b.ts:1'] }, schema);
    expect(describeDifferences(diffs)).toEqual(['voice: expected "peer", got "peer-claude"', 'evidence: expected ["src/a.ts:1"], got ["src/b.ts:1"]', 'final: missing (expected true)']);
  });

  it('a long member that differs late is shown where it first differs, with the offset and both lengths (clipped at the start, both read the same)', () => {
    const long = `${'The decoder stays linear because every bracket is read once. '.repeat(10)}End.`;
    const cut = long.slice(0, 500);
    const [line] = describeDifferences(meaningDifferences({ ...answer, position: long }, { ...answer, position: cut }, schema));
    expect(line).toBe(`position: expected ...${JSON.stringify(long).slice(471, 548)}..., got ...${JSON.stringify(cut).slice(471)} (JSON of ${long.length + 2} and ${cut.length + 2} characters, first different at character 501)`);
  });

  it('with strict, an added field is a difference', () => {
    expect(meaningDifferences(answer, { ...answer, cross_model_route: 'claude' }, schema, { strict: true }).map((d) => [d.kind, d.property])).toEqual([['extra', 'cross_model_route']]);
  });

  it('compares the whole value when the schema names no properties or a side is not an object', () => {
    expect(meaningDifferences([1, 2], [1, 2], {})).toEqual([]);
    expect(meaningDifferences({ a: 1 }, { a: 1, b: 2 }, {}).map((d) => d.kind)).toEqual(['whole']);
    expect(meaningDifferences(answer, null, schema).map((d) => d.kind)).toEqual(['whole']);
  });
});

describe('rulesOf', () => {
  it('reads which checks a contract calls for', () => {
    expect(rulesOf(POV_DEFINITION)).toEqual({ contract: 'pov', finalityKey: 'final', retries: true, corrects: false, scores: true, publishDefaults: [], logBound: 300 });
    expect(rulesOf({ name: 'findings', schema: {}, anchor: 'findings', finality: 'none', selection: 'last-shaped', emptyIsAnswer: true })).toEqual({
      contract: 'findings',
      finalityKey: null,
      retries: false,
      corrects: false,
      scores: false,
      publishDefaults: [],
      logBound: 300,
    });
  });

  it('leaves out what the adapter declares the worker sets itself (artifact.ignore), on both sides', () => {
    const review = { reviewer: 'coherence', findings: [{ title: 't', autofix_class: 'safe_auto' }] };
    const published = { reviewer: 'adversarial', findings: [{ title: 't', autofix_class: 'gated_auto' }] };
    const s = { properties: { reviewer: {}, findings: {} } };
    expect(meaningDifferences(review, published, s).map((d) => d.property)).toEqual(['reviewer', 'findings']);
    expect(meaningDifferences(review, published, s, { ignore: ['reviewer', 'findings[].autofix_class'] })).toEqual([]);
    expect(meaningDifferences(review, { ...published, findings: [{ title: 'other', autofix_class: 'gated_auto' }] }, s, { ignore: ['reviewer', 'findings[].autofix_class'] }).map((d) => d.property)).toEqual(['findings']);
  });
});
