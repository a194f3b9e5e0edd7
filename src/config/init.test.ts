/**
 * `routecert init`'s starter contract for an array anchor: `[]` is a "found nothing" answer when the
 * schema lets the list be empty (a trial's findings schema got a contract that dropped it as
 * unusable), and a starter case holds that reading, so a contract with `emptyIsAnswer` off fails it.
 */
import { describe, expect, it } from 'vitest';
import { defineContract } from '#src/contract/define.ts';
import { runCase } from '#src/harness/runCorpus.ts';
import { starterCases, starterDefinition } from './init.ts';

const findings = (list: Record<string, unknown>) => ({
  type: 'object',
  required: ['findings', 'summary'],
  properties: { findings: { ...list, items: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } } }, summary: { type: 'string' } },
  additionalProperties: false,
});

describe('init on a schema whose anchor is an array', () => {
  it('sets emptyIsAnswer when the list may be empty, and not when minItems asks for one', () => {
    expect(starterDefinition('review', 'schemas/review.schema.json', findings({ type: 'array' }), ['claude']).emptyIsAnswer).toBe(true);
    expect(starterDefinition('review', 'schemas/review.schema.json', findings({ type: ['array', 'null'] }), ['claude']).emptyIsAnswer).toBe(true);
    expect(starterDefinition('review', 'schemas/review.schema.json', findings({ type: 'array', minItems: 1 }), ['claude']).emptyIsAnswer).toBeUndefined();
    expect(starterDefinition('answer', 'schemas/answer.schema.json', { type: 'object', required: ['answer'], properties: { answer: { type: 'string' } } }, ['claude']).emptyIsAnswer).toBeUndefined();
  });

  it('writes a found-nothing case the starter contract accepts, and that fails a contract with emptyIsAnswer off', async () => {
    const schema = findings({ type: 'array' });
    const def = starterDefinition('review', 'schemas/review.schema.json', schema, ['claude']);
    const cases = await starterCases(def, schema);
    const nothing = cases['found-nothing.json']!;
    expect(nothing.expect).toMatchObject({ verdict: 'accepted', value: { findings: [] } });
    const judge = async (emptyIsAnswer: boolean) => (await runCase({ file: 'found-nothing.json', case: nothing, warnings: [] } as never, { contracts: new Map([['review', defineContract({ ...def, schema, emptyIsAnswer })]]) })).outcome;
    expect(await judge(true)).toBe('pass');
    expect(await judge(false)).toBe('fail');
    // minItems 1: no such case (the schema refuses the empty list).
    const one = findings({ type: 'array', minItems: 1 });
    expect(Object.keys(await starterCases(starterDefinition('review', 'x', one, ['claude']), one))).not.toContain('found-nothing.json');
  });
});
