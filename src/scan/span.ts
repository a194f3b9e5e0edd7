/**
 * The scanner's fast path: one string-aware bracket-matching pass from an opening `{` or `[`.
 *
 * It does not check the JSON grammar (commas, colons, escapes, numbers); `JSON.parse` does that on
 * the span it returns. Before it, {@link firstTokenStop} refuses at once the many prose brackets
 * whose first token cannot start a member or element (`[INFO]`, `{{`, `{ if`). It stops early, so
 * a failed attempt costs little, when:
 * - a character outside strings can never appear outside a JSON string (a letter outside
 *   `true`/`false`/`null`/exponents, any non-ASCII character, a control character other than the four
 *   JSON blanks);
 * - a closer does not match the innermost opener.
 * Strings are skipped with `indexOf('"')`, a quote preceded by an odd number of backslashes being
 * escaped, so braces and escaped quotes inside strings do not count.
 */

/**
 * Character classes outside strings: 0 = stop, 1 = skip, 2 = quote, 3..6 = `{` `[` `}` `]`. One
 * entry per UTF-16 code unit (64 KiB), so the loop needs no separate test for non-ASCII.
 */
const CLASS = new Uint8Array(65536);
for (const ch of ' \t\n\r,:0123456789+-.eEtrufalsn') CLASS[ch.charCodeAt(0)] = 1;
CLASS[0x22] = 2;
CLASS[0x7b] = 3;
CLASS[0x5b] = 4;
CLASS[0x7d] = 5;
CLASS[0x5d] = 6;

/** Characters that may follow `[` (after blanks): a value start or `]`. */
const ARRAY_FIRST = new Uint8Array(128);
for (const ch of '"{[]-0123456789tfn') ARRAY_FIRST[ch.charCodeAt(0)] = 1;

/**
 * Opener kinds on the stack: 0 = `{`, 1 = `[`, and their offsets. Shared between calls (the pass is
 * synchronous) and grown by doubling, so they keep the size of the deepest nesting seen: five bytes
 * per level.
 */
let stack = new Uint8Array(1024);
let offsets = new Int32Array(1024);


/**
 * The nested values a {@link balancedSpanEnd} pass saw close, for the validator that may run next
 * from the same opener (validateFrom in validate.ts): it hands each of them to `JSON.parse`
 * whole instead of reading it token by token. Owned by one scanner, filled by each pass it runs.
 *
 * - `start`: the opener the last pass started from (-1: none);
 * - `record`: which kinds to list (OBJECT_BIT / ARRAY_BIT of validate.ts, by opener kind + 1);
 * - `spans`, `length`: `[start0, end0, start1, end1, ...]`, the values of those kinds that closed
 *   at depth 1 or more and are not inside another listed one, in document order.
 */
export interface Jumps {
  start: number;
  record: number;
  spans: Int32Array;
  length: number;
}

/** Empty {@link Jumps} for the kinds in `record`. */
export function newJumps(record: number): Jumps {
  return { start: -1, record, spans: new Int32Array(64), length: 0 };
}

/**
 * Where the value opened at `start` (`text[start]` is `{` or `[`) fails on its first token, or -1
 * when that token may start a member (`"` or `}` after `{`) or an element (a value start or `]`
 * after `[`). The offset returned is the first non-blank character after the opener, or
 * `text.length`: exactly where a full JSON parse would fail, with nothing complete inside. Reads
 * only the blanks after the opener.
 */
export function firstTokenStop(text: string, start: number): number {
  const len = text.length;
  let i = start + 1;
  while (i < len && isBlank(text.charCodeAt(i))) i++;
  if (i >= len) return len;
  const first = text.charCodeAt(i);
  if (text.charCodeAt(start) === 0x7b) return first === 0x22 || first === 0x7d ? -1 : i;
  return first < 128 && ARRAY_FIRST[first] === 1 ? -1 : i;
}

/**
 * From the opener at `start` (`text[start]` is `{` or `[`), the exclusive end of its balanced
 * span, or, when there is none, `-1 - stop` where `stop` is the offset at which the pass gave up
 * (the offending character, or `text.length`). Every offset before `stop` (before the returned
 * end, on success) was examined. Linear in the length examined.
 */
export function balancedSpanEnd(text: string, start: number, jumps?: Jumps): number {
  const len = text.length;
  let depth = 0;
  let st = stack;
  let at = offsets;
  if (jumps !== undefined) {
    jumps.start = start;
    jumps.length = 0;
  }
  for (let i = start; i < len; i++) {
    // Runs of blanks, separators, digits and literals in a tight loop of their own, not one trip
    // through the switch each (issue 24: about 0.75 of the time on brace-dense documents).
    let c = text.charCodeAt(i);
    let k = CLASS[c];
    while (k === 1 && ++i < len) {
      c = text.charCodeAt(i);
      k = CLASS[c];
    }
    if (i >= len) break;
    switch (k) {
      case 2: {
        let q = text.indexOf('"', i + 1);
        for (;;) {
          if (q < 0) return -1 - len;
          let b = q - 1;
          while (text.charCodeAt(b) === 0x5c) b--;
          if (((q - 1 - b) & 1) === 0) break;
          q = text.indexOf('"', q + 1);
        }
        i = q;
        break;
      }
      case 3:
      case 4:
        if (depth === st.length) {
          const grown = new Uint8Array(st.length * 2);
          grown.set(st);
          st = stack = grown;
          const grownAt = new Int32Array(at.length * 2);
          grownAt.set(at);
          at = offsets = grownAt;
        }
        at[depth] = i;
        st[depth++] = c === 0x7b ? 0 : 1;
        break;
      case 5:
        if (st[--depth] !== 0) return -1 - i;
        if (depth === 0) return i + 1;
        if (jumps !== undefined) note(jumps, at[depth] as number, i + 1, 1);
        break;
      case 6:
        if (st[--depth] !== 1) return -1 - i;
        if (depth === 0) return i + 1;
        if (jumps !== undefined) note(jumps, at[depth] as number, i + 1, 2);
        break;
      default:
        return -1 - i;
    }
  }
  return -1 - len;
}

/** Lists the value `[from, to)` of kind bit `bit` in `jumps`, in place of the listed values inside it. */
function note(jumps: Jumps, from: number, to: number, bit: number): void {
  if ((jumps.record & bit) === 0) return;
  let n = jumps.length;
  let spans = jumps.spans;
  while (n > 0 && (spans[n - 2] as number) > from) n -= 2;
  if (n + 2 > spans.length) {
    const grown = new Int32Array(spans.length * 2);
    grown.set(spans);
    spans = jumps.spans = grown;
  }
  spans[n] = from;
  spans[n + 1] = to;
  jumps.length = n + 2;
}

function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}
