/**
 * Reading stdout as JSON documents: one whole document (Claude `json`, Gemini pretty JSON, Qwen's
 * array, Claude `json --verbose`'s array) or JSONL/NDJSON events, one per line (Claude
 * `stream-json`, Codex `--json`, ...). Tolerates a BOM, CRLF, blank lines, prose lines between
 * events, stray non-JSON lines before or after a whole (pretty-printed) document (Gemini CLI's
 * `Loaded cached credentials.`, gemini-cli#5287), and a truncated last line (Claude Code issue
 * #77112: 64 KiB pipe truncation), each reported as a note; a truncated stdout is flagged in
 * {@link JsonDocuments.truncated} so a decoder never accepts it.
 */

/** One JSON document read off stdout: `line` is 0-based, `offset` its start in stdout. */
export interface JsonDocument {
  value: unknown;
  line: number;
  offset: number;
}

/** A line of stdout that was not JSON: its 0-based number, its offset in stdout, its text (no line end). */
export interface StrayLine {
  line: number;
  offset: number;
  text: string;
}

/** The documents of stdout, plus the lines that were not JSON. */
export interface JsonDocuments {
  /** `whole`: stdout was one JSON document; `lines`: one document per line. */
  framing: 'whole' | 'lines' | 'empty';
  documents: JsonDocument[];
  /**
   * The first lines that were not JSON (prose, a truncated last event), with their offsets: at most
   * {@link STRAY_LINES_KEPT}, so a 100 MB log costs a few records, not one per line (issue 24);
   * {@link JsonDocuments.invalidCount} counts them all.
   */
  invalid: StrayLine[];
  /** How many non-empty lines were not JSON. */
  invalidCount: number;
  /**
   * True when stdout ends inside a JSON document: the last non-empty line starts like JSON but does
   * not parse (a cut last event), or stdout starts a JSON document that never closes. A stream cut
   * like this is incomplete whatever it holds (issue 11: an incomplete stream is never accepted).
   */
  truncated: boolean;
  notes: string[];
}

/** How many non-JSON lines {@link JsonDocuments.invalid} keeps (the first ones). */
export const STRAY_LINES_KEPT = 8;

/**
 * The framing of `docs` as {@link Decoded.framing} names it: `object`, `array`, `lines` or `empty`.
 */
export function framingOf(docs: JsonDocuments): 'object' | 'array' | 'lines' | 'empty' {
  if (docs.framing === 'whole') return Array.isArray(docs.documents[0]?.value) ? 'array' : 'object';
  return docs.framing;
}

/**
 * One JSON object event of stdout: a JSONL line, or one element of a whole-document JSON array
 * (Qwen Code `json`, Claude Code `json --verbose`), or the whole document itself.
 * - `base`: JSON Pointer of the event inside its document (`/3` for an array element, `""` else);
 * - `line`: its stdout line (0-based; the document's first line for an array element);
 * - `index`: its place among all events (0-based);
 * - `event`: `{ event: line }` when stdout is one document per line, else `{}` (spread into a candidate).
 */
export interface JsonEvent {
  value: Record<string, unknown>;
  base: string;
  line: number;
  offset: number;
  index: number;
  event: { event?: number };
}

/**
 * Every JSON object event of `docs`, in order: each JSONL line holding an object, and each object
 * element of a document that is an array (one array of every event). Scalars and nested arrays are skipped.
 *
 * @example
 * jsonEvents(readJsonDocuments('[{"type":"system"},{"type":"result"}]')).map((e) => e.base) // ['/0', '/1']
 */
