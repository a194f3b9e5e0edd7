/**
 * The scanner's fallback: an iterative JSON validator (RFC 8259 grammar, as `JSON.parse` applies
 * it) run from an opening `{` or `[` when the fast path's span was unbalanced or `JSON.parse`
 * rejected it. It reports where the value ends, or where it stops being JSON and which nested
 * values were complete by then. Its stack of open containers is a pair of typed arrays shared
 * between calls and grown by doubling (5 bytes per level), so nesting depth is limited by memory,
 * not by the call stack.
 */
import type { Jumps } from '#src/scan/span.ts';

/**
 * Result of {@link validateFrom}.
 *
 * - `end`: exclusive end of the complete value, or `-1` when it is not valid JSON.
 * - `failAt`: when `end === -1`, the offset of the first character that cannot continue the value
 *   (`text.length` when the text ends first); otherwise equal to `end`.
 * - `inner`: when `end === -1`, the complete nested objects/arrays (of the kinds asked for) that
 *   are not inside another such complete value, as a flat list `[start0, end0, start1, end1, ...]`
 *   in document order; otherwise empty.
 * - `values`: with {@link Jumps}, the values `JSON.parse` built for inner values it validated
 *   (`values[k]` for the pair at `inner[2k]`; `undefined` for a value the validator read itself);
 *   otherwise `undefined`.
 */
export interface Validation {
  end: number;
  failAt: number;
  inner: number[];
  values: unknown[] | undefined;
}

/** Kind bit masks for {@link validateFrom}'s `record` argument. */
export const OBJECT_BIT = 1;
export const ARRAY_BIT = 2;

const VALUE = 0;
const OBJECT_FIRST = 1;
const OBJECT_KEY = 2;
const COLON = 3;
const ARRAY_FIRST = 4;
const AFTER = 5;

/**
 * Validates the JSON value that starts at `start` (`text[start]` is `{` or `[`). `record` is a
 * mask of {@link OBJECT_BIT} / {@link ARRAY_BIT}: which kinds of complete nested values to list
 * when the value fails. Linear in the length examined (`failAt - start` or `end - start`).
 * A success returns one shared object, overwritten by the next call: read it at once.
 *
 * With `jumps` from a `balancedSpanEnd` pass from the same `start` (span.ts; same text, same
 * `record`), the nested values that pass saw close are built by `JSON.parse`, and the validator
 * steps over each one it reaches as a complete value, listed with its value, instead of reading it
 * token by token (issue 24: a cut-off document is then read by the bracket pass, the validator on
 * what lies between its complete values, and `JSON.parse` once, where it was read by all three).
 * The values shorter than 512 code units are built first, all in one `JSON.parse` of
 * `[value,value,...]`; a longer one is parsed alone when the validator reaches it (not copied into
 * the batch, and not parsed at all when the validator fails before it). A value that does not
 * parse is read as usual: when the batch throws, every short one. No value inside a listed one is
 * listed, so each character meets at most one rejected parse. Same `end`,
 * `failAt` and `inner` as without: a balanced span parses exactly when the validator would
 * complete it, and ends where its closer is.
 */
