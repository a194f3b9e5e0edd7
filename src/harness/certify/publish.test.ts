import { describe, expect, it } from 'vitest';
import { meaningDifferences } from './meaning.ts';
import { pointerTokens, publishMappingProblems, unpublish, withoutExcluded } from './publish.ts';

const answer = { voice: 'peer', position: 'Choose A', movement: 'held', mode: 'independent', findings: [{ file: 'a.ts', title: 't' }] };
const schema = { properties: { voice: {}, position: {}, movement: {}, mode: {}, findings: {} } };

describe('pointerTokens', () => {
  it('reads RFC 6901 escapes and refuses what is not a pointer', () => {
    expect(pointerTokens('/a~1b/c~0d')).toEqual(['a/b', 'c~d']);
    expect(pointerTokens('position')).toEqual({ problem: 'is not a JSON Pointer: it must start with "/" (write "/position")' });
    expect(pointerTokens('/a~2')).toMatchObject({ problem: expect.stringContaining('"~" must be followed by 0') });
    expect(pointerTokens('')).toMatchObject({ problem: expect.stringContaining('the whole answer') });
    expect(pointerTokens('/a//b')).toMatchObject({ problem: expect.stringContaining('empty member name') });
  });
});

describe('unpublish', () => {
  it('moves each renamed member back to its answer pointer, nested ones and inside every item', () => {
    const published = { voice: 'peer', stance: 'Choose A', meta: { movement: 'held' }, mode: 'independent', items: [{ path: 'a.ts', title: 't' }] };
    const mapping = { rename: { '/position': '/stance', '/movement': '/meta/movement', '/findings': '/items', '/findings/*/file': '/findings/*/path' } };
    expect(unpublish(published, mapping)).toEqual(answer);
    expect(meaningDifferences(answer, unpublish(published, mapping), schema, { strict: true })).toEqual([]);
    expect(meaningDifferences(answer, unpublish(published, mapping), schema)).toEqual([]);
    expect(published.stance).toBe('Choose A');
  });

  it('leaves a member the worker did not publish absent, so the comparison names it', () => {
    const got = unpublish({ voice: 'peer' }, { rename: { '/position': '/stance' } });
    expect(meaningDifferences({ voice: 'peer', position: 'Choose A' }, got, schema)).toEqual([{ kind: 'missing', property: 'position', expected: 'Choose A' }]);
  });

  it('never throws on a value of another shape', () => {
    expect(unpublish('text', { rename: { '/a': '/b' } })).toBe('text');
    expect(unpublish([1], { rename: { '/a/*/x': '/a/*/y' } })).toEqual([1]);
    expect(unpublish(null, { rename: { '/a': '/b' } })).toBeNull();
  });
});

describe('withoutExcluded', () => {
  it('drops members, every item with *, and is what the comparison leaves out on both sides', () => {
    const value = { usage: { input: 1 }, findings: [{ title: 't', first_evidence: 'x' }, { title: 'u' }] };
    expect(withoutExcluded(value, ['/usage', '/findings/*/first_evidence'])).toEqual({ findings: [{ title: 't' }, { title: 'u' }] });
    expect(value.usage).toEqual({ input: 1 });
    const expected = { position: 'Choose A', mode: 'independent' };
    expect(meaningDifferences(expected, { position: 'Choose A' }, schema).map((d) => d.property)).toEqual(['mode']);
    expect(meaningDifferences(expected, { position: 'Choose A' }, schema, { ignore: ['/mode'] })).toEqual([]);
    // The older artifact.ignore names mean the same pointers.
    expect(meaningDifferences(value, { ...value, findings: [{ title: 't' }, { title: 'u', first_evidence: 'y' }] }, { properties: { findings: {} } }, { ignore: ['findings[].first_evidence'] })).toEqual([]);
  });
});

describe('publishMappingProblems', () => {
  it('accepts a mapping and nothing', () => {
    expect(publishMappingProblems(undefined)).toEqual([]);
    expect(publishMappingProblems({ rename: { '/findings': '/items', '/findings/*/file': '/findings/*/path' }, exclude: ['/usage'] })).toEqual([]);
  });

  it('names the field of each problem: pointer syntax, unknown keys, shapes, clashes', () => {
    expect(publishMappingProblems({ renames: {}, rename: { findings: '/items', '/a': 'b', '/x': '/y', '/c': '/y', '/d': 3 }, exclude: ['/ok', 'usage', '/a'] })).toEqual([
      '`worker.publish.renames` is not a field of `worker.publish`: it has rename and exclude',
      '`worker.publish.rename["findings"]`: the key "findings" is not a JSON Pointer: it must start with "/" (write "/findings")',
      '`worker.publish.rename["/a"]` "b" is not a JSON Pointer: it must start with "/" (write "/b")',
      '`worker.publish.rename["/c"]`: /x is published at /y too',
      '`worker.publish.rename["/d"]` must be a JSON Pointer string, not 3',
      '`worker.publish.exclude[1]` "usage" is not a JSON Pointer: it must start with "/" (write "/usage")',
      '`worker.publish.exclude[2]` /a is renamed too: give it in one of rename and exclude',
    ]);
    expect(publishMappingProblems({ rename: { '/findings/*/file': '/items/*/file' } })[0]).toContain('a "*" may only stand for the items both pointers share');
    expect(publishMappingProblems(['/a'])[0]).toContain('`worker.publish` must be an object');
    expect(publishMappingProblems({ exclude: '/a' })).toEqual(['`worker.publish.exclude` must be an array of JSON Pointers, e.g. ["/usage"]']);
  });
});
