import { fenceRanges, inRanges } from '#src/scan/fences.ts';
import { balancedSpanEnd, firstTokenStop } from '#src/scan/span.ts';
import type { ScanHit, ScanKind, ScanOptions } from '#src/scan/types.ts';
import { ARRAY_BIT, OBJECT_BIT, validateFrom } from '#src/scan/validate.ts';

const BOTH: readonly ScanKind[] = ['object', 'array'];
const REJECTED = Symbol('rejected');

/**
 * Every top-level JSON object or array embedded in free text, in document order.
 *
 * Finds concatenated values (`{...}{...}`, with or without blanks between), values in Markdown
 * fences (```` ```json ```` or plain ```` ``` ````, flagged `fenced`), values inside prose, and
 * values next to prose brackets (`[INFO] {...}`). Braces and escaped quotes inside JSON strings
 * do not count. CRLF line ends and a leading BOM are prose like any other. Values are strict
 * JSON (RFC 8259, what `JSON.parse` accepts): no comments, trailing commas, single quotes or
 * `NaN`; JSON scalars (`"a"`, `1`, `null`) are never hits.
 *
 * Hits are maximal and never overlap: a nested object is part of its parent hit. When an outer
 * `{` or `[` never closes validly, the complete values it held are reported and the scan goes on
 * from the character where the outer value stopped being JSON: `{ "a": {"b":1} oops` gives
 * `{"b":1}`.
 *
 * Equivalence (checked by a differential property test): the hits are exactly those of the
 * raw_decode loop, which tries Python's `json.JSONDecoder.raw_decode` at each `{`/`[`, jumps past
 * a success and moves one character on after a failure, with one known difference, the price of
 * linear time: after a failed outer value, brackets that it read as the inside of a string are not
 * tried again. In `{"note": "see {"b":1} here` the outer string `"see {"` swallows the `{`, the
 * outer value then fails at `b`, and `{"b":1}` is not reported (the raw_decode loop finds it).
 * Brackets after the failure point, including the rest of an unterminated string, are tried.
 *
 * Cost: linear in `text.length`. One bracket-matching pass finds each candidate span,
 * `JSON.parse` validates and builds it; a span `JSON.parse` rejects is run once through an
 * iterative validator that finds where it fails and which nested values were complete, and the
 * scan resumes there, never at the next character after the opener. Text that a failed pass has
 * already read is only ever re-read by the validator, which always moves forward. Never throws;
 * nesting depth is limited by memory, not the call stack.
 *
 * @param text - any string (lone surrogates and NUL included); offsets are UTF-16 code units.
 * @param options - {@link ScanOptions}: `maxHits`, `kinds`, `minLength`.
 * @returns the hits, each with `text.slice(start, end)` re-parsing to `value`.
 *
 * @example
 * scanJson('Here is the answer: {"a":1} hope it helps')
 * // [{ start: 20, end: 27, value: { a: 1 }, kind: 'object', fenced: false }]
 * @see {@link https://www.rfc-editor.org/rfc/rfc8259 | RFC 8259} for what counts as JSON.
 */
export function scanJson(text: string, options: ScanOptions = {}): ScanHit[] {
  const hits: ScanHit[] = [];
  if (typeof text !== 'string') return hits;
  const maxHits = options.maxHits ?? Infinity;
  const minLength = options.minLength ?? 0;
  const kinds = options.kinds ?? BOTH;
  const wantObject = kinds.includes('object');
  const wantArray = kinds.includes('array');
  if (!(maxHits > 0) || !(wantObject || wantArray)) return hits;
  const record = (wantObject ? OBJECT_BIT : 0) | (wantArray ? ARRAY_BIT : 0);

  let fences: number[] | undefined;
  const cursor = { i: 0 };
  const emit = (start: number, end: number, value: unknown): void => {
    if (end - start < minLength) return;
    fences ??= fenceRanges(text);
    hits.push({
      start,
      end,
      value,
      kind: text.charCodeAt(start) === 0x7b ? 'object' : 'array',
      fenced: fences.length > 0 && inRanges(fences, start, cursor),
    });
  };

  // Offsets below `frontier` were read by an earlier pass; attempts there use the validator only.
  let frontier = 0;
  let pos = 0;
  let nextObject = wantObject ? text.indexOf('{') : -1;
  let nextArray = wantArray ? text.indexOf('[') : -1;
  while (hits.length < maxHits) {
    let start: number;
    const here = text.charCodeAt(pos);
    if ((here === 0x7b && wantObject) || (here === 0x5b && wantArray)) {
      start = pos; // runs such as `{{{{`: no search needed
    } else {
      if (nextObject >= 0 && nextObject < pos) nextObject = text.indexOf('{', pos);
      if (nextArray >= 0 && nextArray < pos) nextArray = text.indexOf('[', pos);
      start = nextObject < 0 ? nextArray : nextArray < 0 ? nextObject : Math.min(nextObject, nextArray);
      if (start < 0) break;
    }

    // Most prose brackets (`[INFO]`, `{{`, `{ x`) fail on their first token: skip them at once.
    const refused = firstTokenStop(text, start);
    if (refused >= 0) {
      pos = refused;
      continue;
    }

    if (start >= frontier) {
      const end = balancedSpanEnd(text, start);
      if (end > 0) {
        frontier = end;
        const value = parseSpan(text, start, end);
        if (value !== REJECTED) {
          emit(start, end, value);
          pos = end;
          continue;
        }
      } else {
        frontier = Math.max(frontier, -end);
      }
    }

    const v = validateFrom(text, start, record);
    if (v.failAt + 1 > frontier) frontier = v.failAt + 1;
    if (v.end > 0) {
      const value = parseSpan(text, start, v.end);
      if (value !== REJECTED) emit(start, v.end, value);
      pos = v.end;
      continue;
    }
    for (let k = 0; k < v.inner.length && hits.length < maxHits; k += 2) {
      const from = v.inner[k] as number;
      const to = v.inner[k + 1] as number;
      const value = parseSpan(text, from, to);
      if (value !== REJECTED) emit(from, to, value);
    }
    pos = Math.max(v.failAt, start + 1);
  }
  return hits;
}

function parseSpan(text: string, start: number, end: number): unknown {
  try {
    return JSON.parse(text.slice(start, end));
  } catch {
    return REJECTED;
  }
}