export function validateFrom(text: string, start: number, record: number, jumps?: Jumps): Validation {
  const len = text.length;
  let kinds = kindStack;
  let starts = startStack;
  let depth = 0;
  // Made at the first complete nested value: a span that validates whole allocates nothing.
  let inner: number[] | undefined;
  let innerLength = 0;
  const jumping = jumps !== undefined && jumps.start === start && jumps.length > 0 && jumps.record === record;
  const spans = jumping ? jumps.spans : NO_JUMPS;
  const jumpLength = jumping ? jumps.length : 0;
  // The short ones all in one JSON.parse (none when it throws); each long one alone as the validator reaches it.
  const built = jumping ? parseShort(text, spans, jumpLength) : undefined;
  let jumpAt = 0;
  let values: unknown[] | undefined;
  let state = VALUE;
  let i = start;
  for (;;) {
    let c = 0;
    while (i < len) {
      c = text.charCodeAt(i);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
      i++;
    }
    if (i >= len) return failure(len, inner, innerLength, values);
    let close = false;
    switch (state) {
      case ARRAY_FIRST:
        if (c === 0x5d) {
          close = true;
          break;
        }
      // falls through: an element
      case VALUE:
        if (c === 0x7b || c === 0x5b) {
          if (jumpAt < jumpLength) {
            while (jumpAt < jumpLength && (spans[jumpAt] as number) < i) jumpAt += 2;
            if (jumpAt < jumpLength && spans[jumpAt] === i) {
              const to = spans[jumpAt + 1] as number;
              const value = to - i >= JUMP_ALONE ? parseOrUndefined(text, i, to) : built?.[jumpAt >> 1];
              if (value !== undefined) {
                // Complete: nothing inside it was listed yet (the validator has not read past `i`).
                values ??= [];
                inner ??= [];
                values[innerLength >> 1] = value;
                inner[innerLength++] = i;
                inner[innerLength++] = to;
                i = to;
                state = AFTER;
                break;
              }
            }
          }
          if (depth === kinds.length) {
            kinds = kindStack = grow(kinds, new Uint8Array(kinds.length * 2));
            starts = startStack = grow(starts, new Int32Array(starts.length * 2));
          }
          kinds[depth] = c === 0x7b ? 0 : 1;
          starts[depth++] = i++;
          state = c === 0x7b ? OBJECT_FIRST : ARRAY_FIRST;
        } else {
          const j =
            c === 0x22 ? skipString(text, i) : c === 0x2d || (c >= 0x30 && c <= 0x39) ? skipNumber(text, i) : skipLiteral(text, i, c);
          if (j < 0) return failure(-1 - j, inner, innerLength, values);
          i = j;
          state = AFTER;
        }
        break;
      case OBJECT_FIRST:
        if (c === 0x7d) {
          close = true;
          break;
        }
      // falls through: a key
      case OBJECT_KEY: {
        if (c !== 0x22) return failure(i, inner, innerLength, values);
        const j = skipString(text, i);
        if (j < 0) return failure(-1 - j, inner, innerLength, values);
        i = j;
        state = COLON;
        break;
      }
      case COLON:
        if (c !== 0x3a) return failure(i, inner, innerLength, values);
        i++;
        state = VALUE;
        break;
      default: {
        const top = kinds[depth - 1];
        if (c === 0x2c) {
          i++;
          state = top === 0 ? OBJECT_KEY : VALUE;
        } else if ((c === 0x7d && top === 0) || (c === 0x5d && top === 1)) {
          close = true;
        } else {
          return failure(i, inner, innerLength, values);
        }
      }
    }
    if (close) {
      depth--;
      const kind = kinds[depth] as number;
      const from = starts[depth] as number;
      i++;
      if (depth === 0) {
        VALID.end = i;
        VALID.failAt = i;
        return VALID;
      }
      if ((record & (kind + 1)) !== 0) {
        inner ??= [];
        // Values completed inside this one are no longer maximal.
        while (innerLength > 0 && (inner[innerLength - 2] as number) > from) innerLength -= 2;
        if (values !== undefined) values[innerLength >> 1] = undefined;
        inner[innerLength++] = from;
        inner[innerLength++] = i;
      }
      state = AFTER;
    }
  }
}

const NO_JUMPS = new Int32Array(0);
/**
 * A listed value this long or longer is parsed on its own when the validator reaches it, a shorter
 * one in the batch of {@link parseShort}. Alone, a long value is not copied into the batch string,
 * and it is parsed only if the validator gets to it (issue 24).
 */
const JUMP_ALONE = 512;

/** Stacks of open containers (kind 0 = object, 1 = array; start offset), shared between calls. */
let kindStack = new Uint8Array(256);
let startStack = new Int32Array(256);

function grow<T extends Uint8Array | Int32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/**
 * The result of every validation that succeeds, reused (issue 24: 500,000 small spans skipped by an
 * anchored scan made 1.5 million short-lived objects, and the young generation grew to hold them):
 * read it before the next call, never keep it. Its `inner` is always empty.
 */
const VALID: Validation = { end: 0, failAt: 0, inner: [], values: undefined };

