import { describe, expect, it } from 'vitest';
import { candidatesFromText, commentaryMark, looksLikeSchema } from './candidates.ts';

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

  it('tells schemas from answers', () => {
    expect(looksLikeSchema({ type: 'object', properties: {} })).toBe(true);
    expect(looksLikeSchema({ $schema: 'x' })).toBe(true);
    expect(looksLikeSchema({ properties: {}, required: [] })).toBe(true);
    expect(looksLikeSchema({ position: 'A', properties: {} })).toBe(false);
    expect(looksLikeSchema([])).toBe(false);
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
});
