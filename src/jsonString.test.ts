import { describe, expect, it } from 'vitest';
import { writeJsonString } from './jsonString.ts';

const written = (text: string, slice: number): string => {
  const pieces: string[] = [];
  writeJsonString(text, (p) => pieces.push(p), slice);
  return pieces.join('');
};

describe('writeJsonString', () => {
  it('joins to exactly JSON.stringify, a surrogate pair on a slice boundary kept whole', () => {
    for (const text of ['', 'a"b\\c\n\u0001', 'ab\u{1F600}cd\u{1F600}', '\uD800x\uDC00', 'x'.repeat(10) + '\u{1F600}'.repeat(7)]) {
      for (const slice of [1, 2, 3, 4, 64]) expect(written(text, slice), `${JSON.stringify(text)} / ${slice}`).toBe(JSON.stringify(text));
    }
  });
});
