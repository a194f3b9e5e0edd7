import { describe, expect, it } from 'vitest';
import { didYouMean } from '#src/diagnostics/didYouMean.ts';
import { outputFiles, replayCommand, UsageError } from './options.ts';

describe('didYouMean', () => {
  const routes = ['claude-code', 'claude-code/json', 'codex', 'codex/jsonl', 'gemini-cli', 'qwen-code'];
  it('offers the family a prefix names, and near misses', () => {
    expect(didYouMean('claude', routes)[0]).toBe('claude-code');
    expect(didYouMean('codx', routes)[0]).toBe('codex');
    expect(didYouMean('nosuchcli', routes)).toEqual([]);
  });
});

describe('outputFiles', () => {
  it('maps name=path, and a bare path to the only file reporter', () => {
    expect(outputFiles(['junit=ci/j.xml'], ['default', 'junit'])).toEqual({ junit: 'ci/j.xml' });
    expect(outputFiles(['ci/r.html'], ['default', 'html'])).toEqual({ html: 'ci/r.html' });
  });
  it('refuses a reporter not chosen, a console reporter, an ambiguous bare path', () => {
    expect(() => outputFiles(['junit=x'], ['default'])).toThrow(/not chosen/);
    expect(() => outputFiles(['dot=x'], ['dot'])).toThrow(/writes to the console/);
    expect(() => outputFiles(['x'], ['junit', 'html'])).toThrow(UsageError);
  });
});

describe('replayCommand', () => {
  it('keeps --cases, --config and --generic, quoting what needs it', () => {
    expect(replayCommand({})('abc')).toBe('npx routecert run --case abc --no-probes');
    expect(replayCommand({ cases: 'my cases', config: 'rc.config.ts', generic: ['x/json=key=answer;text'] })('abc')).toBe(
      "npx routecert run --case abc --cases 'my cases' --config rc.config.ts --generic 'x/json=key=answer;text' --no-probes",
    );
  });
});