export function jsonEvents(docs: JsonDocuments): JsonEvent[] {
  const events: JsonEvent[] = [];
  for (const doc of docs.documents) {
    const event = docs.framing === 'lines' ? { event: doc.line } : {};
    if (Array.isArray(doc.value)) {
      doc.value.forEach((element, i) => {
        if (isObject(element)) events.push({ value: element, base: `/${i}`, line: doc.line, offset: doc.offset, index: events.length, event });
      });
    } else if (isObject(doc.value)) {
      events.push({ value: doc.value, base: '', line: doc.line, offset: doc.offset, index: events.length, event });
    }
  }
  return events;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The longest stray line quoted in a note, in UTF-16 code units. */
const STRAY_QUOTE_MAX = 120;

function quote(text: string): string {
  const t = text.trim();
  return JSON.stringify(t.length > STRAY_QUOTE_MAX ? `${t.slice(0, STRAY_QUOTE_MAX)}...` : t);
}

/**
 * Split stdout into JSON documents. Never throws.
 *
 * Memory (issue 24): the lines are walked one at a time, never listed; what is kept besides the
 * documents is bounded ({@link STRAY_LINES_KEPT} non-JSON lines, their count, the last one), so
 * free text of a million lines costs its documents, not a record per line.
 *
 * @example
 * readJsonDocuments('{"type":"a"}\n{"type":"b"}\n').documents.length // 2
 */
export function readJsonDocuments(stdout: string): JsonDocuments {
  const notes: string[] = [];
  let text = stdout;
  let base = 0;
  if (text.charCodeAt(0) === 0xfeff) {
    text = text.slice(1);
    base = 1;
    notes.push('stdout starts with a byte order mark; ignored');
  }
  if (text.trim() === '') return { framing: 'empty', documents: [], invalid: [], invalidCount: 0, truncated: false, notes };
  const whole = tryParse(text);
  if (whole.ok && typeof whole.value === 'object' && whole.value !== null) {
    const offset = base + (text.length - text.trimStart().length);
    return { framing: 'whole', documents: [{ value: whole.value, line: 0, offset }], invalid: [], invalidCount: 0, truncated: false, notes };
  }
  const surrounded = wholeAmongStrayLines(text, base);
  if (surrounded) {
    notes.push(
      `${surrounded.stray.count} stray non-JSON line(s) of stdout around the JSON document, first ${quote(surrounded.stray.kept[0]!.text)}; the document was read past them`,
    );
    return { framing: 'whole', documents: [surrounded.document], invalid: surrounded.stray.kept, invalidCount: surrounded.stray.count, truncated: false, notes };
  }
  const documents: JsonDocument[] = [];
  const stray = new StrayLines(text, base);
  let lastNonEmpty = -1;
  eachLine(text, (start, end, line) => {
    if (isBlankLine(text, start, end)) return;
    lastNonEmpty = line;
    const parsed = parseLine(text, start, end);
    if (parsed !== NOT_JSON) documents.push({ value: parsed, line, offset: base + start });
    else stray.add(start, end, line);
  });
  let truncated = false;
  const last = stray.last();
  if (last && last.line === lastNonEmpty && /^[{[]/.test(last.text.trimStart())) {
    truncated = true;
    notes.push(`last line (line ${last.line + 1}) is not complete JSON: output may have been truncated`);
  } else if (documents.length === 0 && /^[{[]/.test(text.trimStart())) {
    truncated = true;
    notes.push('stdout starts a JSON document that never completes: output may have been truncated');
  }
  if (stray.count > 0) notes.push(`${stray.count} line(s) of stdout are not JSON, first ${quote(stray.kept[0]!.text)}`);
  return { framing: 'lines', documents, invalid: stray.kept, invalidCount: stray.count, truncated, notes };
}

/**
 * The non-JSON lines of `text` met so far, bounded: the first {@link STRAY_LINES_KEPT} (as
 * {@link StrayLine}s), the place of the last one, and the count. A line is only made into a
 * string when it is kept.
 */
class StrayLines {
  readonly kept: StrayLine[] = [];
  count = 0;
  private lastLine = -1;
  private lastStart = 0;
  private lastEnd = 0;

  constructor(
    private readonly text: string,
    private readonly base: number,
  ) {}

  add(start: number, end: number, line: number): void {
    this.count += 1;
    this.lastLine = line;
    this.lastStart = start;
    this.lastEnd = end;
    if (this.kept.length < STRAY_LINES_KEPT) this.kept.push({ line, offset: this.base + start, text: this.text.slice(start, end) });
  }

  /** The last non-JSON line, or `undefined` when there was none. */
  last(): StrayLine | undefined {
    return this.lastLine < 0 ? undefined : { line: this.lastLine, offset: this.base + this.lastStart, text: this.text.slice(this.lastStart, this.lastEnd) };
  }
}

/**
 * Calls `visit` with each line of `text` from offset `from` (a line start, line number `line`) to
 * the end: where it starts and ends in `text` (its end before the line end: the LF, or the CR of a
 * CRLF) and its 0-based number. A text ending in LF has a last, empty line. The walk stops when
 * `visit` returns `false`. No line is made into a string here: a visitor slices what it keeps.
 */
function eachLine(text: string, visit: (start: number, end: number, line: number) => boolean | void, from = 0, line = 0): void {
  let start = from;
  for (let n = line; ; n += 1) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const cut = end > start && text.charCodeAt(end - 1) === 0x0d ? end - 1 : end;
    if (visit(start, cut, n) === false || end === text.length) return;
    start = end + 1;
  }
}

/** Whether `c` is a printable ASCII character other than space: never white space to `trim` or `\s`. */
function isVisibleAscii(c: number): boolean {
  return c > 0x20 && c < 0x7f;
}

/** `text.slice(start, end).trim() === ''`, without the slice when the line starts with a visible character. */
function isBlankLine(text: string, start: number, end: number): boolean {
  if (start < end && isVisibleAscii(text.charCodeAt(start))) return false;
  return text.slice(start, end).trim() === '';
}

/** `/^\s*[{[]/.test(text.slice(start, end))`: the line opens a JSON object or array. */
function opensDocument(text: string, start: number, end: number): boolean {
  if (start < end && isVisibleAscii(text.charCodeAt(start))) {
    const c = text.charCodeAt(start);
    return c === 0x7b || c === 0x5b;
  }
  return /^\s*[{[]/.test(text.slice(start, end));
}

/** How many line ends (LF) `text` has before offset `to`: the 0-based number of the line that starts at `to`. */
function lineNumberAt(text: string, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n += 1;
  return n;
}

/**
 * A whole multi-line JSON document (object or array) with stray non-JSON lines before and/or after
 * it: the block from the first line that starts with `{`/`[` to the last that ends with `}`/`]`
 * parses as one document, and every other non-empty line is not JSON. `null` otherwise (JSONL
 * streams never parse as one block, so they are read line by line). The stray lines are kept as
 * {@link StrayLines} (bounded), read again for each opening line tried, never listed.
 */
function wholeAmongStrayLines(text: string, base: number): { document: JsonDocument; stray: StrayLines } | null {
  // The last line that ends with `}` or `]`, searched from the end.
  let lastStart = -1;
  let lastEnd = -1;
  for (let end = text.length; ; ) {
    const newline = end === 0 ? -1 : text.lastIndexOf('\n', end - 1);
    const start = newline + 1;
    const cut = end > start && text.charCodeAt(end - 1) === 0x0d ? end - 1 : end;
    if (/[}\]]\s*$/.test(text.slice(start, cut))) {
      lastStart = start;
      lastEnd = cut;
      break;
    }
    if (newline === -1) break;
    end = newline;
  }
  // None, or it is the first line: no block with a line outside it.
  if (lastStart <= 0) return null;
  const afterLast = text.indexOf('\n', lastEnd);
  let lastLine: number | undefined;
  // A stray line may itself start with `[` (`[dotenv] ...`): try the first few opening lines.
  let tries = 0;
  let found: { document: JsonDocument; stray: StrayLines } | null = null;
  eachLine(text, (headStart, headEnd, first) => {
    if (headStart >= lastStart) return false;
    if (!opensDocument(text, headStart, headEnd)) return true;
    tries += 1;
    const stray = new StrayLines(text, base);
    let json = false;
    const outside = (start: number, end: number, line: number): boolean => {
      if (isBlankLine(text, start, end)) return true;
      if (parseLine(text, start, end) !== NOT_JSON) {
        json = true;
        return false;
      }
      stray.add(start, end, line);
      return true;
    };
    eachLine(text, (start, end, line) => line < first && outside(start, end, line));
    if (!json && afterLast !== -1) {
      lastLine ??= lineNumberAt(text, lastStart);
      eachLine(text, outside, afterLast + 1, lastLine + 1);
    }
    if (!json && stray.count > 0) {
      // The block as it stands in stdout (a slice, no copy of a large stdout; a CR before a line end
      // is JSON whitespace, as the LF joining the lines is, so it parses to the same value).
      const parsed = tryParse(text.slice(headStart, lastEnd));
      if (parsed.ok && typeof parsed.value === 'object' && parsed.value !== null) {
        const head = text.slice(headStart, headEnd);
        found = { document: { value: parsed.value, line: first, offset: base + headStart + (head.length - head.trimStart().length) }, stray };
        return false;
      }
    }
    return tries < MAX_WHOLE_TRIES;
  });
  return found;
}

/** How many opening lines {@link wholeAmongStrayLines} tries as the start of the document. */
const MAX_WHOLE_TRIES = 4;

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** What {@link parseLine} returns for a line that is not JSON. */
const NOT_JSON: unique symbol = Symbol('not JSON');

/** A JSON number at `lastIndex` (sticky): the only JSON text that starts with `-` or a digit. */
const NUMBER_AT = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

function isJsonBlank(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/** Whether `text` from `i` to `end` holds only JSON blanks. */
function blanksTo(text: string, i: number, end: number): boolean {
  while (i < end && isJsonBlank(text.charCodeAt(i))) i++;
  return i === end;
}

/**
 * `JSON.parse` of the line `text.slice(start, end)`, or {@link NOT_JSON} where it would throw. A
 * line whose first character after JSON blanks cannot start a JSON text (none of
 * `{ [ " - 0-9 t f n`), or that starts like a number or a literal but is not one (a timestamp,
 * `2026-12-02 INFO ...`; `note: ...`), is refused without calling `JSON.parse` and without being
 * sliced: free text of a million lines costs no string and no thrown error per line.
 */
function parseLine(text: string, start: number, end: number): unknown {
  let i = start;
  while (i < end && isJsonBlank(text.charCodeAt(i))) i++;
  if (i === end) return NOT_JSON;
  const c = text.charCodeAt(i);
  if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
    NUMBER_AT.lastIndex = i;
    if (!NUMBER_AT.test(text) || NUMBER_AT.lastIndex > end || !blanksTo(text, NUMBER_AT.lastIndex, end)) return NOT_JSON;
  } else if (c === 0x74 || c === 0x66 || c === 0x6e) {
    const word = c === 0x74 ? 'true' : c === 0x66 ? 'false' : 'null';
    if (i + word.length > end || !text.startsWith(word, i) || !blanksTo(text, i + word.length, end)) return NOT_JSON;
  } else if (c !== 0x7b && c !== 0x5b && c !== 0x22) {
    return NOT_JSON;
  }
  try {
    return JSON.parse(text.slice(start, end)) as unknown;
  } catch {
    return NOT_JSON;
  }
}
