import { describe, expect, it } from 'vitest';
import { jsonEvents, readJsonDocuments } from './jsonl.ts';

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
