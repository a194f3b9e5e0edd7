import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonEvents, readJsonDocuments, STRAY_LINES_KEPT, type JsonDocuments } from './jsonl.ts';

const pretty = JSON.stringify({ session_id: 's', response: '{"position":"A"}' }, null, 2);

describe('readJsonDocuments', () => {
  it('reads a pretty-printed document past a stray line before it (gemini-cli#5287), the line kept as evidence', () => {
    const docs = readJsonDocuments(`Loaded cached credentials.\n${pretty}\n`);
    expect(docs.framing).toBe('whole');
    expect(docs.documents).toEqual([{ value: JSON.parse(pretty), line: 1, offset: 'Loaded cached credentials.\n'.length }]);
    expect(docs.invalid.map((l) => l.text)).toEqual(['Loaded cached credentials.']);
    expect(docs.notes.join(' ')).toContain('"Loaded cached credentials."');
    expect(docs.truncated).toBe(false);
  });

  it('reads past stray lines after the document and stray lines that start with "["', () => {
    const docs = readJsonDocuments(`[dotenv@17] injecting env (0)\n${pretty}\nbye\n`);
    expect(docs.framing).toBe('whole');
    expect(docs.documents[0]?.value).toEqual(JSON.parse(pretty));
    expect(docs.invalid.map((l) => l.text)).toEqual(['[dotenv@17] injecting env (0)', 'bye']);
  });

  it('keeps a JSONL stream with a stray line as lines, never as one document', () => {
    const docs = readJsonDocuments('warming up\n{"type":"a"}\n{"type":"b"}\n');
    expect(docs.framing).toBe('lines');
    expect(docs.documents.map((d) => d.line)).toEqual([1, 2]);
    expect(docs.notes.join(' ')).toContain('"warming up"');
  });

  it('flags a cut last line and a document that never closes as truncated', () => {
    expect(readJsonDocuments('{"type":"a"}\n{"type":"result","res').truncated).toBe(true);
    expect(readJsonDocuments('{\n  "response": "{\\"a\\":1}",\n  "stats": {').truncated).toBe(true);
    expect(readJsonDocuments('{"type":"a"}\nplain prose at the end\n').truncated).toBe(false);
    expect(readJsonDocuments('{"type":"a"}\n').truncated).toBe(false);
  });
});

describe('readJsonDocuments on large free text (issue 24)', () => {
  it('counts every non-JSON line but keeps only the first few, and still finds the documents and a cut last line', () => {
    const prose = Array.from({ length: 50_000 }, (_, k) => `2026-12-02T10:00:${String(k % 60).padStart(2, '0')}Z INFO step ${k} {"n":${k}} done`);
    const docs = readJsonDocuments(`${prose.join('\n')}\n{"position":"A","final":true}\n-12.5e3\nnull\n{"type":"result","res`);
    expect(docs.framing).toBe('lines');
    expect(docs.invalidCount).toBe(50_001);
    expect(docs.invalid).toHaveLength(STRAY_LINES_KEPT);
    expect(docs.invalid[0]).toEqual({ line: 0, offset: 0, text: prose[0] });
    expect(docs.documents.map((d) => d.value)).toEqual([{ position: 'A', final: true }, -12500, null]);
    expect(docs.truncated).toBe(true);
    expect(docs.notes).toContain(`50001 line(s) of stdout are not JSON, first ${JSON.stringify(prose[0])}`);
  });

  it('reads a document among stray lines the same way when thousands of them surround it', () => {
    const before = Array.from({ length: 3_000 }, (_, k) => `Loaded cached credentials (${k}).`);
    const docs = readJsonDocuments(`${before.join('\r\n')}\r\n${JSON.stringify({ a: [1, 2] }, null, 2)}\r\nbye\r\n`);
    expect(docs.framing).toBe('whole');
    expect(docs.documents[0]).toEqual({ value: { a: [1, 2] }, line: 3_000, offset: before.join('\r\n').length + 2 });
    expect(docs.invalidCount).toBe(3_001);
    expect(docs.invalid.map((l) => l.text)).toEqual(before.slice(0, STRAY_LINES_KEPT));
  });

  it('reads any mix of lines as the reader that listed every line did (differential, same documents, notes, truncation and first stray lines)', () => {
    const line = fc.oneof(
      fc.constantFrom('', ' ', '\r', '{', '}', ']', '[', '  "a": 1,', '  "b": [1, 2]', '{"type":"a"}', ' [1, {"x": 2}] ', '{"type":"result","res', '[INFO] ready', '[dotenv@17] injecting env (0)'),
      fc.constantFrom('12', ' -0.5e+3 ', '01', '-', '1.', '1 2', '2026-12-02 INFO x', 'true', ' null ', 'nul', 'nulls', 'true\t', 'note: x', 'false positive', '"quoted"', '"open'),
      fc.constantFrom('\u00a0{}', '\ufeff{}', '\u2028', '\v', '\t[1]', '\u3000 ', ' \u00a0', 'x}', '\u00a0]', '\t{"a":1}'),
      fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
      fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v, null, 1) ?? 'null'),
      fc.string({ maxLength: 12 }),
    );
    // A pretty-printed document with stray lines around it, the case the line-free search must find.
    const surrounded = fc
      .tuple(fc.array(line, { maxLength: 3 }), fc.jsonValue({ maxDepth: 2 }), fc.array(line, { maxLength: 3 }))
      .map(([before, value, after]) => [...before, JSON.stringify(typeof value === 'object' && value !== null ? value : [value], null, 2), ...after]);
    fc.assert(
      fc.property(fc.oneof(fc.array(line, { maxLength: 14 }), surrounded), fc.constantFrom('\n', '\r\n'), fc.boolean(), fc.boolean(), (lines, eol, bom, trailing) => {
        const stdout = `${bom ? '\ufeff' : ''}${lines.join(eol)}${trailing ? eol : ''}`;
        const want = listingReader(stdout);
        expect(readJsonDocuments(stdout)).toEqual({ ...want, invalid: want.invalid.slice(0, STRAY_LINES_KEPT), invalidCount: want.invalid.length });
      }),
      { numRuns: 2_000 },
    );
  });
});

