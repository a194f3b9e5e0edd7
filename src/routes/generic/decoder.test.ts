import { describe, expect, it } from 'vitest';
import { GenericSpecError, genericDecoder, genericDecoderFromOption, parseGenericSpec } from './decoder.ts';
import { decoderFor, UnknownRouteError } from '#src/routes/registry.ts';
import type { Envelope } from '#src/envelope/types.ts';

const FINAL = { position: 'Choose A', final: true };
const PLACEHOLDER = { position: 'blocked: gathering subject evidence', final: false };

function envelope(stdout: string, exitCode: number | null = 0): Envelope {
  return { stdout, stderr: '', exitCode, elapsedMs: 10 };
}

function lines(...events: object[]): string {
  return events.map((e) => `${JSON.stringify(e)}\n`).join('');
}

describe('parseGenericSpec', () => {
  it('reads pointer, key, event filter and text parts', () => {
    expect(parseGenericSpec('event=type=result;pointer=/data/answer;text')).toEqual({
      event: { field: 'type', equals: 'result' },
      pointer: '/data/answer',
      freeText: true,
    });
    expect(parseGenericSpec(' key=structuredOutput ')).toEqual({ key: 'structuredOutput' });
    expect(parseGenericSpec('event=item.type=agent_message')).toEqual({ event: { field: 'item.type', equals: 'agent_message' } });
  });

  it.each([
    ['', 'empty'],
    ['pointer=data', 'start with "/"'],
    ['key=', 'needs a name'],
    ['event=result', '<field>=<value>'],
    ['text=yes', 'no value'],
    ['where=/a', 'unknown part "where"'],
    ['key=a;key=b', 'given twice'],
    ['key=a;pointer=/b', 'not both'],
  ])('rejects %j with a GenericSpecError that says why (%s) and shows the grammar', (spec, why) => {
    let error: unknown;
    try {
      parseGenericSpec(spec);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GenericSpecError);
    expect((error as GenericSpecError).code).toBe('ROUTECERT_BAD_GENERIC_SPEC');
    expect((error as Error).message).toContain(why);
    expect((error as Error).message).toContain('pointer=<JSON Pointer>');
  });
});

describe('genericDecoder with an answer location', () => {
  const stdout = lines(
    { type: 'progress', draft: PLACEHOLDER },
    { type: 'done', data: { items: [{ answer: JSON.stringify(FINAL) }] }, message: 'ok' },
  );

  it('pointer: reads only the value at the pointer, JSON inside a string included', () => {
    const d = genericDecoder('mycli/jsonl', { pointer: '/data/items/0/answer' }).decode(envelope(stdout), { anchor: 'position' });
    expect(d.candidates).toEqual([expect.objectContaining({ origin: 'answer', pointer: '/data/items/0/answer', value: FINAL, event: 1 })]);
    expect(d.structured?.value).toEqual(FINAL);
  });

  it('pointer: a missing place gives no candidate and a note naming it', () => {
    const d = genericDecoder('mycli/jsonl', { pointer: '/data/nope' }).decode(envelope(stdout), { anchor: 'position' });
    expect(d.candidates).toEqual([]);
    expect(d.notes).toContain('the answer location pointer /data/nope is not in the terminal object');
  });

  it('key: finds the key under any spelling, breadth-first', () => {
    const out = lines({ result: { Structured_Output: PLACEHOLDER, nested: { structuredOutput: FINAL } } });
    const d = genericDecoder('mycli/json', { key: 'structured-output' }).decode(envelope(out), { anchor: 'position' });
    expect(d.structured).toMatchObject({ origin: 'Structured_Output', pointer: '/result/Structured_Output', value: PLACEHOLDER });
  });

  it('event filter: the terminal object is the last event whose field matches, not the last line', () => {
    const out = lines({ type: 'result', answer: FINAL }, { type: 'telemetry', answer: PLACEHOLDER });
    const byEvent = genericDecoder('mycli/jsonl', { event: { field: 'type', equals: 'result' }, key: 'answer' }).decode(envelope(out), { anchor: 'position' });
    expect(byEvent.structured?.value).toEqual(FINAL);
    expect(byEvent.keys).toEqual(['type', 'answer']);
    const byLast = genericDecoder('mycli/jsonl', { key: 'answer' }).decode(envelope(out), { anchor: 'position' });
    expect(byLast.structured?.value).toEqual(PLACEHOLDER);
  });

  it('text: also scans the whole stdout, so JSON in prose lines is found', () => {
    const out = `thinking...\n${JSON.stringify({ type: 'result', answer: 'none' })}\nfinal: ${JSON.stringify(FINAL)}\n`;
    const withText = genericDecoder('mycli/text', { key: 'answer', freeText: true }).decode(envelope(out), { anchor: 'position' });
    expect(withText.candidates.map((c) => [c.origin, c.value])).toContainEqual(['stdout', FINAL]);
    const without = genericDecoder('mycli/text', { key: 'answer' }).decode(envelope(out), { anchor: 'position' });
    expect(without.candidates).toEqual([]);
  });
});

