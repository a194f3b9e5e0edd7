import { describe, expect, it } from 'vitest';
import { projectPath } from '#src/paths.ts';
import { CertifyConfigError, configProblems, fillTemplate, loadConfig } from './config.ts';
import { chunked, findCase, longStderr } from './cases.ts';
import type { LoadedCase } from '#src/record/corpus.ts';

const worker = { name: 'w', command: ['bash', 'w.sh', '{prompt}', '{out}'], prompt: 'file', windowEnv: { hardWindowS: 'H', retryMinS: 'R' } };

describe('configProblems', () => {
  it('accepts a command adapter and an in-process one', () => {
    expect(configProblems({ worker, routes: ['claude-code/json'] })).toEqual([]);
    expect(configProblems({ worker: { name: 'w', run: async () => undefined, windowEnv: { hardWindowS: 'H', retryMinS: 'R' } }, routes: ['grok/json'] })).toEqual([]);
  });

  it('names each problem, listing the valid values', () => {
    const problems = configProblems({ worker: { ...worker, command: ['x', '{promt}'], prompt: 'fax' }, routes: [], contract: 'findings' });
    expect(problems).toEqual([
      '`worker.prompt` must be one of: stdin, file, argument, none',
      expect.stringContaining('unknown placeholder {promt} in "{promt}" (known: {route}, {routeArg}, {schema}, {prompt}'),
      '`routes` must be a non-empty array of route ids (e.g. "claude-code/stream-json")',
      expect.stringContaining("`contract` must be a shipped contract's name (pov, findings-code, findings-doc,"),
    ]);
  });

  it('suggests the value meant for a misspelt prompt mode, placeholder and contract name (a shipped one or one of the config\'s own)', () => {
    const problems = configProblems({ worker: { ...worker, command: ['x', '{promt}'], prompt: 'fil' }, routes: ['claude-code/json'], contract: 'povv' });
    expect(problems).toEqual([
      '`worker.prompt` must be one of: stdin, file, argument, none; did you mean "file"?',
      expect.stringMatching(/^unknown placeholder \{promt\} in "\{promt\}" \(known: .*\); did you mean \{prompt\}\?$/),
      expect.stringMatching(/, not "povv"; did you mean "pov"\?$/),
    ]);
    const own = configProblems({ worker, routes: ['claude-code/json'], contract: 'reveiw', contracts: [{ name: 'review', schema: 'r.json', anchor: 'a', finality: 'none', selection: 'score' }] });
    expect(own).toEqual([expect.stringMatching(/, not "reveiw"; did you mean "review"\?$/)]);
  });

  it('refuses a route-keyed worker map whose key is no route routecert certifies, with a did-you-mean', () => {
    const problems = configProblems({ worker: { ...worker, routeNames: { 'claude-code/stream-jsn': 'claude' }, routeEnv: { 'grok/json': { A: 'b' } } }, routes: ['claude-code/stream-json'] });
    expect(problems).toEqual([expect.stringMatching(/^unknown route `claude-code\/stream-jsn` in `worker\.routeNames` \(known: .*\); did you mean "claude-code\/stream-json"\?$/)]);
  });

  it('accepts a schema channel per route and tools given by name or path, and names bad ones', () => {
    expect(configProblems({ worker: { ...worker, schemaChannel: { 'codex/jsonl': 'prompt' }, tools: ['git', 'tools/jq'] }, routes: ['codex/jsonl'] })).toEqual([]);
    expect(configProblems({ worker: { ...worker, schemaChannel: { 'codex/jsonl': 'stdin' }, tools: 'jq' }, routes: ['codex/jsonl'] })).toEqual([
      '`worker.tools` must be an array of tool names (`git`) or paths (`tools/jq`)',
      '`worker.schemaChannel` must map route ids to "flag" or "prompt" (how the worker hands the schema to the CLI on that route)',
    ]);
  });

  it("accepts a shipped contract by name ('findings-code')", () => {
    expect(configProblems({ worker, routes: ['codex/jsonl'], contract: 'findings-code' })).toEqual([]);
  });

  it('accepts an artifact adapter and a contract definition, and names a bad one', () => {
    const contract = { name: 'ours', schema: 'ours.schema.json', anchor: 'answer', finality: 'none', selection: 'last-shaped' };
    expect(configProblems({ worker: { ...worker, artifact: { path: '{outDir}/a.json', select: (j: unknown) => j, strict: true } }, routes: ['grok/json'], contract })).toEqual([]);
    expect(configProblems({ worker: { ...worker, artifact: { path: '{outDir}/{nope}.json', select: 'x', strict: 1 } }, routes: ['grok/json'] })).toEqual([
      '`worker.artifact.select` must be a function (json) => answer',
      '`worker.artifact.strict` must be true or false',
      expect.stringContaining('unknown placeholder {nope}'),
    ]);
    expect(configProblems({ worker: { ...worker, artifact: { select: (j: unknown) => j } }, routes: ['grok/json'] })).toEqual(['`worker.artifact` must be a path template or `{ path, select?, strict? }`']);
  });

  it('names a misspelt route with the other problems, in one round (it came only after they were fixed, after the header printed)', () => {
    expect(configProblems({ worker: { ...worker, windowEnv: {} }, routes: ['claude-code/json', 'claude-code/jsn'] })).toEqual([
      expect.stringContaining('`worker.windowEnv` must name the environment variable `hardWindowS`'),
      expect.stringMatching(/^unknown route `claude-code\/jsn` in `routes\[1\]` \(known: .*claude-code\/stream-json.*\); did you mean `claude-code\/json`/),
    ]);
  });

  it('wants the prompt file placeholder when the prompt goes by file', () => {
    expect(configProblems({ worker: { ...worker, command: ['w.sh'] }, routes: ['grok/json'] })).toEqual(['`worker.prompt` is "file" but no command token uses {prompt}']);
  });
});

