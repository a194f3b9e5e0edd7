import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { candidatesFromText, canonicalJson, commentaryMark, dedupeCandidates, looksLikeSchema, pushCandidatesFromText, withCandidateFields, writeCanonicalJson } from '#src/envelope/candidates.ts';
import { projectPath } from '#src/paths.ts';
import { caseId } from '#src/record/caseId.ts';

/** The rule as first written (JSON.stringify with a key-sorting replacer): the oracle. */
function replacerCanonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
      const sorted: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
      return sorted;
    }
    return v;
  });
}

const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const key = fc.oneof(fc.string({ unit: anyUnit, maxLength: 4 }), fc.constantFrom('0', '1', '10', '2', '-1', '01', '__proto__x', 'b', 'a'));
const value = fc.letrec((tie) => ({
  any: fc.oneof(
    { depthSize: 'small' },
    fc.string({ unit: anyUnit, maxLength: 12 }),
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.array(tie('any'), { maxLength: 4 }),
    fc.dictionary(key, tie('any'), { maxKeys: 5 }),
  ),
})).any;

describe('canonicalJson / writeCanonicalJson', () => {
  test.prop([value], { numRuns: 400 })('both are exactly JSON.stringify with sorted keys, undefined and -0 and NaN included', (v) => {
    expect(canonicalJson(v)).toBe(replacerCanonical(v));
    const chunks: string[] = [];
    const written = writeCanonicalJson(v, (c) => chunks.push(c));
    expect(written ? chunks.join('') : undefined).toBe(replacerCanonical(v));
  });

  it('escapes a long string a slice at a time, keeping surrogate pairs whole and lone surrogates escaped', () => {
    const unit = 1 << 16;
    const long = `${'a'.repeat(unit - 1)}\u{1F600}${'"\\\n'.repeat(unit)}\ud800x${'é'.repeat(unit)}`;
    const v = { z: long, a: [long, { [long]: 1 }], d: new Date(0) };
    const chunks: string[] = [];
    expect(writeCanonicalJson(v, (c) => chunks.push(c))).toBe(true);
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks) expect(c.length).toBeLessThan(3 * unit);
    expect(chunks.join('')).toBe(replacerCanonical(v));
  });

  it('writes 10,000 nesting levels without overflowing the stack', () => {
    let deep: unknown = {};
    for (let k = 0; k < 10_000; k++) deep = { a: [deep] };
    expect(() => replacerCanonical(deep)).toThrow(RangeError);
    const text = canonicalJson(deep);
    expect(text.length).toBe(10_000 * '{"a":[]}'.length + 2);
    expect(text.startsWith('{"a":[{"a":[')).toBe(true);
  });

  it('throws TypeError on a cycle and a BigInt, as JSON.stringify does; undefined at the top gives undefined', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = { back: cyclic };
    expect(() => canonicalJson(cyclic)).toThrow(TypeError);
    expect(() => canonicalJson({ n: 1n })).toThrow(TypeError);
    expect(canonicalJson(undefined)).toBe(JSON.stringify(undefined));
    const shared = { x: 1 };
    expect(canonicalJson([shared, shared])).toBe('[{"x":1},{"x":1}]');
  });

  it('keeps every bundled case id: the hash of the pieces is the hash of the whole text', () => {
    const c = JSON.parse(readFileSync(projectPath('fixtures/cases/claude-code/json/final.json'), 'utf8')) as Parameters<typeof caseId>[0] & { id: string };
    expect(caseId(c)).toBe(c.id);
    });
  });


const FINAL = { voice: 'peer', position: 'Choose A', final: true };
const at = { origin: 'result', pointer: '/result', offset: 0 };

