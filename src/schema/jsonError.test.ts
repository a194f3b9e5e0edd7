import { describe, expect, it } from 'vitest';
import { findJsonSyntaxError, lineColumn, locateJsonError } from '#src/schema/jsonError.ts';

describe('findJsonSyntaxError', () => {
  it.each([
    ['{"a": 1}'],
    ['[]'],
    ['  null  '],
    ['"\\u00e9\\n"'],
    ['-0.5e+10'],
    ['{"a":[1,{"b":true},"c"],"d":{}}'],
    ['['.repeat(10_000) + ']'.repeat(10_000)],
  ])('accepts %s', (text) => {
    expect(findJsonSyntaxError(text)).toBeUndefined();
    expect(() => JSON.parse(text)).not.toThrow();
  });

  it.each([
    ['', 0],
    ['{"a": }', 6],
    ['{"a": 1,}', 8],
    ['{"a" 1}', 5],
    ['{"a":1} x', 8],
    ['{"a": "x', 8],
    ['[1,2', 4],
    ['[01]', 2],
    ['{a: 1}', 1],
    ['"\\x"', 1],
    ['"a\tb"', 2],
    ['[tru]', 1],
    ['[-]', 2],
    ['{"a":1,,}', 7],
    ['[1 2]', 3],
  ])('finds the error in %j at %i', (text, offset) => {
    expect(findJsonSyntaxError(text)).toBe(offset);
    expect(() => JSON.parse(text)).toThrow();
  });
});

describe('lineColumn and locateJsonError', () => {
  it('counts 1-based lines and columns', () => {
    expect(lineColumn('{\n  "a": }', 9)).toEqual({ offset: 9, line: 2, column: 8 });
    expect(lineColumn('abc', 0)).toEqual({ offset: 0, line: 1, column: 1 });
    expect(locateJsonError('{"a": 1,}')).toEqual({ offset: 8, line: 1, column: 9 });
    expect(locateJsonError('{}')).toBeUndefined();
  });
});
