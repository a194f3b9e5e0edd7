/**
 * Hostile stdout for the "never throws" law: arbitrary bytes decoded as UTF-8, lone surrogates, NUL,
 * BOM, CRLF, unbalanced and very deep nesting, and slices of real and generated envelopes.
 */
import fc from 'fast-check';
import { routeEnvelope } from './routeEnvelope.ts';
import { deepJson } from './_internals/text.ts';

/** Constraints of {@link hostileStdout}. All optional. */
export interface HostileStdoutConstraints {
  /** Known stdout texts (corpus envelopes) to slice pieces from. @defaultValue [] */
  examples?: readonly string[];
  /**
   * Most pieces joined into one stdout.
   * @defaultValue 8
   */
  maxPieces?: number;
  /**
   * Deepest nesting of a balanced or unbalanced piece (`{"a":` repeated, `[` repeated), also as the
   * value of a structured field. Deep pieces are 1..64 levels, or 1,000, 3,000 or `maxDepth` levels
   * (past about 4,100 levels `JSON.stringify` overflows the stack of a Node 20 main thread).
   * @defaultValue 10000
   */
  maxDepth?: number;
}

const TOKENS = ['{', '}', '[', ']', '"', '\\', ':', ',', '\n', '\r\n', '\r', '\uFEFF', '\u0000', '\uD800', '\uDC00', '```json\n', '\n```', '{"type":"result"', '"structured_output":', '"position":', '"final":true', '\\"', '\u001b[31m'];

/** Bytes decoded as UTF-8 the way a child process's output is (invalid sequences become U+FFFD). */
const decoder = new TextDecoder('utf-8', { fatal: false });

/**
 * An arbitrary of stdout texts no decoder should choke on. Each is a join of pieces: bytes decoded as
 * UTF-8 (invalid sequences included), binary strings (lone surrogates, controls), JSON values, JSON
 * punctuation and envelope keys, deep nesting (balanced, unbalanced, or in a `structured_output`
 * field), slices of generated envelopes and of `examples`.
 *
 * @param constraints - {@link HostileStdoutConstraints}
 * @returns an arbitrary of strings
 *
 * @example
 * fc.sample(hostileStdout({ maxDepth: 10 }), 3)
 */
export function hostileStdout(constraints: HostileStdoutConstraints = {}): fc.Arbitrary<string> {
  const maxDepth = Math.max(1, constraints.maxDepth ?? 10_000);
  const examples = constraints.examples ?? [];
  const slice = (texts: fc.Arbitrary<string>) =>
    fc.tuple(texts, fc.nat(), fc.nat()).map(([t, a, b]) => {
      const from = t.length === 0 ? 0 : a % t.length;
      return t.slice(from, from + 1 + (b % Math.max(1, t.length - from)));
    });
  // Mostly shallow (cheap); sometimes one of a few deep levels, so that shrinking stops at a level
  // well past a stack limit (about 4,100 for JSON.stringify) instead of exactly at it.
  const deep = [...new Set([1000, 3000, maxDepth].filter((d) => d <= maxDepth))];
  const depth = fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 1, max: Math.min(64, maxDepth) }) }, { weight: 1, arbitrary: fc.constantFrom(...deep) });
  const pieces: fc.Arbitrary<string>[] = [
    fc.uint8Array({ maxLength: 64 }).map((bytes) => decoder.decode(bytes)),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.json({ maxDepth: 3 }),
    fc.constantFrom(...TOKENS),
    fc.tuple(depth, fc.constantFrom('open-object', 'open-array', 'object', 'array', 'structured')).map(([d, kind]) => {
      if (kind === 'open-object') return '{"a":'.repeat(d);
      if (kind === 'open-array') return '['.repeat(d);
      if (kind === 'structured') return `{"type":"result","structured_output":${deepJson(d, 'object')},"result":"x"}`;
      return deepJson(d, kind);
    }),
    slice(routeEnvelope({ maxAnswers: 2 }).map((g) => g.envelope.stdout)),
  ];
  if (examples.length > 0) pieces.push(slice(fc.constantFrom(...examples)));
  return fc.array(fc.oneof(...pieces), { maxLength: constraints.maxPieces ?? 8 }).map((parts) => parts.join(''));
}
