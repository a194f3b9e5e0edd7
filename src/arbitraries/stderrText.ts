/**
 * stderr texts around the evidence bound (300 characters, src/diagnostics/evidence.ts): short, exactly
 * at the bound, long, multi-line, with ANSI colour codes, with any unicode.
 */
import fc from 'fast-check';
import { EVIDENCE_LIMIT_CHARS } from '#src/diagnostics/evidence.ts';

/**
 * Kinds of stderr, measured on the text the evidence shows (trimmed, each line break as one space):
 * - `short`: 1..299 characters;
 * - `exact-limit`: exactly 300 characters;
 * - `long`: 301..4000 characters;
 * - `multi-line`: 2..8 lines joined by LF or CRLF (any length);
 * - `ansi`: words in ANSI SGR colour codes (`\u001b[31m...\u001b[0m`);
 * - `unicode`: any code points, lone surrogates included;
 * - `empty`: nothing, or only whitespace.
 */
export type StderrKind = 'short' | 'exact-limit' | 'long' | 'multi-line' | 'ansi' | 'unicode' | 'empty';

/** Every {@link StderrKind}. */
export const STDERR_KINDS: readonly StderrKind[] = ['short', 'exact-limit', 'long', 'multi-line', 'ansi', 'unicode', 'empty'];

/** Constraints of {@link stderrText}. All optional. */
export interface StderrTextConstraints {
  /**
   * The kinds to draw from.
   * @defaultValue every {@link StderrKind} but `empty`
   */
  kinds?: readonly StderrKind[];
  /**
   * Add a trailing newline (as CLIs do) or surrounding blanks half of the time.
   * @defaultValue true
   */
  padding?: boolean;
}

/** The text the evidence shows for a stderr: trimmed, each CR, LF or CRLF as one space. */
export function evidenceForm(stderr: string): string {
  return stderr.trim().replace(/\r\n|\r|\n/g, ' ');
}

const printable = (min: number, max: number) => fc.string({ unit: 'grapheme-ascii', minLength: min, maxLength: max });
const EDGE = /^\s|\s$/;

/** Make the first and last characters visible, so trimming does not change the length. */
function solidEdges(s: string): string {
  if (s.length === 0) return s;
  const first = /\s/.test(s[0]!) ? 'E' : s[0]!;
  if (s.length === 1) return first;
  const last = /\s/.test(s[s.length - 1]!) ? 'Z' : s[s.length - 1]!;
  return first + s.slice(1, -1) + last;
}

const ANSI = fc.constantFrom('\u001b[31m', '\u001b[1;33m', '\u001b[0m', '\u001b[2K', '\u001b[90m');

function kindArbitrary(kind: StderrKind): fc.Arbitrary<string> {
  switch (kind) {
    case 'short':
      return printable(1, EVIDENCE_LIMIT_CHARS - 1).map(solidEdges);
    case 'exact-limit':
      return fc
        .record({ body: printable(EVIDENCE_LIMIT_CHARS, EVIDENCE_LIMIT_CHARS), breaks: fc.array(fc.nat({ max: EVIDENCE_LIMIT_CHARS - 3 }), { maxLength: 4 }) })
        .map(({ body, breaks }) => {
          const chars = [...solidEdges(body)];
          for (const b of breaks) chars[b + 1] = '\n';
          return chars.join('');
        });
    case 'long':
      return fc
        .record({ head: printable(1, 200), fill: fc.integer({ min: EVIDENCE_LIMIT_CHARS + 1, max: 4000 }), tail: printable(1, 200) })
        .map(({ head, fill, tail }) => {
          const body = head + 'x'.repeat(Math.max(0, fill - head.length - tail.length)) + tail;
          return solidEdges(body);
        });
    case 'multi-line':
      return fc
        .record({ lines: fc.array(printable(1, 120), { minLength: 2, maxLength: 8 }), crlf: fc.boolean() })
        .map(({ lines, crlf }) => lines.map(solidEdges).join(crlf ? '\r\n' : '\n'));
    case 'ansi':
      return fc.array(fc.tuple(ANSI, printable(1, 30)), { minLength: 1, maxLength: 12 }).map((parts) => solidEdges(parts.map(([c, w]) => c + w).join(' ') + '\u001b[0m'));
    case 'unicode':
      return fc.oneof(fc.string({ unit: 'binary', minLength: 1, maxLength: 400 }), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 400 })).map((s) => (EDGE.test(s) ? solidEdges(s) : s));
    case 'empty':
      return fc.constantFrom('', '\n', '  ', '\r\n');
  }
}

/**
 * An arbitrary of stderr texts of the requested kinds, for the evidence bound: a text whose
 * {@link evidenceForm} is at most 300 characters must appear whole in the evidence, a longer one must
 * be clipped to at most 300.
 *
 * @param constraints - {@link StderrTextConstraints}
 * @returns an arbitrary of stderr strings
 *
 * @example
 * fc.sample(stderrText({ kinds: ['exact-limit'] }), 1).map((s) => evidenceForm(s).length) // [300]
 */
export function stderrText(constraints: StderrTextConstraints = {}): fc.Arbitrary<string> {
  const kinds = constraints.kinds ?? STDERR_KINDS.filter((k) => k !== 'empty');
  const base = fc.oneof(...kinds.map(kindArbitrary));
  if (constraints.padding === false) return base;
  return fc.tuple(base, fc.constantFrom('', '', '\n', '\r\n', ' ')).map(([s, pad]) => (s.trim() === '' ? s : s + pad));
}
