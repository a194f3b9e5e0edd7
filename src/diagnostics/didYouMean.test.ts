/** "Did you mean" on the typos people make: a swapped pair of letters is one edit, as a typist makes it. */
import { describe, expect, it } from 'vitest';
import { didYouMean, didYouMeanTail } from './didYouMean.ts';

describe('didYouMean', () => {
  it('suggests for a transposition, a dropped letter and a prefix, and nothing for a far word', () => {
    expect(didYouMean('dnoe', ['decision', 'rationale', 'done'])).toEqual(['done']);
    expect(didYouMean('nnoe', ['none'])).toEqual(['none']);
    expect(didYouMean('acepted', ['accepted', 'retry'])).toEqual(['accepted']);
    expect(didYouMean('claude', ['claude-code/json', 'codex/jsonl'])).toEqual(['claude-code/json']);
    expect(didYouMean('zebra', ['score', 'last-shaped'])).toEqual([]);
  });

  it('didYouMeanTail ends a refusal sentence, or adds nothing', () => {
    expect(didYouMeanTail('fence', ['any', 'fenced', 'off'])).toBe('; did you mean "fenced"?');
    expect(didYouMeanTail('zebra', ['any'])).toBe('');
    expect(didYouMeanTail(42, ['any'])).toBe('');
  });
});