function failure(at: number, inner: number[] | undefined, innerLength: number, values: unknown[] | undefined): Validation {
  if (inner === undefined) return { end: -1, failAt: at, inner: [], values: undefined };
  inner.length = innerLength;
  if (values !== undefined) values.length = innerLength >> 1;
  return { end: -1, failAt: at, inner, values };
}

/**
 * The values of the spans `[from0, to0, from1, to1, ...]` of `text` (`length` entries) shorter than
 * {@link JUMP_ALONE}, built in one `JSON.parse`, at the index of their pair (`values[k]` for the pair
 * at `spans[2k]`; the long ones' entries are empty); `undefined` when one of them is not JSON.
 */
function parseShort(text: string, spans: Int32Array, length: number): unknown[] | undefined {
  const parts: string[] = [];
  for (let k = 0; k < length; k += 2) {
    const from = spans[k] as number;
    const to = spans[k + 1] as number;
    if (to - from < JUMP_ALONE) parts.push(text.slice(from, to));
  }
  if (parts.length === 0) return NO_VALUES;
  let batch: unknown[];
  try {
    batch = JSON.parse(`[${parts.join(',')}]`) as unknown[];
  } catch {
    return undefined;
  }
  if (batch.length === length >> 1) return batch;
  const values: unknown[] = [];
  for (let k = 0, b = 0; k < length; k += 2) values.push((spans[k + 1] as number) - (spans[k] as number) < JUMP_ALONE ? batch[b++] : undefined);
  return values;
}

const NO_VALUES: unknown[] = [];

/** `JSON.parse(text.slice(from, to))`, or `undefined` when it throws (no JSON text parses to `undefined`). */
function parseOrUndefined(text: string, from: number, to: number): unknown {
  try {
    return JSON.parse(text.slice(from, to)) as unknown;
  } catch {
    return undefined;
  }
}

/** End of the JSON string at `i` (a `"`), or `-1 - at` with `at` the offending offset. */
function skipString(text: string, i: number): number {
  const len = text.length;
  let j = i + 1;
  while (j < len) {
    const c = text.charCodeAt(j);
    if (c === 0x22) return j + 1;
    if (c < 0x20) return -1 - j;
    if (c !== 0x5c) {
      j++;
      continue;
    }
    if (j + 1 >= len) return -1 - len;
    const e = text.charCodeAt(j + 1);
    if (e === 0x75) {
      for (let k = j + 2; k < j + 6; k++) {
        if (k >= len) return -1 - len;
        if (!isHex(text.charCodeAt(k))) return -1 - k;
      }
      j += 6;
    } else if (e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) {
      j += 2;
    } else {
      return -1 - (j + 1);
    }
  }
  return -1 - len;
}

/** End of the JSON number at `i`, or `-1 - at` with `at` the offending offset. */
function skipNumber(text: string, i: number): number {
  let j = i;
  if (text.charCodeAt(j) === 0x2d) j++;
  const c = text.charCodeAt(j);
  if (c === 0x30) j++;
  else if (c >= 0x31 && c <= 0x39) j = skipDigits(text, j + 1);
  else return -1 - Math.min(j, text.length);
  if (text.charCodeAt(j) === 0x2e) {
    if (!isDigit(text.charCodeAt(j + 1))) return -1 - Math.min(j + 1, text.length);
    j = skipDigits(text, j + 2);
  }
  const e = text.charCodeAt(j);
  if (e === 0x65 || e === 0x45) {
    j++;
    const s = text.charCodeAt(j);
    if (s === 0x2b || s === 0x2d) j++;
    if (!isDigit(text.charCodeAt(j))) return -1 - Math.min(j, text.length);
    j = skipDigits(text, j + 1);
  }
  return j;
}

/** End of `true`, `false` or `null` at `i` (first character `c`), or `-1 - at`. */
function skipLiteral(text: string, i: number, c: number): number {
  const word = c === 0x74 ? 'true' : c === 0x66 ? 'false' : c === 0x6e ? 'null' : '';
  if (word === '') return -1 - i;
  for (let k = 1; k < word.length; k++) {
    if (text.charCodeAt(i + k) !== word.charCodeAt(k)) return -1 - Math.min(i + k, text.length);
  }
  return i + word.length;
}

function skipDigits(text: string, j: number): number {
  while (isDigit(text.charCodeAt(j))) j++;
  return j;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}
