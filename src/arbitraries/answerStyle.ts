/**
 * How an answer's JSON is written in a text: layout, escapes, duplicate keys, wrapping.
 */
import fc from 'fast-check';
import type { AnswerStyle, AnswerWrap } from './types.ts';

/** Constraints of {@link answerStyle}. All optional. */
export interface AnswerStyleConstraints {
  /**
   * The wraps to draw from.
   * @defaultValue ['bare', 'fenced', 'fenced-plain', 'nested-string']
   */
  wraps?: readonly AnswerWrap[];
  /**
   * Allow decoy duplicate keys (`JSON.parse` keeps the last member).
   * @defaultValue true
   */
  duplicateKeys?: boolean;
  /**
   * Allow `\uXXXX` and `\/` escapes.
   * @defaultValue true
   */
  escapes?: boolean;
}

/**
 * An arbitrary of {@link AnswerStyle}: compact or pretty, with or without `\uXXXX` escapes and decoy
 * duplicate keys, bare, fenced or inside a JSON string. No style changes what the answer parses to.
 * Shrinks towards compact, unescaped, no duplicates, bare.
 *
 * @param constraints - {@link AnswerStyleConstraints}
 *
 * @example
 * fc.sample(answerStyle({ wraps: ['fenced'] }), 1) // [{ pretty: true, escapeUnicode: false, duplicateKeys: false, wrap: 'fenced' }]
 */
export function answerStyle(constraints: AnswerStyleConstraints = {}): fc.Arbitrary<AnswerStyle> {
  const wraps = constraints.wraps ?? (['bare', 'fenced', 'fenced-plain', 'nested-string'] as const);
  return fc.record({
    pretty: fc.boolean(),
    escapeUnicode: constraints.escapes === false ? fc.constant(false) : fc.boolean(),
    duplicateKeys: constraints.duplicateKeys === false ? fc.constant(false) : fc.boolean(),
    wrap: fc.constantFrom(...wraps),
  });
}
