import { describe, expect, it } from 'vitest';
import { describeJsonSyntaxError, findJsonSyntaxError, lineColumn, locateJsonError } from '#src/schema/jsonError.ts';

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

describe('describeJsonSyntaxError: where and why, on one line, for every file a user writes', () => {
  const cases: [string, string][] = [
    // Node 20 gives no position for this one, and quotes the text with its newline.
    ['[\n  "starter",,\n  "acc"\n]', "line 2, column 13: Unexpected token ','"],
    ['{\n  "cases": "cases",\n  "contracts": [,]\n}\n', "line 3, column 17: Unexpected token ','"],
    ['{\n "a": "x",,\n "b": 1\n}', "line 2, column 11: Expected double-quoted property name"],
    ['{"a": 1}x', 'line 1, column 9: Unexpected non-whitespace character after the JSON value'],
    ['{"a": 1', "line 1, column 8: Expected ',' or '}' after property value"],
  ];
  it.each(cases)('%j -> %s', (text, expected) => {
    let error: unknown;
    try {
      JSON.parse(text);
    } catch (e) {
      error = e;
    }
    const said = describeJsonSyntaxError(text, error);
    expect(said).toBe(expected);
    expect(said).not.toMatch(/\n|position/);
  });
});
