/**
 * Duplicate member names in a case file's own JSON (issue 23). `JSON.parse` keeps the last of two
 * members with one name without a word, so a case with `"expect"` twice is judged on the second
 * while a reviewer may read the first. Strings are skipped whole, so an envelope held as a string
 * (stdout text: the CLI's business) is never looked into.
 */

/** The first duplicated member name of a JSON text: the object's JSON Pointer, the key, and where. */
export interface DuplicateKey {
  /** JSON Pointer (RFC 6901) of the object holding the key twice; `""` is the root. */
  pointer: string;
  key: string;
  /** 1-based line and column of the second occurrence's opening quote. */
  line: number;
  column: number;
}

/** One open `{` or `[`: its member names so far (objects) or its element index (arrays), and its segment in its parent. */
interface Frame {
  keys: Set<string> | null;
  index: number;
  /** The last member name read (objects): the segment of a value opened under it. */
  last: string;
  segment: string;
}

const escapePointer = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The first member name that appears twice in one object of `text`, or null. For text that
 * `JSON.parse` accepts (call it after the parse: on other text the answer means nothing). One
 * forward pass: strings are skipped with `indexOf('"')` (a quote after an odd number of
 * backslashes is escaped), member names kept per open object; the line is counted only for the
 * answer. Linear in the text's length, cheap for case files of hundreds of MiB; never throws.
 */
export function firstDuplicateKey(text: string): DuplicateKey | null {
  const stack: Frame[] = [];
  const len = text.length;
  let i = 0;
  while (i < len) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: find its closing quote.
      let end = text.indexOf('"', i + 1);
      while (end !== -1) {
        let slashes = 0;
        let k = end - 1;
        while (text.charCodeAt(k) === 0x5c) {
          slashes += 1;
          k -= 1;
        }
        if (slashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      if (end === -1) return null;
      const top = stack[stack.length - 1];
      let j = end + 1;
      if (top?.keys) {
        while (j < len && isBlank(text.charCodeAt(j))) j += 1;
        if (text.charCodeAt(j) === 0x3a) {
          const raw = text.slice(i + 1, end);
          let key = raw;
          if (raw.includes('\\')) {
            try {
              key = JSON.parse(`"${raw}"`) as string;
            } catch {
              key = raw;
            }
          }
          if (top.keys.has(key)) return located(text, i, stack, key);
          top.keys.add(key);
          top.last = key;
        }
      }
      i = j;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      const parent = stack[stack.length - 1];
      const segment = parent === undefined ? '' : parent.keys ? parent.last : String(parent.index);
      stack.push({ keys: c === 0x7b ? new Set() : null, index: 0, last: '', segment });
    } else if (c === 0x7d || c === 0x5d) {
      stack.pop();
    } else if (c === 0x2c) {
      const top = stack[stack.length - 1];
      if (top && !top.keys) top.index += 1;
    }
    i += 1;
  }
  return null;
}

function located(text: string, at: number, stack: Frame[], key: string): DuplicateKey {
  const pointer = stack
    .slice(1)
    .map((f) => `/${escapePointer(f.segment)}`)
    .join('');
  let line = 1;
  let lineStart = 0;
  for (let n = text.indexOf('\n'); n !== -1 && n < at; n = text.indexOf('\n', n + 1)) {
    line += 1;
    lineStart = n + 1;
  }
  return { pointer, key, line, column: at - lineStart + 1 };
}

function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}
