import { describe, expect, it } from 'vitest';
import { opencodeDecoder } from './decoder.ts';

const POV = { position: 'Choose A', final: true };
const DRAFT = { position: 'draft', final: false };
const decoder = opencodeDecoder();
const env = (stdout: string, exitCode: number | null = 0, stderr = '') => ({ stdout, stderr, exitCode, elapsedMs: 1 });
const lines = (...events: object[]) => `${events.map((e) => JSON.stringify(e)).join('\n')}\n`;
const base = { timestamp: 1796015339522, sessionID: 'ses_x' };
const stepStart = { type: 'step_start', ...base, part: { type: 'step-start', messageID: 'msg_x' } };
const text = (t: string) => ({ type: 'text', ...base, part: { type: 'text', text: t, time: { start: 1, end: 2 } } });
const stepFinish = { type: 'step_finish', ...base, part: { type: 'step-finish', reason: 'stop', tokens: { total: 154, input: 100, output: 54 }, cost: 0 } };

describe('opencodeDecoder', () => {
  it('reads the JSON of each text part as assistant-text, the placeholder before the final', () => {
    const stdout = lines(stepStart, text(`${JSON.stringify(DRAFT)}\n\n${JSON.stringify(POV)}`), stepFinish);
    const d = decoder.decode(env(stdout), { anchor: 'position' });
    expect(d.candidates.map((c) => [c.origin, c.value, c.event])).toEqual([
      ['assistant-text', DRAFT, 1],
      ['assistant-text', POV, 1],
    ]);
    expect(d.structured).toBeUndefined();
    expect(d.status.kind).toBe('ok');
    expect(d.usage).toEqual({ total: 154, input: 100, output: 54 });
  });

  it('keeps prose as human-readable evidence and finds no candidate in it', () => {
    const d = decoder.decode(env(lines(stepStart, text('I think option A is better.'), stepFinish)), { anchor: 'position' });
    expect(d.candidates).toEqual([]);
    expect(d.human).toEqual(['I think option A is better.']);
  });

  it('an error event with statusCode is a provider error with that status', () => {
    const error = { type: 'error', ...base, error: { name: 'APIError', data: { message: 'Overloaded', statusCode: 529, isRetryable: true, responseBody: '{"error":{}}' } } };
    const d = decoder.decode(env(lines(error), 1));
    expect(d.status).toEqual({ kind: 'provider-error', apiErrorStatus: 529, message: 'Overloaded' });
    expect(d.ancillary).toEqual(['api_error_status=529']);
  });

  it('an error event without an HTTP status is a CLI error', () => {
    const error = { type: 'error', ...base, error: { name: 'UnknownError', data: { message: 'Model not found: x/y' } } };
    expect(decoder.decode(env(lines(error), 1)).status).toEqual({ kind: 'cli-error', message: 'Model not found: x/y' });
  });

  it('a tool_use part input is a tool_use candidate', () => {
    const tool = { type: 'tool_use', ...base, part: { type: 'tool', tool: 'bash', state: { status: 'completed', input: { command: 'ls' } } } };
    expect(decoder.decode(env(lines(tool))).candidates).toMatchObject([{ origin: 'tool_use:bash', value: { command: 'ls' } }]);
  });

  it('no event and a non-zero exit is a crash; the exit code alone never makes a success fail', () => {
    const crash = 'Error: boom\n    at run (/$bunfs/opencode:1:1)';
    expect(decoder.decode(env('', 1, crash)).status).toEqual({ kind: 'crashed', message: crash });
    // Its own error line and nothing on stdout: no step began, the CLI refused to run (issue 21).
    expect(decoder.decode(env('', 1, 'Error: boom')).status).toEqual({ kind: 'startup-rejected', message: 'Error: boom' });
    expect(decoder.decode(env(lines(stepStart, text(JSON.stringify(POV)), stepFinish), 1)).status.kind).toBe('ok');
  });

  it('reads the provider status an UnknownError carries only in its message (anomalyco/opencode#42033, #47747)', () => {
    const err = (message: string) => lines({ type: 'error', ...base, error: { name: 'UnknownError', data: { message } } });
    expect(decoder.decode(env(err('429: {"type":"FreeUsageLimitError","message":"Rate limit exceeded"}'), 1)).status).toMatchObject({ kind: 'provider-error', apiErrorStatus: 429 });
    expect(decoder.decode(env(err('OpenAI API error (429): {"code":"rate_limit_exceeded"}'), 1)).status).toMatchObject({ kind: 'provider-error', apiErrorStatus: 429 });
    expect(decoder.decode(env(err('tool crashed'), 1)).status).toEqual({ kind: 'cli-error', message: 'tool crashed' });
  });
});

describe('opencode: a schema-worded 400 after a model turn is a provider error (issue 21)', () => {
  it('is startup-rejected before any part, a provider error after a text part', () => {
    const err = lines({ type: 'error', ...base, error: { name: 'APIError', data: { message: "Invalid schema for response_format 'pov': bad", statusCode: 400 } } });
    expect(decoder.decode(env(err, 1)).status.kind).toBe('startup-rejected');
    const afterText = lines(stepStart, text('thinking aloud'), { type: 'error', ...base, error: { name: 'APIError', data: { message: "Invalid schema for response_format 'pov': bad", statusCode: 400 } } });
    expect(decoder.decode(env(afterText, 1)).status).toMatchObject({ kind: 'provider-error', apiErrorStatus: 400 });
  });
});
