import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { escapePointerToken, formatPointer, joinPointer, localRefToPointer, parsePointer, unescapePointerToken } from '#src/pointer.ts';

describe('JSON Pointer (RFC 6901)', () => {
  it('escapes ~ before /, and unescapes ~1 before ~0', () => {
    expect(escapePointerToken('a/b~c')).toBe('a~1b~0c');
    expect(escapePointerToken('~1')).toBe('~01');
    expect(escapePointerToken(7)).toBe('7');
    expect(unescapePointerToken('~01')).toBe('~1');
    expect(unescapePointerToken('a~1b~0c')).toBe('a/b~c');
    for (const token of ['', 'a', '/', '~', '~0', '~1', 'a/~b']) expect(unescapePointerToken(escapePointerToken(token))).toBe(token);
  });

  it('joins, formats and parses pointers', () => {
    expect(joinPointer('', 'properties', 'a/b', 0)).toBe('/properties/a~1b/0');
    expect(joinPointer('/items')).toBe('/items');
    expect(formatPointer([])).toBe('');
    expect(formatPointer([''])).toBe('/');
    expect(parsePointer('/properties/a~1b/0')).toEqual(['properties', 'a/b', '0']);
    expect(parsePointer('')).toEqual([]);
    expect(parsePointer('/')).toEqual(['']);
    expect(() => parsePointer('properties')).toThrow(SyntaxError);
    expect(() => parsePointer('properties')).toThrow(/not a JSON Pointer.*properties/);
  });

  test.prop([fc.array(fc.string({ unit: fc.constantFrom('a', '/', '~', '0', '1', '') }))], { seed: 20, numRuns: 200 })(
    'parsePointer(formatPointer(tokens)) gives the tokens back',
    (tokens) => {
      expect(parsePointer(formatPointer(tokens))).toEqual(tokens);
    },
  );

  it('turns local $refs into pointers', () => {
    expect(localRefToPointer('#')).toBe('');
    expect(localRefToPointer('#/$defs/a%20b')).toBe('/$defs/a b');
    expect(localRefToPointer('#/definitions/a~1b')).toBe('/definitions/a~1b');
    expect(localRefToPointer('#anchor')).toBeUndefined();
    expect(localRefToPointer('other.json#/a')).toBeUndefined();
    expect(localRefToPointer('#/%E0%A4%A')).toBeUndefined();
    expect(localRefToPointer(5)).toBeUndefined();
  });
});
