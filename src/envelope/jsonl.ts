/**
 * Reading stdout as JSON documents: one whole document (Claude `json`, Gemini pretty JSON, Qwen's
 * array) or JSONL/NDJSON events, one per line (Claude `stream-json`, Codex `--json`, ...).
 * Tolerates a BOM, CRLF, blank lines, prose lines between events, and a truncated last line
 * (Claude Code issue #77112: 64 KiB pipe truncation), each reported as a note.
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
  notes: string[];
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
  if (text.trim() === '') return { framing: 'empty', documents: [], invalid: [], notes };
  const whole = tryParse(text);
  if (whole.ok && typeof whole.value === 'object' && whole.value !== null) {
    const offset = base + (text.length - text.trimStart().length);
    return { framing: 'whole', documents: [{ value: whole.value, line: 0, offset }], invalid: [], notes };
  }
  const documents: JsonDocument[] = [];
  const invalid: JsonDocuments['invalid'] = [];
  let start = 0;
  let line = 0;
  let lastNonEmpty = -1;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const raw = text.slice(start, end).replace(/\r$/, '');
    if (raw.trim() !== '') {
      lastNonEmpty = line;
      const parsed = tryParse(raw);
      if (parsed.ok) documents.push({ value: parsed.value, line, offset: base + start });
      else invalid.push({ line, offset: base + start, text: raw });
    }
    line += 1;
    if (end === text.length) break;
    start = end + 1;
  }
  const last = invalid[invalid.length - 1];
  if (last && last.line === lastNonEmpty && last.text.trimStart().startsWith('{')) {
    notes.push(`last line (line ${last.line + 1}) is not complete JSON: output may have been truncated`);
  }
  if (invalid.length > 0) notes.push(`${invalid.length} line(s) of stdout are not JSON`);
  return { framing: 'lines', documents, invalid, notes };
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
