/**
 * Small string arbitraries shared by the builders: answer strings (unicode, escapes, quotes, braces),
 * separators, noise JSON, and tokens a decoder must not mistake for structure.
 */
import fc from 'fast-check';
import type { Separator } from '../types.ts';

/** Characters that stress JSON escaping and the scanner inside strings. */
const TRICKY = ['"', '\\', '{', '}', '[', ']', '```', '\n', '\r\n', '\t', '\u0000', '\u001b', '\u2028', '\uFEFF', '\uD800', '\uDFFF', 'é', '日本', '👍', '\\"', '/', ' '];

/**
 * A non-empty string for an answer field. `ascii`: printable ASCII; `unicode`: any code point
 * (lone surrogates and controls included) mixed with quotes, backslashes, braces and fences.
 */
export function answerString(text: 'ascii' | 'unicode', maxLength = 40): fc.Arbitrary<string> {
  if (text === 'ascii') return fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength });
  return fc.oneof(
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength }) },
    { weight: 2, arbitrary: fc.string({ unit: fc.constantFrom(...TRICKY, 'a', 'b', 'position', 'final', ':', ','), minLength: 1, maxLength: 12 }) },
  );
}

/** Whitespace (or nothing) between two pieces of a text. */
export const separator: fc.Arbitrary<Separator> = fc.constantFrom<Separator>('', ' ', '\n', '\r\n', '\n\n', '\t');

/** Nested arrays `[[[...]]]` or objects `{"a":{"a":...}}` of `depth` levels, valid JSON without the anchor key. */
export function deepJson(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '0' + '}'.repeat(depth);
}

/** JSON text that never bears the anchor key: small objects, arrays, and deep nesting up to `maxDepth`. */
export function noiseJson(maxDepth: number): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom('{"step":1}', '[1,2,3]', '{"tool":"Read","ok":true}', '[]', '{}', '{"note":"see {braces} and \\"quotes\\""}', '[{"id":1},{"id":2}]'),
    fc.record({ depth: fc.integer({ min: 1, max: Math.max(1, maxDepth) }), kind: fc.constantFrom<'array' | 'object'>('array', 'object') }).map(({ depth, kind }) => deepJson(depth, kind)),
  );
}

/** Words of prose: never a JSON object, never a fence, never an opening quote. */
const WORDS = ['I', 'think', 'option', 'A', 'is', 'better', 'Here', 'is', 'my', 'answer:', 'Done.', '[INFO]', '[warn]', '(see notes)', 'Step 1:', '->', '#', '*', 'ok', 'final', 'position', 'true', 'étude', '日本語', '👍', 'naïve', 'x=1;', '100%', 'a/b', "it's"];
const ASCII_WORDS = WORDS.filter((w) => /^[\x20-\x7e]+$/.test(w));

/** Prose of 1..`maxWords` words (joined by single spaces). */
export function proseWords(maxWords: number, unicode: boolean): fc.Arbitrary<string> {
  return fc.array(fc.constantFrom(...(unicode ? WORDS : ASCII_WORDS)), { minLength: 1, maxLength: Math.max(1, maxWords) }).map((w) => w.join(' '));
}
