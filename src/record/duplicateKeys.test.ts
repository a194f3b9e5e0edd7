import { describe, expect, it } from 'vitest';
import { firstDuplicateKey } from './duplicateKeys.ts';

describe('firstDuplicateKey', () => {
  it('names the object by JSON Pointer (array indexes, escaped ~ and /), the key as JSON reads it, and the line', () => {
    const text = '{"a": [1, {"x": 1}, {"b/~": {"k": 1, "k\\u0020": 2, "\\"q": 3,\n "k": 4}}]}';
    expect(firstDuplicateKey(text)).toEqual({ pointer: '/a/2/b~1~0', key: 'k', line: 2, column: 2 });
    expect(firstDuplicateKey('{"a\\u0062": 1, "ab": 2}')).toMatchObject({ pointer: '', key: 'ab' });
  });

  it('sees no duplicate in strings, in sibling objects, or in well-formed text', () => {
    expect(firstDuplicateKey('{"s": "{\\"k\\": 1, \\"k\\": 2}", "t": "\\\\", "u": {"k": 1}, "v": {"k": 1}, "w": [{"k": 1}, {"k": 2}]}')).toBeNull();
    expect(firstDuplicateKey('[]')).toBeNull();
    expect(firstDuplicateKey('"unterminated')).toBeNull();
  });
});
