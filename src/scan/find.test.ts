import { fc, test } from '@fast-check/vitest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { eachJsonObject, eachJsonObjectOf, findJsonObjects } from '#src/scan/index.ts';
import type { FoundObject } from '#src/scan/index.ts';

/** Everything but the value, which each test checks where it matters. */
const where = (found: FoundObject[]): Omit<FoundObject, 'value'>[] =>
  found.map(({ offset, fenced, nested, pointer }) => ({ offset, fenced, nested, pointer }));

describe('findJsonObjects', () => {
  it('lists a hit and the objects nested in it, parent first, with RFC 6901 pointers', () => {
    const text = 'log: {"a":{"b":{}},"c":[{"d":1},2,[{"e":null}]]}';
    const found = findJsonObjects(text);
    expect(found.map((f) => f.pointer)).toEqual(['', '/a', '/a/b', '/c/0', '/c/2/0']);
    expect(found.every((f) => f.offset === 5 && f.nested === 0 && !f.fenced)).toBe(true);
    expect(found[3]?.value).toEqual({ d: 1 });
  });

  it('walks objects inside a top-level array hit', () => {
    expect(findJsonObjects('[{"a":1},{"b":2}]').map((f) => [f.pointer, f.value])).toEqual([
      ['/0', { a: 1 }],
      ['/1', { b: 2 }],
    ]);
  });

  it('escapes ~ and / in pointer tokens', () => {
    expect(findJsonObjects('{"a/b":{"c~d":{}}}').map((f) => f.pointer)).toEqual(['', '/a~1b', '/a~1b/c~0d']);
  });

  it('lists hits in document order with the offset of each top-level hit', () => {
    const text = '{"a":1} text {"b":{"c":2}}';
    expect(where(findJsonObjects(text))).toEqual([
      { offset: 0, fenced: false, nested: 0, pointer: '' },
      { offset: 13, fenced: false, nested: 0, pointer: '' },
      { offset: 13, fenced: false, nested: 0, pointer: '/b' },
    ]);
  });

  it('finds fenced JSON held in a result string, flagged fenced, with the pointer of the string', () => {
    const envelope = { type: 'result', result: 'Done.\n```json\n{"final":true,"position":"x"}\n```\n' };
    const found = findJsonObjects(JSON.stringify(envelope));
    expect(found.map((f) => f.value)).toEqual([envelope, { final: true, position: 'x' }]);
    expect(where(found)[1]).toEqual({ offset: 0, fenced: true, nested: 1, pointer: '/result' });
  });

  it('finds concatenated objects held in one string', () => {
    const found = findJsonObjects(JSON.stringify({ text: '{"p":1}{"p":2}' }));
    expect(found.slice(1).map((f) => [f.value, f.nested, f.pointer])).toEqual([
      [{ p: 1 }, 1, '/text'],
      [{ p: 2 }, 1, '/text'],
    ]);
  });

  it('puts objects found in a string where the string sits, before later siblings', () => {
    const text = JSON.stringify({ a: '{"in":1}', b: { after: true } });
    expect(findJsonObjects(text).map((f) => f.value)).toEqual([JSON.parse(text), { in: 1 }, { after: true }]);
  });

  it('unwraps string layers up to maxStringDepth (default 3), keeping the outermost string pointer', () => {
    let layered: unknown = { deepest: true };
    for (let k = 0; k < 4; k++) layered = { inner: JSON.stringify(layered) };
    const text = JSON.stringify(layered);
    const nestedOf = (max?: number): number[] =>
      findJsonObjects(text, max === undefined ? {} : { maxStringDepth: max }).map((f) => f.nested);
    expect(nestedOf()).toEqual([0, 1, 2, 3]);
    expect(nestedOf(0)).toEqual([0]);
    expect(nestedOf(4)).toEqual([0, 1, 2, 3, 4]);
    expect(findJsonObjects(text, { maxStringDepth: 4 }).map((f) => f.pointer)).toEqual(['', '/inner', '/inner', '/inner', '/inner']);
  });

  it('takes fenced from the innermost layer', () => {
    const text = '```json\n' + JSON.stringify({ r: '{"x":1}' }) + '\n```';
    expect(findJsonObjects(text).map((f) => f.fenced)).toEqual([true, false]);
  });

  it('keeps only objects with the anchor as an own key', () => {
    const text = JSON.stringify({ type: 'result', result: '{"position":"p","final":false}', meta: { position: 1 } });
    expect(findJsonObjects(text, { anchor: 'position' }).map((f) => [f.pointer, f.value])).toEqual([
      ['/result', { position: 'p', final: false }],
      ['/meta', { position: 1 }],
    ]);
    expect(findJsonObjects('{"a":{"constructor":1}}', { anchor: 'toString' })).toEqual([]);
  });

  it('with an anchor, misses (as documented) a key spelled with \\u escapes inside a string layer', () => {
    const text = JSON.stringify({ result: '{"\\u0066inal":true}' });
    expect(findJsonObjects(text).map((f) => f.value)).toContainEqual({ final: true });
    expect(findJsonObjects(text, { anchor: 'final' })).toEqual([]);
  });

  it('visits integer-like keys first, as JavaScript enumerates them', () => {
    expect(findJsonObjects('{"b":{"k":"b"},"1":{"k":"1"}}').map((f) => f.pointer)).toEqual(['', '/1', '/b']);
  });

  it('finds the complete inner object of an outer value that never closes', () => {
    expect(where(findJsonObjects('{ "a": {"b":1} oops'))).toEqual([{ offset: 7, fenced: false, nested: 0, pointer: '' }]);
  });

  it('walks 10,000 nested objects without overflowing the stack', () => {
    const depth = 10_000;
    const found = findJsonObjects('{"a":'.repeat(depth) + '{}' + '}'.repeat(depth));
    expect(found.length).toBe(depth + 1);
    expect(found[2]?.pointer).toBe('/a/a');
  });

  test.prop([fc.string({ unit: fc.constantFrom('{', '}', '[', ']', '"', '\\', ':', ',', '1', 'a', ' ', '"{\\"', '\\"}') })])(
    'never throws on arbitrary text and returns only objects',
    (text) => {
      for (const f of findJsonObjects(text)) {
        expect(typeof f.value === 'object' && f.value !== null && !Array.isArray(f.value)).toBe(true);
        expect(f.offset).toBeGreaterThanOrEqual(0);
        expect(f.offset).toBeLessThan(text.length);
      }
    },
  );
});

