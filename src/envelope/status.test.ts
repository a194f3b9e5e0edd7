import { describe, expect, it } from 'vitest';
import { argumentRejectionLine, crashedStatus, EMPTY_STDOUT, incompleteStatus, noteLostOutput, outputTokens, refusalLine, schemaRefusal, schemaRefusedStatus, statusInErrorText } from './status.ts';

const run = (stderr: string, exitCode: number | null = 1, stdout = '') => ({ stdout, stderr, exitCode, elapsedMs: 1 });

describe('argumentRejectionLine', () => {
  // Each line as the pinned CLI printed it here for `--routecert-no-such-flag` or a bad --output-format.
  it.each([
    ['claude 2.1.332 / grok-cli 0.0.34 (commander)', "error: unknown option '--routecert-no-such-flag'\n", "error: unknown option '--routecert-no-such-flag'"],
    ['claude 2.1.332 bad choice', "error: option '--output-format <format>' argument 'xml' is invalid. Allowed choices are text, json, stream-json.\n", "error: option '--output-format <format>' argument 'xml' is invalid. Allowed choices are text, json, stream-json."],
    ['codex 0.171.0 (clap)', "WARNING: proceeding, even though we could not create PATH aliases\nerror: unexpected argument '--x' found\n\n  tip: to pass '--x' as a value, use '-- --x'\n", "error: unexpected argument '--x' found"],
    ['copilot 1.0.102 (clap)', "error: invalid value 'xml' for '--output-format <format>'\n  [possible values: text, json]\n", "error: invalid value 'xml' for '--output-format <format>' [possible values: text, json]"],
    ['gemini 0.61.0 / qwen 0.24.4 (yargs)', 'Unknown arguments: routecert-no-such-flag, routecertNoSuchFlag\nUsage: gemini [options] [command]\n', 'Unknown arguments: routecert-no-such-flag, routecertNoSuchFlag'],
    ['gemini 0.61.0 bad choice (yargs)', 'Invalid values:\n  Argument: output-format, Given: "xml", Choices: "text", "json", "stream-json"\nUsage: gemini\n', 'Invalid values: Argument: output-format, Given: "xml", Choices: "text", "json", "stream-json"'],
    ['pi 0.73.1', 'Error: Unknown option: --routecert-no-such-flag\n', 'Error: Unknown option: --routecert-no-such-flag'],
  ])('%s', (_name, stderr, line) => {
    expect(argumentRejectionLine(stderr)).toBe(line);
  });

  it('reads a CLI\'s own schema refusal only through the patterns its route passes (one place per CLI)', () => {
    const qwen = '\u001b[31m--json-schema is not a valid JSON Schema: strict mode: unknown keyword: "_meta"\u001b[0m\n';
    expect(argumentRejectionLine(qwen)).toBeNull();
    expect(argumentRejectionLine(qwen, [/--json-schema is not/])).toBe('--json-schema is not a valid JSON Schema: strict mode: unknown keyword: "_meta"');
  });

  it('does not read an ordinary failure as a refusal', () => {
    expect(argumentRejectionLine('Error: connect ECONNREFUSED 127.0.0.1:9\n    at TCPConnectWrap\n')).toBeNull();
    expect(argumentRejectionLine('')).toBeNull();
  });
});

describe('crashedStatus', () => {
  it('is startup-rejected with the CLI line when the parser refused the command line and nothing is on stdout', () => {
    expect(crashedStatus(run("error: unknown option '--x'\n"))).toEqual({ kind: 'startup-rejected', message: "error: unknown option '--x'" });
  });

  it('stays crashed when the CLI printed JSON (it started), when a signal ended it, or for other stderr', () => {
    expect(crashedStatus(run("error: unknown option '--x'\n", 1, '{"type":"init"}\n'))?.kind).toBe('crashed');
    expect(crashedStatus({ ...run("error: unknown option '--x'\n", null), signal: 'SIGKILL' })?.kind).toBe('crashed');
    expect(crashedStatus(run('boom\n'))).toEqual({ kind: 'crashed', message: 'boom' });
    expect(crashedStatus(run('', 0, '{"type":"result"}\n'))).toBeNull();
  });

  // anomalyco/opencode#31482 and #20799: exit 0, nothing on stdout, the answer went elsewhere.
  it('is crashed (an incomplete stream) when the CLI exited 0 with nothing on stdout, with stderr as the message when there is one', () => {
    expect(crashedStatus(run('', 0))).toEqual({ kind: 'crashed', incomplete: EMPTY_STDOUT, message: `incomplete stream: ${EMPTY_STDOUT}` });
    expect(crashedStatus(run('', 0, ' \n'))).toMatchObject({ kind: 'crashed', incomplete: EMPTY_STDOUT });
    expect(crashedStatus(run('Loaded cached credentials.\n', 0))).toEqual({ kind: 'crashed', incomplete: EMPTY_STDOUT, message: 'Loaded cached credentials.' });
  });

  it('leaves an empty stdout that ended at the deadline, or that printed prose, to the caller', () => {
    expect(crashedStatus({ ...run('', 0), timedOut: true })).toBeNull();
    expect(crashedStatus(run('', 0, 'I looked at it and prefer A.\n'))).toBeNull();
  });
});

