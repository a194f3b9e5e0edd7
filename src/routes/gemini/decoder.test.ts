import { describe, expect, it } from 'vitest';
import { geminiDecoder, geminiErrorStatus } from './decoder.ts';
import type { Envelope } from '#src/envelope/types.ts';

const FINAL = { position: 'Choose A', final: true };
const PLACEHOLDER = { position: 'blocked: gathering subject evidence', final: false };
const json = geminiDecoder('gemini-cli/json');
const stream = geminiDecoder('gemini-cli/stream-json');

function envelope(stdout: string, stderr = '', exitCode: number | null = 0): Envelope {
  return { stdout, stderr, exitCode, elapsedMs: 10 };
}

/** Gemini CLI 0.61.0 prints the json envelope pretty-printed over many lines. */
function pretty(value: object): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** The stderr of a json-mode API error (0.61.0): warnings, a stack trace, then the pretty error object. */
function errorStderr(code: number, message: string): string {
  const body = JSON.stringify({ error: { code, message, status: 'INVALID_ARGUMENT' } });
  return [
    'Warning: 256-color support not detected.',
    `Error when talking to Gemini API Full report available at: <tmp> _ApiError: ${body}`,
    '    at throwErrorIfNotOK (file://<project>/bundle/chunk.js:1:1) {',
    `  status: ${code}`,
    '}',
    JSON.stringify({ session_id: 'u', error: { type: 'Error', message: body, code } }, null, 2),
    '',
  ].join('\n');
}

function lines(...events: object[]): string {
  return events.map((e) => `${JSON.stringify(e)}\n`).join('');
}

describe('geminiDecoder(gemini-cli/json)', () => {
  it('reads the answer from the response string of the pretty-printed envelope', () => {
    const d = json.decode(envelope(pretty({ session_id: 'u', response: JSON.stringify(FINAL), stats: { models: {} } })), { anchor: 'position' });
    expect(d.status.kind).toBe('ok');
    expect(d.candidates).toEqual([expect.objectContaining({ origin: 'response', pointer: '/response', value: FINAL, nested: 1 })]);
    expect(d.structured).toBeUndefined();
    expect(d.keys).toEqual(['session_id', 'response', 'stats']);
    expect(d.usage).toEqual({ models: {} });
  });

  it('finds both objects when the response concatenates a placeholder and the final answer, and a fenced one', () => {
    const both = json.decode(envelope(pretty({ session_id: 'u', response: JSON.stringify(PLACEHOLDER) + JSON.stringify(FINAL) })), { anchor: 'position' });
    expect(both.candidates.map((c) => c.value)).toEqual([PLACEHOLDER, FINAL]);
    const fenced = json.decode(envelope(pretty({ response: `Here:\n\n\`\`\`json\n${JSON.stringify(FINAL, null, 2)}\n\`\`\`\n` })), { anchor: 'position' });
    expect(fenced.candidates[0]).toMatchObject({ value: FINAL, fenced: true });
  });

  it('prose in the response is evidence, not a candidate', () => {
    const d = json.decode(envelope(pretty({ session_id: 'u', response: 'I think A.' })), { anchor: 'position' });
    expect(d.candidates).toEqual([]);
    expect(d.human).toEqual(['I think A.']);
  });

  it('reads an API error from stderr when stdout is empty: provider error with the HTTP status, whatever the exit code says', () => {
    const d = json.decode(envelope('', errorStderr(400, 'API key not valid.'), 144));
    expect(d.status).toMatchObject({ kind: 'provider-error', apiErrorStatus: 400 });
    expect(d.ancillary).toEqual(['api_error_status=400']);
    expect(d.human[0]).toContain('API key not valid.');
    expect(d.keys).toEqual(['session_id', 'error']);
    expect(d.notes.join(' ')).toContain('stderr');
  });

  it('reads 529 (exit 17 = 529 & 0xFF) the same way', () => {
    expect(json.decode(envelope('', errorStderr(529, 'Overloaded'), 17)).status).toMatchObject({ kind: 'provider-error', apiErrorStatus: 529 });
  });

  it('a non-zero exit with the CLI\'s own sentence on stderr and no JSON is a refused start (issue 21); a stack trace is a crash', () => {
    const d = json.decode(envelope('', 'Please trust this folder first.\n', 55));
    expect(d.status).toEqual({ kind: 'startup-rejected', message: 'Please trust this folder first.' });
    const crash = 'Error: boom\n    at main (file:///gemini.js:1:1)';
    expect(json.decode(envelope('', `${crash}\n`, 1)).status).toEqual({ kind: 'crashed', message: crash });
  });

  it('a Gemini CLI fatal error before any turn (auth not set, code 41) is startup-rejected; a turn limit (53) is a CLI error', () => {
    const auth = { session_id: 'x', error: { type: 'Error', message: 'Please set an Auth method in your settings.json', code: 41 } };
    expect(json.decode(envelope(JSON.stringify(auth), '', 41)).status).toEqual({ kind: 'startup-rejected', message: 'Please set an Auth method in your settings.json' });
    const turns = { session_id: 'x', error: { type: 'Error', message: 'Reached max session turns', code: 53 } };
    expect(json.decode(envelope(JSON.stringify(turns), '', 53)).status.kind).toBe('cli-error');
  });
});

