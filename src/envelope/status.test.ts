import { describe, expect, it } from 'vitest';
import { argumentRejectionLine, crashedStatus, incompleteStatus, noteLostOutput, outputTokens } from './status.ts';

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
    expect(crashedStatus(run('', 0))).toBeNull();
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