describe('incompleteStatus', () => {
  it('is crashed with the reason, whatever the exit code, and names it in the evidence', () => {
    const ancillary: string[] = [];
    expect(incompleteStatus(run('', 0), 'no terminal event', ancillary)).toEqual({ kind: 'crashed', incomplete: 'no terminal event', message: 'incomplete stream: no terminal event' });
    expect(ancillary).toEqual(['incomplete stream: no terminal event']);
    expect(incompleteStatus(run('Connection lost\n', 1), 'cut').message).toBe('Connection lost');
  });
});

describe('lost output', () => {
  it('counts output tokens in every CLI spelling, money under cost excluded', () => {
    expect(outputTokens({ input_tokens: 100, output_tokens: 5 })).toBe(5);
    expect(outputTokens({ models: { 'gemini-2.5-pro': { tokens: { prompt: 9, candidates: 12 } } } })).toBe(12);
    expect(outputTokens({ input: 1, output: 54, cost: { output: 0.5 } })).toBe(54);
    expect(outputTokens({ inputTokens: 1, outputTokens: 7 })).toBe(7);
    expect(outputTokens(null)).toBe(0);
  });

  it('names lost output only when tokens were spent and nothing was delivered', () => {
    const evidence: string[] = [];
    const notes: string[] = [];
    expect(noteLostOutput({ output_tokens: 5 }, false, evidence, notes)).toBe(true);
    expect(evidence).toEqual(['lost output: 5 output token(s) spent, nothing delivered']);
    expect(noteLostOutput({ output_tokens: 5 }, true, [], [])).toBe(false);
    expect(noteLostOutput({ output_tokens: 0 }, false, [], [])).toBe(false);
  });
});

describe('schemaRefusedStatus (issue 21.1: a schema refused at the first request)', () => {
  it.each([
    ['Anthropic top-level anyOf (claude-code#64113)', 'API Error: 400 tools.14.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level'],
    ['OpenAI response_format', "400 Invalid schema for response_format 'answer': In context=(), 'required' is required to be supplied"],
    ['OpenAI code', '{"error":{"code":"invalid_json_schema","param":"text.format.schema","message":"bad"}}'],
    ['Gemini response_schema', 'Invalid JSON payload received. Unknown name "additionalProperties" at \'generation_config.response_schema\': Cannot find field.'],
    ['Gemini tool parameters', '* GenerateContentRequest.tools[0].function_declarations[3].parameters.properties[x].items: missing field.'],
  ])('%s is startup-rejected with the provider words', (_name, message) => {
    expect(schemaRefusedStatus({ kind: 'provider-error', apiErrorStatus: 400, message })).toEqual({ kind: 'startup-rejected', apiErrorStatus: 400, message });
  });
  it('leaves other provider errors, other statuses and non-provider failures alone', () => {
    const overloaded = { kind: 'provider-error' as const, apiErrorStatus: 529, message: 'input_schema overloaded' };
    expect(schemaRefusedStatus(overloaded)).toBe(overloaded);
    const plain = { kind: 'provider-error' as const, apiErrorStatus: 400, message: 'API Error: 400 prompt is too long' };
    expect(schemaRefusedStatus(plain)).toBe(plain);
    const cli = { kind: 'cli-error' as const, message: 'input_schema' };
    expect(schemaRefusedStatus(cli)).toBe(cli);
  });
  it('reads the words in a relayed body when the message lacks them', () => {
    expect(schemaRefusedStatus({ kind: 'provider-error', apiErrorStatus: 400, message: 'Bad Request' }, ['{"error":{"code":"invalid_json_schema"}}']).kind).toBe('startup-rejected');
  });
});

describe('statusInErrorText (issue 21.2: a provider status inside an error text)', () => {
  it.each([
    ['pi Codex body (earendil-works/pi#4172)', 'Codex error: {"type":"error","error":{"type":"usage_limit_reached"},"status_code":429,"headers":{}}', 429],
    ['OpenAI SDK wording', '529 Overloaded', 529],
    ['Claude wording', 'API Error: 503 upstream', 503],
    ['relayed statusCode', 'AI_APICallError: {"statusCode":401,"message":"bad key"}', 401],
    ['status code words', 'Request failed with status code 502', 502],
    ['no status', 'Connection error.', null],
    ['a 3-digit number that is no status', 'processed 250 files', null],
  ])('%s', (_name, text, status) => {
    expect(statusInErrorText(text)).toBe(status);
  });
});