describe('candidatesFromText and schemas', () => {
  it('never unwraps an answer wrapped in a schema ({"type":"object","properties":{...}})', () => {
    const notes: string[] = [];
    const found = candidatesFromText(JSON.stringify({ type: 'object', properties: FINAL, required: Object.keys(FINAL) }), at, 'position', notes);
    expect(found).toEqual([]);
    expect(notes.join(' ')).toContain('inside a JSON Schema');
  });

  it('reads the answer after a schema echo, not the schema interior (dotnet/extensions#6212 shape)', () => {
    const schema = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { position: { type: 'string' } } };
    const found = candidatesFromText(`${JSON.stringify(schema)}\n${JSON.stringify(FINAL)}`, at, 'position');
    expect(found.map((c) => c.value)).toEqual([FINAL]);
  });

  it('keeps an answer that merely has a "properties" field, and its nested objects', () => {
    const answer = { position: 'Choose A', properties: { position: 'nested' } };
    expect(candidatesFromText(JSON.stringify(answer), at, 'position').map((c) => c.value)).toEqual([answer, { position: 'nested' }]);
  });

  it('gives the candidates of the eager rule, lazily, when the text says "properties" (issue 24)', () => {
    const schema = { type: 'object', properties: { position: { type: 'string' }, nested: { type: 'object', properties: { position: { const: 'x' } } } } };
    const answer = { position: 'Choose A', detail: { position: 'inner', meta: [{ position: 'deep' }] }, carried: JSON.stringify(FINAL) };
    const wrapped = { $schema: 'x', answer: { position: 'wrapped' }, text: JSON.stringify({ position: 'in a string' }) };
    const text = `Listing the properties.\n${JSON.stringify(answer)}\n${JSON.stringify(schema)}\n${JSON.stringify(wrapped)} and [${JSON.stringify(FINAL)}]`;
    const notes: string[] = [];
    const found = candidatesFromText(text, at, 'position', notes);
    // Oracle: every object with the anchor, minus those strictly inside a schema's parsed tree.
    expect(found.map((c) => c.value)).toEqual([answer, answer.detail, answer.detail.meta[0], FINAL, { position: 'in a string' }, FINAL]);
    expect(notes).toEqual(['3 object(s) in result sit inside a JSON Schema (a schema echo or an answer wrapped in one) and were not unwrapped']);
    // Scan hits (in the text or in a string in it) are lazy; objects nested in a hit (the array's FINAL) are plain.
    const lazy = found.map((c) => typeof Object.getOwnPropertyDescriptor(c, 'value')?.get === 'function');
    expect(lazy).toEqual([true, false, false, true, true, false]);
    expect(candidatesFromText(text, at, undefined).length).toBeGreaterThan(found.length);
  });

  it('tells schemas from answers', () => {
    expect(looksLikeSchema({ type: 'object', properties: {} })).toBe(true);
    expect(looksLikeSchema({ $schema: 'x' })).toBe(true);
    expect(looksLikeSchema({ properties: {}, required: [] })).toBe(true);
    expect(looksLikeSchema({ position: 'A', properties: {} })).toBe(false);
    expect(looksLikeSchema([])).toBe(false);
  });
});