describe('genericDecoder for Claude Code-compatible streams (assistantEvents)', () => {
  it('reads tool_use inputs and assistant text in stream order; the structured field stands where its last copy does', () => {
    const out = lines(
      { type: 'assistant', message: { content: [{ type: 'text', text: JSON.stringify(PLACEHOLDER) }] } },
      { type: 'assistant', message: { content: [{ type: 'tool_use', name: 'StructuredOutput', input: FINAL }] } },
      { type: 'result', subtype: 'success', structured_output: FINAL },
    );
    const d = genericDecoder('x/stream-json', { terminalType: 'result', assistantEvents: true }).decode(envelope(out), { anchor: 'position' });
    expect(d.candidates.map((c) => c.origin)).toEqual(['assistant-text', 'structured_output']);
  });

  it("a sub-agent's assistant events (parent_tool_use_id set) are never read for the answer; the run's own are", () => {
    const out = lines(
      { type: 'assistant', message: { content: [{ type: 'text', text: JSON.stringify(FINAL) }] }, parent_tool_use_id: 'toolu_01Scc' },
      { type: 'assistant', message: { content: [{ type: 'text', text: 'No answer from me.' }] }, parent_tool_use_id: null },
      { type: 'result', subtype: 'success', result: 'No answer from me.' },
    );
    const d = genericDecoder('x/stream-json', { terminalType: 'result', assistantEvents: true }).decode(envelope(out), { anchor: 'position' });
    expect(d.candidates).toEqual([]);
  });

  it('an error subtype is a CLI error that carries its errors[] as evidence', () => {
    const out = lines({ type: 'result', subtype: 'error_max_structured_output_retries', is_error: true, errors: ['gave up after 3 attempts'] });
    const d = genericDecoder('x/stream-json', { terminalType: 'result' }).decode(envelope(out, 1));
    expect(d.status).toMatchObject({ kind: 'cli-error', subtype: 'error_max_structured_output_retries' });
    expect(d.human).toContain('gave up after 3 attempts');
  });
});

describe('generic routes from the command line and from case files', () => {
  it('genericDecoderFromOption splits <route>=<spec> at the first "="', () => {
    const d = genericDecoderFromOption('mycli/json=event=type=result;key=answer');
    expect(d.route).toBe('mycli/json');
    const out = lines({ type: 'result', answer: FINAL });
    expect(d.decode(envelope(out), { anchor: 'position' }).structured?.value).toEqual(FINAL);
    expect(() => genericDecoderFromOption('pointer=/a')).toThrow(GenericSpecError);
    expect(() => genericDecoderFromOption('=key=a')).toThrow(/<route>=<spec>/);
  });

  it('decoderFor builds a decoder for a "generic:<spec>" route and still refuses other unknown routes', () => {
    const d = decoderFor('generic:pointer=/out/answer');
    expect(d.decode(envelope(JSON.stringify({ out: { answer: FINAL } })), { anchor: 'position' }).structured?.value).toEqual(FINAL);
    expect(() => decoderFor('generic:where=/a')).toThrow(GenericSpecError);
    expect(() => decoderFor('nobody/json')).toThrow(UnknownRouteError);
  });
});

describe('generic Claude Code clones: is_error wins over subtype success (claude-code#79500)', () => {
  it('amp/stream-json reads an API Error result with is_error true as a provider error', () => {
    const d = decoderFor('amp/stream-json').decode({ stdout: `${JSON.stringify({ type: 'result', subtype: 'success', is_error: true, result: 'API Error: 529 Overloaded' })}\n`, stderr: '', exitCode: 0, elapsedMs: 1 });
    expect(d.status).toMatchObject({ kind: 'provider-error', apiErrorStatus: 529 });
  });
});

describe('an error frame whose words carry the provider status (issue 21.2)', () => {
  const grok = genericDecoder('grok/json');
  it('is a provider error naming the status; an error frame without one stays a CLI error', () => {
    const withStatus = grok.decode({ stdout: JSON.stringify({ type: 'error', message: 'Codex error: {"error":{"type":"usage_limit_reached"},"status_code":429}' }), stderr: '', exitCode: 1, elapsedMs: 1 }).status;
    expect(withStatus).toMatchObject({ kind: 'provider-error', apiErrorStatus: 429 });
    expect(grok.decode({ stdout: JSON.stringify({ type: 'error', message: "Couldn't start session: no such model" }), stderr: '', exitCode: 1, elapsedMs: 1 }).status.kind).toBe('cli-error');
  });
});
