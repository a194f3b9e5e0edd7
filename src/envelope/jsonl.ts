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

/** The documents of stdout, plus the lines that were not JSON. */
export interface JsonDocuments {
  /** `whole`: stdout was one JSON document; `lines`: one document per line. */
  framing: 'whole' | 'lines' | 'empty';
  documents: JsonDocument[];
  /** Lines that were not JSON (prose, a truncated last event), with their offsets. */
  invalid: { line: number; offset: number; text: string }[];
  /**
   * True when stdout ends inside a JSON document: the last non-empty line starts like JSON but does
   * not parse (a cut last event), or stdout starts a JSON document that never closes. A stream cut
   * like this is incomplete whatever it holds (issue 11: an incomplete stream is never accepted).
   */
  truncated: boolean;
  notes: string[];
}

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
  if (text.trim() === '') return { framing: 'empty', documents: [], invalid: [], truncated: false, notes };
  const whole = tryParse(text);
  if (whole.ok && typeof whole.value === 'object' && whole.value !== null) {
    const offset = base + (text.length - text.trimStart().length);
    return { framing: 'whole', documents: [{ value: whole.value, line: 0, offset }], invalid: [], truncated: false, notes };
  }
  const lines = splitLines(text, base);
  const surrounded = wholeAmongStrayLines(lines, text, base);
  if (surrounded) {
    notes.push(
      `${surrounded.invalid.length} stray non-JSON line(s) of stdout around the JSON document, first ${quote(surrounded.invalid[0]!.text)}; the document was read past them`,
    );
    return { framing: 'whole', documents: [surrounded.document], invalid: surrounded.invalid, truncated: false, notes };
  }
  const documents: JsonDocument[] = [];
  const invalid: JsonDocuments['invalid'] = [];
  let lastNonEmpty = -1;
  for (const l of lines) {
    if (l.text.trim() === '') continue;
    lastNonEmpty = l.line;
    const parsed = tryParse(l.text);
    if (parsed.ok) documents.push({ value: parsed.value, line: l.line, offset: l.offset });
    else invalid.push(l);
  }
  let truncated = false;
  const last = invalid[invalid.length - 1];
  if (last && last.line === lastNonEmpty && /^[{[]/.test(last.text.trimStart())) {
    truncated = true;
    notes.push(`last line (line ${last.line + 1}) is not complete JSON: output may have been truncated`);
  } else if (documents.length === 0 && /^[{[]/.test(text.trimStart())) {
    truncated = true;
    notes.push('stdout starts a JSON document that never completes: output may have been truncated');
  }
  if (invalid.length > 0) notes.push(`${invalid.length} line(s) of stdout are not JSON, first ${quote(invalid[0]!.text)}`);
  return { framing: 'lines', documents, invalid, truncated, notes };
}

/** The lines of `text` (CR of CRLF removed), each with its 0-based number and stdout offset. */
function splitLines(text: string, base: number): { line: number; offset: number; text: string }[] {
  const out: { line: number; offset: number; text: string }[] = [];
  let start = 0;
  let line = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    out.push({ line, offset: base + start, text: text.slice(start, end).replace(/\r$/, '') });
    line += 1;
    if (end === text.length) break;
    start = end + 1;
  }
  return out;
}

/**
 * A whole multi-line JSON document (object or array) with stray non-JSON lines before and/or after
 * it: the block from the first line that starts with `{`/`[` to the last that ends with `}`/`]`
 * parses as one document, and every other non-empty line is not JSON. `null` otherwise (JSONL
 * streams never parse as one block, so they are read line by line).
 */
function wholeAmongStrayLines(lines: { line: number; offset: number; text: string }[], text: string, base: number): { document: JsonDocument; invalid: JsonDocuments['invalid'] } | null {
  let lastIdx = -1;
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    if (/[}\]]\s*$/.test(lines[i]!.text)) {
      lastIdx = i;
      break;
    }
  }
  if (lastIdx <= 0) return null;
  // A stray line may itself start with `[` (`[dotenv] ...`): try the first few opening lines.
  let tries = 0;
  for (let first = 0; first < lastIdx && tries < MAX_WHOLE_TRIES; first += 1) {
    if (!/^\s*[{[]/.test(lines[first]!.text)) continue;
    tries += 1;
    const outside = lines.filter((l, i) => (i < first || i > lastIdx) && l.text.trim() !== '');
    if (outside.length === 0) continue;
    if (outside.some((l) => tryParse(l.text).ok)) continue;
    // The block as it stands in stdout (a slice, no copy of a large stdout; a CR before a line end
    // is JSON whitespace, as the LF joining the lines is, so it parses to the same value).
    const end = lines[lastIdx]!;
    const parsed = tryParse(text.slice(lines[first]!.offset - base, end.offset - base + end.text.length));
    if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) continue;
    const head = lines[first]!;
    const offset = head.offset + (head.text.length - head.text.trimStart().length);
    return { document: { value: parsed.value, line: head.line, offset }, invalid: outside };
  }
  return null;
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