describe('lazy candidates (issue 24: 500,000 of them in one result string)', () => {
  const text = 'Answer: {"position":"A","final":true} then {"position":"B"}';
  const place = { origin: 'result', pointer: '/result', offset: 3 };

  it('look like plain candidates to every reader, and copy lazily', () => {
    const [a] = candidatesFromText(text, place, 'position');
    const plain = { origin: 'result', pointer: '/result', offset: 3, value: { position: 'A', final: true }, fenced: false, nested: 1 };
    expect(a).toEqual(plain);
    expect(JSON.parse(JSON.stringify(a))).toEqual(plain);
    expect(structuredClone(a)).toEqual(plain);
    expect({ ...a }).toEqual(plain);
    expect(Object.keys(a!)).toEqual(Object.keys(plain));
    expect(Object.getOwnPropertySymbols(a!)).toEqual([]);
    // Each read builds the value again: a reader that changes it changes no other reader's copy.
    (a!.value as Record<string, unknown>).position = 'changed';
    expect(a!.value).toEqual({ position: 'A', final: true });
    const moved = withCandidateFields(a!, { nested: 0, origin: 'last-message' });
    expect(typeof Object.getOwnPropertyDescriptor(moved, 'value')?.get).toBe('function');
    expect(moved).toEqual({ ...plain, nested: 0, origin: 'last-message' });
    // A plain copy stays plain: its value is the one it was given, not the span's.
    const copy = withCandidateFields({ ...a!, value: { position: 'other' } }, { nested: 2 });
    expect(copy.value).toEqual({ position: 'other' });
  });

  it('hold their span, not their object: under 104 bytes a candidate with its list slot (a plain object given the same fields: 120)', async () => {
    // Measured in a process of its own: the unit project shares one V8 isolate between files
    // (isolate: false), and what other files built there moved the heap figure (119.58 B once).
    const script = [
      "import { lazyCandidate } from '#src/envelope/candidates.ts';",
      "import { releaseMemory } from '#src/memory.ts';",
      "const place = { origin: 'result', pointer: '/result', offset: 3 };",
      "const big = 'x'.repeat(1000); const count = 200000;",
      'releaseMemory(); const before = process.memoryUsage().heapUsed; const list = [];',
      'for (let i = 0; i < count; i++) list.push(lazyCandidate({ ...place, fenced: false, nested: 1 }, { text: big, start: i % 900, end: (i % 900) + 5 }));',
      'releaseMemory(); console.log(JSON.stringify({ n: list.length, per: (process.memoryUsage().heapUsed - before) / count }));',
    ].join('\n');
    const { execa } = await import('execa');
    const { stdout } = await execa(process.execPath, ['--expose-gc', '--conditions=routecert-source', '--import', 'tsx', '--input-type=module', '-e', script], { cwd: projectPath(), timeout: 120_000 });
    const { n, per } = JSON.parse(stdout.trim().split('\n').at(-1)!) as { n: number; per: number };
    expect(n).toBe(200_000);
    expect(per).toBeLessThan(104);
  }, 120_000);

  it('grow the list they are given, and dedupe returns that list when nothing repeats', () => {
    const list = [{ origin: 'structured_output', pointer: '/structured_output', offset: 0, value: { position: 'S' }, nested: 0 }];
    const same = pushCandidatesFromText(list, text, place, 'position');
    expect(same).toBe(list);
    expect(list.map((c) => c.value)).toEqual([{ position: 'S' }, { position: 'A', final: true }, { position: 'B' }]);
    expect(dedupeCandidates(list)).toBe(list);
    const repeated = pushCandidatesFromText([...list], 'again {"position":"S"}', place, 'position');
    const kept = dedupeCandidates(repeated);
    expect(kept).not.toBe(repeated);
    expect(kept.map((c) => c.value)).toEqual([{ position: 'A', final: true }, { position: 'B' }, { position: 'S' }]);
    expect(repeated).toHaveLength(4);
  });
});

describe('commentaryMark', () => {
  it('marks commentary, progress and reasoning messages, never an answer', () => {
    expect(commentaryMark({ type: 'agent_message', phase: 'commentary' })).toBe('phase: "commentary"');
    expect(commentaryMark({ channel: 'analysis' })).toBe('channel: "analysis"');
    expect(commentaryMark({ text: 'x', thought: true })).toBe('thought: true');
    expect(commentaryMark({ type: 'agent_message', phase: 'final_answer' })).toBeNull();
    expect(commentaryMark({ type: 'agent_message' })).toBeNull();
    expect(commentaryMark('text')).toBeNull();
  });

  it('reads the mark where opencode and pi carry it: provider metadata, a text signature', () => {
    // opencode: the AI SDK's providerMetadata copied onto the text part.
    expect(commentaryMark({ type: 'text', text: '{}', metadata: { openai: { itemId: 'msg_1', phase: 'commentary' } } })).toBe('metadata.openai.phase: "commentary"');
    expect(commentaryMark({ type: 'text', providerMetadata: { azure: { phase: 'commentary' } } })).toBe('providerMetadata.azure.phase: "commentary"');
    expect(commentaryMark({ type: 'text', text: '{}', metadata: { openai: { itemId: 'msg_2', phase: 'final_answer' } } })).toBeNull();
    // pi-ai: the OpenAI Responses item id and phase as a JSON string.
    expect(commentaryMark({ type: 'text', text: '{}', textSignature: '{"v":1,"id":"msg_1","phase":"commentary"}' })).toBe('textSignature phase: "commentary"');
    expect(commentaryMark({ type: 'text', text: '{}', textSignature: '{"v":1,"id":"msg_2","phase":"final_answer"}' })).toBeNull();
    expect(commentaryMark({ type: 'text', text: '{}', textSignature: 'msg_legacy_plain_id' })).toBeNull();
    expect(commentaryMark({ type: 'text', textSignature: '{"phase": not json' })).toBeNull();
  });
});
