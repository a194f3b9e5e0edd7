/**
 * The baseline the scanner is measured against: the raw_decode loop, the usual way of pulling JSON
 * out of model output in Python:
 *
 * ```python
 * decoder, pos = json.JSONDecoder(), 0
 * while (i := next index of "{" or "[" at or after pos) is not None:
 *     try: value, end = decoder.raw_decode(text, i); hits.append(value); pos = end
 *     except ValueError: pos = i + 1
 * ```
 *
 * `rawDecode` follows CPython's pure-Python scanner (Lib/json/scanner.py `py_make_scanner`,
 * Lib/json/decoder.py `JSONObject`, `JSONArray`, `py_scanstring` with its `STRINGCHUNK` regex,
 * `NUMBER_RE`): it builds the value as it reads and stops at the first error. Two deliberate
 * differences, so both sides answer the same question: it accepts strict JSON only (no `NaN` /
 * `Infinity`), and it keeps containers on an explicit stack where CPython recurses (which raises
 * `RecursionError` past about 1,000 levels). Each attempt reads until its value ends or fails,
 * so text is read again by every opener whose attempt overlaps it: quadratic when many openers
 * stay open over a long stretch (deep values cut off).
 */

/** One value found by {@link naiveScan}: UTF-16 offsets, end exclusive. */
export interface NaiveHit {
  start: number;
  end: number;
  value: unknown;
}

// eslint-disable-next-line no-control-regex -- JSON strings end at a control character (RFC 8259)
const STRING_CHUNK = /[^"\\\x00-\x1f]*/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?/y;
const BLANKS = /[ \t\n\r]*/y;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** Every value the raw_decode loop finds in `text`, in order. */
export function naiveScan(text: string): NaiveHit[] {
  const hits: NaiveHit[] = [];
  let pos = 0;
  for (;;) {
    const brace = text.indexOf('{', pos);
    const bracket = text.indexOf('[', pos);
    const i = brace < 0 ? bracket : bracket < 0 ? brace : Math.min(brace, bracket);
    if (i < 0) return hits;
    const decoded = rawDecode(text, i);
    if (decoded === undefined) {
      pos = i + 1;
    } else {
      hits.push({ start: i, end: decoded.end, value: decoded.value });
      pos = decoded.end;
    }
  }
}

interface Container {
  value: Record<string, unknown> | unknown[];
  key: string;
}

/** The JSON value starting exactly at `idx` and where it ends, or `undefined` on a decode error. */
export function rawDecode(text: string, idx: number): { value: unknown; end: number } | undefined {
  const stack: Container[] = [];
  let i = idx;
  for (;;) {
    // Read one value at i: either a scalar, or an opener that pushes a container.
    let value: unknown;
    const c = text[i];
    if (c === '"') {
      const s = scanString(text, i + 1);
      if (s === undefined) return undefined;
      value = s.value;
      i = s.end;
    } else if (c === '{' || c === '[') {
      i = skipBlanks(text, i + 1);
      const empty = text[i] === (c === '{' ? '}' : ']');
      if (empty) {
        value = c === '{' ? {} : [];
        i++;
      } else if (c === '[') {
        stack.push({ value: [], key: '' });
        continue;
      } else {
        const key = scanKey(text, i);
        if (key === undefined) return undefined;
        stack.push({ value: {}, key: key.value });
        i = key.end;
        continue;
      }
    } else if (c === 't' && text.startsWith('true', i)) {
      value = true;
      i += 4;
    } else if (c === 'f' && text.startsWith('false', i)) {
      value = false;
      i += 5;
    } else if (c === 'n' && text.startsWith('null', i)) {
      value = null;
      i += 4;
    } else {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (m === null) return undefined;
      value = Number(m[0]);
      i += m[0].length;
    }
    // Store it in its container, closing containers as long as they end here.
    for (;;) {
      const top = stack[stack.length - 1];
      if (top === undefined) return { value, end: i };
      if (Array.isArray(top.value)) top.value.push(value);
      else top.value[top.key] = value;
      i = skipBlanks(text, i);
      const next = text[i];
      if (next === ',') {
        i = skipBlanks(text, i + 1);
        if (!Array.isArray(top.value)) {
          const key = scanKey(text, i);
          if (key === undefined) return undefined;
          top.key = key.value;
          i = key.end;
        }
        break;
      }
      if (next !== (Array.isArray(top.value) ? ']' : '}')) return undefined;
      stack.pop();
      value = top.value;
      i++;
    }
  }
}

/** `"key"` then `:` at `i` (blanks allowed around the colon); the end is at the member's value. */
function scanKey(text: string, i: number): { value: string; end: number } | undefined {
  if (text[i] !== '"') return undefined;
  const s = scanString(text, i + 1);
  if (s === undefined) return undefined;
  let j = skipBlanks(text, s.end);
  if (text[j] !== ':') return undefined;
  j = skipBlanks(text, j + 1);
  return { value: s.value, end: j };
}

/** CPython's `py_scanstring`: the string whose body starts at `i`, up to its closing quote. */
function scanString(text: string, i: number): { value: string; end: number } | undefined {
  let out = '';
  let j = i;
  for (;;) {
    STRING_CHUNK.lastIndex = j;
    const chunk = (STRING_CHUNK.exec(text) as RegExpExecArray)[0];
    out += chunk;
    j += chunk.length;
    const term = text[j];
    if (term === '"') return { value: out, end: j + 1 };
    if (term !== '\\') return undefined;
    const esc = text[j + 1];
    if (esc === 'u') {
      const hex = text.slice(j + 2, j + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) return undefined;
      out += String.fromCharCode(parseInt(hex, 16));
      j += 6;
    } else {
      const ch = esc === undefined ? undefined : ESCAPES[esc];
      if (ch === undefined) return undefined;
      out += ch;
      j += 2;
    }
  }
}

function skipBlanks(text: string, i: number): number {
  BLANKS.lastIndex = i;
  BLANKS.exec(text);
  return BLANKS.lastIndex;
}
