/**
 * Prose around answers: what a model writes before and after its JSON.
 */
import fc from 'fast-check';
import { proseWords } from './_internals/text.ts';

/** Constraints of {@link proseText}. All optional. */
export interface ProseTextConstraints {
  /**
   * Most words in one prose piece.
   * @defaultValue 8
   */
  maxWords?: number;
  /**
   * Mix non-ASCII words (accents, CJK, emoji) in.
   * @defaultValue true
   */
  unicode?: boolean;
}

/**
 * Prose that never holds a JSON object, a fence or a quote: words such as `Here is my answer:`,
 * `[INFO]`, `(see notes)`, `étude`, `👍`. Prose brackets (`[INFO]`) are included on purpose: a scanner
 * must not take them for JSON.
 *
 * @param constraints - {@link ProseTextConstraints}
 * @returns an arbitrary of non-empty prose strings
 *
 * @example
 * fc.sample(proseText({ maxWords: 3, unicode: false }), 2) // e.g. ['Here is', '[INFO] ok']
 */
export function proseText(constraints: ProseTextConstraints = {}): fc.Arbitrary<string> {
  return proseWords(constraints.maxWords ?? 8, constraints.unicode ?? true);
}