describe('geminiDecoder(gemini-cli/stream-json)', () => {
  const init = { type: 'init', timestamp: 't', session_id: 'u', model: 'gemini-2.5-flash' };
  const user = { type: 'message', role: 'user', content: `Answer as JSON:\n\`\`\`json\n${JSON.stringify({ properties: { position: { type: 'string' } } })}\n\`\`\`` };

  it('joins the assistant deltas into one text before looking for JSON, and never reads the user prompt', () => {
    const text = JSON.stringify(FINAL);
    const stdout = lines(
      init,
      user,
      { type: 'message', role: 'assistant', content: text.slice(0, 9), delta: true },
      { type: 'message', role: 'assistant', content: text.slice(9), delta: true },
      { type: 'result', status: 'success', stats: { total_tokens: 3 } },
    );
    const d = stream.decode(envelope(stdout), { anchor: 'position' });
    expect(d.status.kind).toBe('ok');
    expect(d.candidates).toEqual([expect.objectContaining({ origin: 'assistant-text', value: FINAL, event: 2, pointer: '/content' })]);
    expect(d.keys).toEqual(['type', 'status', 'stats']);
    expect(d.usage).toEqual({ total_tokens: 3 });
  });

  it('reads a result with status error as a provider error with the status inside the message', () => {
    const message = `[API Error: ${JSON.stringify({ error: { code: 400, message: 'bad', status: 'INVALID_ARGUMENT' } })}]`;
    const d = stream.decode(envelope(lines(init, user, { type: 'result', status: 'error', error: { type: 'unknown', message } }), 'stack trace', 144));
    expect(d.status).toMatchObject({ kind: 'provider-error', apiErrorStatus: 400, message });
    expect(d.ancillary).toEqual(['api_error_status=400']);
  });

  it('a stream cut before the result line keeps the answer it had and notes the missing result', () => {
    const d = stream.decode(envelope(lines(init, { type: 'message', role: 'assistant', content: JSON.stringify(PLACEHOLDER), delta: true }), '', null), { anchor: 'position' });
    expect(d.candidates.map((c) => c.value)).toEqual([PLACEHOLDER]);
    expect(d.notes.join(' ')).toContain('no terminal');
  });

  it('a tool call between two assistant texts keeps them apart', () => {
    const d = stream.decode(
      envelope(
        lines(
          { type: 'message', role: 'assistant', content: '{"position":"a",', delta: true },
          { type: 'tool_use', tool_name: 'read_file', tool_id: 't1', parameters: {} },
          { type: 'message', role: 'assistant', content: JSON.stringify(FINAL), delta: true },
          { type: 'result', status: 'success' },
        ),
      ),
      { anchor: 'position' },
    );
    expect(d.candidates.map((c) => c.value)).toEqual([FINAL]);
  });
});

describe('geminiErrorStatus', () => {
  it('takes error.code when it is an HTTP status, else the code of the Google body inside the message', () => {
    expect(geminiErrorStatus({ code: 429, message: 'x' })).toBe(429);
    expect(geminiErrorStatus({ type: 'unknown', message: '[API Error: {"error":{"code":503,"message":"busy"}}]' })).toBe(503);
    expect(geminiErrorStatus({ code: 41, message: 'auth' })).toBeNull();
    expect(geminiErrorStatus('nope')).toBeNull();
  });
});

