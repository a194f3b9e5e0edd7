import { describe, expect, it } from 'vitest';
import { splitMessageTexts } from '#src/envelope/splitMessages.ts';
import { genericDecoder } from './generic/decoder.ts';

const assistant = (id: string | undefined, ...content: unknown[]) => ({ type: 'assistant', message: { ...(id ? { id } : {}), content } });
const text = (t: string) => ({ type: 'text', text: t });

describe('splitMessageTexts', () => {
  it('joins the text blocks of one message id spread over events, keyed by its last event', () => {
    const events = [{ type: 'system' }, assistant('m1', text('{"position":')), assistant('m1', text('"A","final":true}')), { type: 'result' }];
    expect(splitMessageTexts(events).get(2)).toEqual({ id: 'm1', text: '{"position":"A","final":true}', first: 1, last: 2, pieces: 2 });
  });
  it('lists no message held by one event, nor one without an id', () => {
    expect(splitMessageTexts([assistant('m1', text('a'), text('b')), assistant(undefined, text('c')), assistant(undefined, text('d'))]).size).toBe(0);
  });
  it('skips events of another id between the pieces (tool_use events of the same id count)', () => {
    const events = [assistant('m1', text('x')), assistant('m1', { type: 'tool_use', name: 'Read', input: {} }), assistant('m2', text('y')), assistant('m1', text('z'))];
    expect(splitMessageTexts(events).get(3)).toMatchObject({ text: 'xz', first: 0, last: 3 });
  });
});

describe('generic textEvents (xAI grok streaming-json)', () => {
  const grok = genericDecoder('grok/streaming-json', { terminalType: ['end', 'error'], textEvents: { type: 'text', field: 'data', passThrough: ['thought'] } });
  const answer = '{"position":"Choose A","final":true}';
  const lines = (...events: unknown[]) => `${events.map((e) => JSON.stringify(e)).join('\n')}\n`;
  it('reads an answer in one text event and in many small chunks, thoughts between them ignored', () => {
    for (const chunks of [[answer], answer.match(/.{1,5}/g)!]) {
      const events = [{ type: 'thought', data: 'thinking' }, ...chunks.flatMap((data, i) => (i === 1 ? [{ type: 'thought', data: '...' }, { type: 'text', data }] : [{ type: 'text', data }])), { type: 'end', stopReason: 'end_turn', sessionId: 's', requestId: 'r' }];
      const d = grok.decode({ stdout: lines(...events), stderr: '', exitCode: 0, elapsedMs: 1 }, { anchor: 'position' });
      expect(d.status.kind).toBe('ok');
      expect(d.candidates.map((c) => [c.origin, c.value])).toEqual([['assistant-text', JSON.parse(answer)]]);
    }
  });
  it('a tool call between two texts splits them, so a text broken by it is not an answer', () => {
    const events = [{ type: 'text', data: '{"position":' }, { type: 'tool_call', toolCallId: 'c', toolName: 'read_file', rawInput: {} }, { type: 'text', data: '"A","final":true}' }, { type: 'end', stopReason: 'end_turn' }];
    expect(grok.decode({ stdout: lines(...events), stderr: '', exitCode: 0, elapsedMs: 1 }, { anchor: 'position' }).candidates).toEqual([]);
  });
});