/**
 * The reader before issue 24 (commit 75316a4), which listed every line of stdout and kept every
 * non-JSON one: the reference the bounded reader must read the same as.
 */
function listingReader(stdout: string): Omit<JsonDocuments, 'invalidCount'> {
  type Line = { line: number; offset: number; text: string };
  const tryParse = (t: string): { ok: true; value: unknown } | { ok: false } => {
    try {
      return { ok: true, value: JSON.parse(t) };
    } catch {
      return { ok: false };
    }
  };
  const quote = (t0: string): string => {
    const t = t0.trim();
    return JSON.stringify(t.length > 120 ? `${t.slice(0, 120)}...` : t);
  };
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
    return { framing: 'whole', documents: [{ value: whole.value, line: 0, offset: base + (text.length - text.trimStart().length) }], invalid: [], truncated: false, notes };
  }
  const lines: Line[] = [];
  for (let start = 0, n = 0; start <= text.length; n += 1) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    lines.push({ line: n, offset: base + start, text: text.slice(start, end).replace(/\r$/, '') });
    if (end === text.length) break;
    start = end + 1;
  }
  let lastIdx = -1;
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    if (/[}\]]\s*$/.test(lines[i]!.text)) {
      lastIdx = i;
      break;
    }
  }
  let tries = 0;
  for (let first = 0; lastIdx > 0 && first < lastIdx && tries < 4; first += 1) {
    if (!/^\s*[{[]/.test(lines[first]!.text)) continue;
    tries += 1;
    const outside = lines.filter((l, i) => (i < first || i > lastIdx) && l.text.trim() !== '');
    if (outside.length === 0 || outside.some((l) => tryParse(l.text).ok)) continue;
    const end = lines[lastIdx]!;
    const parsed = tryParse(text.slice(lines[first]!.offset - base, end.offset - base + end.text.length));
    if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) continue;
    const head = lines[first]!;
    notes.push(`${outside.length} stray non-JSON line(s) of stdout around the JSON document, first ${quote(outside[0]!.text)}; the document was read past them`);
    return { framing: 'whole', documents: [{ value: parsed.value, line: head.line, offset: head.offset + (head.text.length - head.text.trimStart().length) }], invalid: outside, truncated: false, notes };
  }
  const documents: JsonDocuments['documents'] = [];
  const invalid: Line[] = [];
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

describe('jsonEvents', () => {
  it('flattens one JSON array of every event (claude --verbose, qwen json) with array pointers', () => {
    const events = jsonEvents(readJsonDocuments('[{"type":"system"},3,{"type":"result"}]'));
    expect(events.map((e) => [e.base, e.value.type, e.index, e.event])).toEqual([
      ['/0', 'system', 0, {}],
      ['/2', 'result', 1, {}],
    ]);
  });

  it('gives JSONL lines their line as the event', () => {
    const events = jsonEvents(readJsonDocuments('{"type":"a"}\n\n{"type":"b"}\n'));
    expect(events.map((e) => [e.base, e.event])).toEqual([
      ['', { event: 0 }],
      ['', { event: 2 }],
    ]);
  });
});