describe('geminiDecoder: shapes of issue 11', () => {
  it('json: reads the envelope past a stray stdout line (gemini-cli#5287)', () => {
    const d = json.decode(envelope(`Loaded cached credentials.\n${pretty({ session_id: 's', response: JSON.stringify(FINAL) })}`), { anchor: 'position' });
    expect(d.candidates.map((c) => [c.origin, c.value])).toEqual([['response', FINAL]]);
    expect(d.notes.join(' ')).toContain('Loaded cached credentials.');
  });

  it('stream-json: answer deltas without the result event are incomplete (gemini-cli#20183)', () => {
    const stdout = `${JSON.stringify({ type: 'init', session_id: 's' })}\n${JSON.stringify({ type: 'message', role: 'assistant', content: JSON.stringify(FINAL), delta: true })}\n`;
    const d = stream.decode(envelope(stdout, '', 1), { anchor: 'position' });
    expect(d.status).toMatchObject({ kind: 'crashed', incomplete: 'no terminal {"type":"result"} event' });
    expect(d.candidates).toHaveLength(1);
  });

  it('json: a refused argument is startup-rejected with the yargs line', () => {
    const d = json.decode(envelope('', 'Unknown arguments: x\nUsage: gemini [options]\n', 1));
    expect(d.status).toEqual({ kind: 'startup-rejected', message: 'Unknown arguments: x' });
  });
});

describe('geminiDecoder: thoughts', () => {
  it('stream-json: an assistant message marked thought: true is never part of the answer', () => {
    const lines = [
      { type: 'init', session_id: 's' },
      { type: 'message', role: 'assistant', content: JSON.stringify(FINAL), thought: true, delta: true },
      { type: 'message', role: 'assistant', content: JSON.stringify(PLACEHOLDER), delta: true },
      { type: 'result', status: 'success', stats: { output_tokens: 9 } },
    ];
    const d = stream.decode(envelope(`${lines.map((l) => JSON.stringify(l)).join('\n')}\n`), { anchor: 'position' });
    expect(d.candidates.map((c) => c.value)).toEqual([PLACEHOLDER]);
  });
});

describe('geminiErrorStatus: a wrapped Google body that does not parse (gemini-cli#10717)', () => {
  it('reads its "code": 429 as text', () => {
    const message = '[API Error: [{\n"error": {\n"code": 429,\n"message": "Resource exhausted. Please refer to \nhttps://cloud.google.com/x for more details.", \n"status": "RESOURCE_EXHAUSTED" \n} \n} \n]]';
    expect(geminiErrorStatus({ type: 'Error', message })).toBe(429);
    expect(geminiErrorStatus({ type: 'Error', message: '[API Error: {not json, no status}]' })).toBeNull();
  });
});

describe('geminiErrorStatus: an error class that stands for the provider\'s answer (googleQuotaErrors.ts)', () => {
  it('a quota error class is a 429, a missing model a 404, whatever the message says; an unknown class says nothing', () => {
    expect(geminiErrorStatus({ type: 'TerminalQuotaError', message: 'You have exhausted your capacity on this model. Your quota will reset after 8h42m34s.' })).toBe(429);
    expect(geminiErrorStatus({ type: 'RetryableQuotaError', message: 'Resource has been exhausted (e.g. check quota).' })).toBe(429);
    expect(geminiErrorStatus({ type: 'ModelNotFoundError', message: 'Requested entity was not found.' })).toBe(404);
    expect(geminiErrorStatus({ type: 'FatalToolExecutionError', message: 'no shell' })).toBeNull();
    expect(geminiErrorStatus({ type: 'constructor', message: 'x' })).toBeNull();
    // A status the report carries wins over the class.
    expect(geminiErrorStatus({ type: 'RetryableQuotaError', message: 'x', code: 503 })).toBe(503);
  });

  it('stream-json: a result error naming only TerminalQuotaError is a provider error (429), not an unusable answer', () => {
    const stdout = [
      { type: 'init', timestamp: 't', session_id: 'u', model: 'gemini-2.5-pro' },
      { type: 'message', timestamp: 't', role: 'user', content: 'q' },
      { type: 'result', timestamp: 't', status: 'error', error: { type: 'TerminalQuotaError', message: 'You have exhausted your capacity on this model.' } },
    ].map((e) => JSON.stringify(e)).join('\n');
    const status = stream.decode(envelope(`${stdout}\n`, '', 1)).status;
    expect(status).toMatchObject({ kind: 'provider-error', apiErrorStatus: 429 });
  });
});