describe('eachJsonObject: lazy, with the anchor inside the scan (issue 15)', () => {
  afterEach(() => vi.restoreAllMocks());

  /** Text with objects that do and do not bear `k`, some held in JSON strings (no \\u escapes). */
  const anchored = fc
    .array(fc.constantFrom('{', '}', '[', ']', '"', ':', ',', '1', ' ', 'x', '"k"', '{"k":1}', '{"j":{"k":[]}}', '"{\\"k\\":2}"', '{"s":"{\\"k\\":3} {\\"j\\":4}"}', '[{"j":0}]'), { maxLength: 40 })
    .map((t) => t.join(''));

  test.prop([anchored], { numRuns: 300 })('with an anchor, finds exactly the objects of the full walk that own it', (text) => {
    expect(findJsonObjects(text, { anchor: 'k' })).toEqual(findJsonObjects(text).filter((f) => Object.hasOwn(f.value, 'k')));
    expect([...eachJsonObject(text)]).toEqual(findJsonObjects(text));
  });

  it('a caller that wants the first anchored object parses only the spans before it', () => {
    const parts: string[] = [];
    for (let k = 0; k < 50_000; k++) parts.push(`{"n": ${k}, "tags": [1, 2]}`);
    const text = `${parts.join(' ')} {"position": "a"} {"position": "b"} ${parts.join(' ')}`;
    const parse = vi.spyOn(JSON, 'parse');
    const first = eachJsonObject(text, { anchor: 'position' }).next();
    expect(first.value?.value).toEqual({ position: 'a' });
    expect(parse).toHaveBeenCalledTimes(1);
  });

  it('walks a string layer lazily: the first of 100,000 objects in a result string comes without the rest', () => {
    const result = Array.from({ length: 100_000 }, (_, k) => `{"position": ${k}}`).join('\n');
    const text = JSON.stringify({ type: 'result', result });
    const parse = vi.spyOn(JSON, 'parse');
    const found = eachJsonObject(text, { anchor: 'position' }).next().value;
    expect(found).toEqual({ value: { position: 0 }, offset: 0, fenced: false, nested: 1, pointer: '/result' });
    expect(parse).toHaveBeenCalledTimes(2);
  });
});

describe('eachJsonObjectOf (issue 24: a document already parsed is walked, not parsed again)', () => {
  /** Objects of a JSON value, some holding JSON (fenced or not) in their strings, and the anchor `final`. */
  const leaf = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant({ final: true, position: 'A' }));
  const withText = leaf.chain((v) => fc.constantFrom(v, JSON.stringify(v), `Done.\n\`\`\`json\n${JSON.stringify(v)}\n\`\`\`\n`, `{"final":false} then ${JSON.stringify(v)}`));
  const document = fc.oneof(fc.dictionary(fc.constantFrom('a', 'b', 'final', 'result', '1', 'x/y'), withText, { maxKeys: 4 }), fc.array(withText, { maxLength: 3 }));

  test.prop([document, fc.constantFrom('', ' ', '\n\t', '\ufeff', '\ufeff \r\n'), fc.constantFrom('', '\n', ' \r\n'), fc.boolean(), fc.constantFrom(undefined, 'final')])(
    'gives what findJsonObjects finds in the text of that one document, in the same order',
    (value, before, after, pretty, anchor) => {
      const text = `${before}${JSON.stringify(value, null, pretty ? 2 : undefined)}${after}`;
      const options = anchor === undefined ? {} : { anchor };
      const offset = before.length;
      expect([...eachJsonObjectOf(JSON.parse(text.replace(/^\ufeff/, '')) as object, offset, options)]).toEqual(findJsonObjects(text, options));
    },
  );
});