describe('crashedStatus: a refused invocation whatever the exit code (issue 21.5)', () => {
  it('opencode exits 0 after Session not found (anomalyco/opencode#27559)', () => {
    const stderr = 'NotFoundError: NotFoundError\n data: {\n  message: "Session not found: ses_doesnotexist",\n},\n';
    expect(crashedStatus(run(stderr, 0), stderr, [/\bSession not found\b/])).toMatchObject({ kind: 'startup-rejected', message: expect.stringContaining('Session not found: ses_doesnotexist') });
  });
  it('a clap line with or without its prefix, exit 0 or 2', () => {
    expect(crashedStatus(run("unexpected argument '--agent' found\n", 0))).toMatchObject({ kind: 'startup-rejected', message: "unexpected argument '--agent' found" });
    expect(crashedStatus(run("error: unexpected argument '--agent' found\n", 2))).toMatchObject({ kind: 'startup-rejected' });
  });
  it('exit 0 with an ordinary stderr is no failure', () => {
    expect(crashedStatus(run('warning: update available\n', 0, '{"type":"result"}\n'))).toBeNull();
  });
});

describe('crashedStatus: a CLI refusing its own invocation in its own words (issue 21, hcheck K5)', () => {
  const codex = 'Reading additional input from stdin...\nNot inside a trusted directory and --skip-git-repo-check was not specified.\n';
  const claude = 'Error: Input must be provided either through stdin or as a prompt argument when using --print\n';
  it.each([
    ['codex exec outside a git repo (exit 1)', codex, 1, 'Not inside a trusted directory and --skip-git-repo-check was not specified.'],
    ['claude -p without input (exit 1)', claude, 1, claude.trim()],
    ['claude -p without input (exit 0)', claude, 0, claude.trim()],
    ['cursor-agent without auth', 'Error: Authentication required. Please run cursor-agent login or set CURSOR_API_KEY.\n', 1, 'Error: Authentication required. Please run cursor-agent login or set CURSOR_API_KEY.'],
    ['opencode 1.1.20 bare session refusal (exit 0)', 'Error: Session not found\n', 0, 'Error: Session not found'],
  ])('%s is startup-rejected', (_name, stderr, exitCode, message) => {
    expect(crashedStatus(run(stderr, exitCode))).toEqual({ kind: 'startup-rejected', message });
  });

  it('keeps a real crash crashed: a stack trace, a panic, a runtime error, a signal death, words without an error', () => {
    expect(crashedStatus(run('Error: socket hang up\n    at TLSSocket.onHangUp (node:_http_client:1:1)\n'))?.kind).toBe('crashed');
    expect(crashedStatus(run("thread 'main' panicked at src/main.rs:1:1:\nError: oops\n", 101))?.kind).toBe('crashed');
    expect(crashedStatus(run("TypeError: Cannot read properties of undefined (reading 'x')\n"))?.kind).toBe('crashed');
    expect(crashedStatus(run('Error: out of memory\n', 134))?.kind).toBe('crashed');
    expect(crashedStatus(run('schema invalid\n'))?.kind).toBe('crashed');
    expect(crashedStatus(run('Downloading the model list...\n'))?.kind).toBe('crashed');
  });

  it('never reads a refusal once the CLI printed anything on stdout (a run began)', () => {
    expect(crashedStatus(run(claude, 1, 'partial answer'))?.kind).toBe('crashed');
    expect(crashedStatus(run(claude, 0, 'partial answer'))).toBeNull();
  });

  it('refusalLine: the first error line, else a last sentence; never a warning or a progress line', () => {
    expect(refusalLine(codex)).toBe('Not inside a trusted directory and --skip-git-repo-check was not specified.');
    expect(refusalLine('warning: the config file is old and will be ignored.\n')).toBeNull();
    expect(refusalLine('Reading additional input from stdin...\n')).toBeNull();
    expect(refusalLine('\u001b[91mNotFoundError: Session not found: ses_x\u001b[0m\n')).toBe('NotFoundError: Session not found: ses_x');
  });
});

describe('statusInErrorText: a status in parentheses after "error" (opencode UnknownError, anomalyco/opencode#47747)', () => {
  it('reads "OpenAI API error (429): {...}" and "429: {...}"', () => {
    expect(statusInErrorText('OpenAI API error (429): {"code":"rate_limit_exceeded"}')).toBe(429);
    expect(statusInErrorText('429: {"type":"FreeUsageLimitError"}')).toBe(429);
    expect(statusInErrorText('tool error (see log)')).toBeNull();
  });
});

describe('schemaRefusedStatus: only the provider wording, only before a model turn (issue 21, hcheck false positive)', () => {
  const refused = { kind: 'provider-error' as const, apiErrorStatus: 400, message: 'API Error: 400 tools.14.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level' };
  it('a 400 naming the tool input_schema path is startup-rejected before any model turn, a provider error after one', () => {
    expect(schemaRefusedStatus(refused).kind).toBe('startup-rejected');
    expect(schemaRefusedStatus(refused, [], true)).toEqual(refused);
  });
  it('a 400 that merely mentions input_schema elsewhere stays a provider error', () => {
    const message = 'API Error: 400 {"error":{"message":"messages.3.content.1.tool_use.input: Input should be a valid dictionary; the tool StructuredOutput input_schema was fine"}}';
    expect(schemaRefusal(message)).toBe(false);
    expect(schemaRefusedStatus({ kind: 'provider-error', apiErrorStatus: 400, message }).kind).toBe('provider-error');
  });
});