describe('geminiErrorStatus: the rate-limit hint Gemini CLI appends only to a 429 (errorParsing.ts)', () => {
  it('reads 429 from the hint when the [API Error: ...] text names no status (stream-json, type "unknown")', () => {
    const message = '[API Error: Resource has been exhausted (e.g. check quota).]\nPlease wait and try again later. To increase your limits, request a quota increase through AI Studio, or switch to another /auth method';
    expect(geminiErrorStatus({ type: 'unknown', message })).toBe(429);
    expect(geminiErrorStatus({ type: 'unknown', message: '[API Error: x]\nPossible quota limitations in place or slow response times detected. Switching to the gemini-2.5-flash model for the rest of this session.' })).toBe(429);
    expect(geminiErrorStatus({ type: 'unknown', message: '[API Error: Resource has been exhausted (e.g. check quota).]' })).toBeNull();
  });
});

describe('geminiDecoder(gemini-cli/stream-json): an error event of severity "error" that ends the run', () => {
  const ts = '2026-12-02T00:00:00.000Z';
  const init = { type: 'init', timestamp: ts, session_id: 'u', model: 'gemini-2.5-pro' };
  const success = { type: 'result', timestamp: ts, status: 'success', stats: { total_tokens: 3, input_tokens: 2, output_tokens: 1 } };
  const text = (value: object) => ({ type: 'message', timestamp: ts, role: 'assistant', content: JSON.stringify(value), delta: true });
  const frame = (severity: string, message: string) => ({ type: 'error', timestamp: ts, severity, message });
  const tool = [
    { type: 'tool_use', timestamp: ts, tool_name: 'read_file', tool_id: 't1', parameters: {} },
    { type: 'tool_result', timestamp: ts, tool_id: 't1', status: 'success', output: '' },
  ];

  // Gemini CLI 0.61.0 nonInteractiveCli: the turn limit fires before the next model turn, then RESULT says success.
  it('is a CLI error with the CLI\'s words first when no assistant text follows it (session turn limit after a tool call)', () => {
    const d = stream.decode(envelope(lines(init, text(FINAL), ...tool, frame('error', 'Maximum session turns exceeded'), success)), { anchor: 'position' });
    expect(d.status).toEqual({ kind: 'cli-error', message: 'Maximum session turns exceeded' });
    expect(d.human[0]).toBe('Maximum session turns exceeded');
  });

  it('does not end the run when assistant text follows it (a RESOURCE_EXHAUSTED retry), nor as a warning', () => {
    expect(stream.decode(envelope(lines(init, frame('error', 'Resource has been exhausted (e.g. check quota).'), text(FINAL), success)), { anchor: 'position' }).status.kind).toBe('ok');
    expect(stream.decode(envelope(lines(init, text(FINAL), frame('warning', 'Loop detected, stopping execution'), success)), { anchor: 'position' }).status.kind).toBe('ok');
  });

  it('an error result that names no status reads the status from the CLI\'s stderr report of the failed call (cause code, else the class); without that report it stays a CLI error', () => {
    const result = { type: 'result', status: 'error', error: { type: 'unknown', message: '[API Error: An unknown error occurred.]' } };
    const report = (body: string): string => `Error when talking to Gemini API Full report available at: /tmp/x.json ${body}`;
    const withCause = stream.decode(envelope(lines(result), report("TerminalQuotaError: You exceeded your current quota.\n    at classifyGoogleError (file:///x.js:1:1) {\n  cause: {\n    code: 429,\n    message: 'quota'\n  }\n}"), 1));
    expect(withCause.status).toMatchObject({ kind: 'provider-error', apiErrorStatus: 429 });
    const classOnly = stream.decode(envelope(lines(result), report('ModelNotFoundError: Requested entity was not found.'), 1));
    expect(classOnly.status).toMatchObject({ kind: 'provider-error', apiErrorStatus: 404 });
    // A class that stands for no provider answer, or no report line at all: the CLI's own failure.
    expect(stream.decode(envelope(lines(result), report('TypeError: x is not a function'), 1)).status.kind).toBe('cli-error');
    expect(stream.decode(envelope(lines(result), 'TerminalQuotaError: somewhere else\n  cause: { code: 429 }', 1)).status.kind).toBe('cli-error');
  });
});