describe('fillTemplate', () => {
  it('replaces placeholders and refuses one without a value', () => {
    expect(fillTemplate('{outDir}/pov-{routeArg}.json', { outDir: '<tmp>/out', routeArg: 'claude' })).toBe('<tmp>/out/pov-claude.json');
    expect(() => fillTemplate('{log}', {})).toThrow(CertifyConfigError);
  });
});

describe('loadConfig', () => {
  it('loads the bundled routecert.config.ts (the reference worker)', async () => {
    const loaded = await loadConfig(projectPath('routecert.config.ts'));
    expect(loaded.config.worker.command?.slice(0, 2)).toEqual(['node', 'bin/routecert-worker.js']);
    expect(loaded.dir).toBe(projectPath());
  });

  it('says a missing file is missing', async () => {
    await expect(loadConfig(projectPath('no-such.config.ts'))).rejects.toThrow(/not found/);
  });
});

describe('replayed attempts', () => {
  it('chunked() cuts stdout anywhere and keeps every byte in order', () => {
    const out = chunked({ stdout: '{"type":"result","structured_output":{"a":1}}\n', stderr: 'warn', exitCode: 0 }, 4, 100);
    expect(out.chunks!.filter((c) => c.stream === 'stdout').map((c) => c.data).join('')).toBe('{"type":"result","structured_output":{"a":1}}\n');
    expect(out.chunks!.length).toBe(5);
    expect(out.chunks![0]!.delayMs).toBeUndefined();
    expect(out.chunks![1]!.delayMs).toBe(100);
  });

  it('longStderr() opens with the message and never repeats a line', () => {
    const text = longStderr('schema invalid\n');
    expect(text.startsWith('schema invalid\n')).toBe(true);
    expect(text.length).toBeGreaterThan(4000);
    const lines = text.trim().split('\n');
    expect(new Set(lines).size).toBe(lines.length);
  });

  it('findCase() looks in the route first, then as far as the scope allows', () => {
    const make = (file: string, route: string, tags: string[]): LoadedCase => ({
      file,
      warnings: [],
      case: { id: file, description: '', route, cli: { name: 'x', version: '1' }, provenance: { source: 'documented', date: '2026-11-30' }, contract: 'pov', attempts: [], expect: { verdict: 'crashed' }, tags },
    });
    const cases = [make('b/claude-json.json', 'claude-code/json', ['t']), make('a/cursor.json', 'cursor-agent/json', ['t']), make('c/claude-stream.json', 'claude-code/stream-json', ['u'])];
    expect(findCase(cases, 'claude-code/stream-json', { tags: ['t'], scope: 'route' })).toBeUndefined();
    expect(findCase(cases, 'claude-code/stream-json', { tags: ['t'], scope: 'cli' })?.file).toBe('b/claude-json.json');
    expect(findCase(cases, 'grok/json', { tags: ['t'], scope: 'cli' })).toBeUndefined();
    expect(findCase(cases, 'grok/json', { tags: ['t'], scope: 'any' })?.file).toBe('a/cursor.json');
    expect(findCase(cases, 'claude-code/stream-json', { tags: ['u'] })?.file).toBe('c/claude-stream.json');
  });
});
