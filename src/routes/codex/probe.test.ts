import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CODEX_FORBIDDEN_FLAGS, CODEX_TEST_API_KEY, codexArgv, codexRejectionLine } from './probe.ts';
import { codexDriver } from './route.ts';

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((r) => rm(r, { recursive: true, force: true })));
});

async function workspace() {
  const root = await mkdtemp(join(tmpdir(), 'routecert-codex-unit-'));
  roots.push(root);
  const ws = { root, home: join(root, 'home'), cwd: join(root, 'work'), tmpDir: join(root, 'tmp') };
  await Promise.all([mkdir(ws.home), mkdir(ws.cwd), mkdir(ws.tmpDir)]);
  return ws;
}

describe('codexArgv', () => {
  it('runs exec with JSONL, the schema file, the -o file, read-only, stdin prompt; paths shown as placeholders', () => {
    const { argv, display } = codexArgv({ schemaFile: '/x/s.json', lastMessageFile: '/x/o.txt', model: 'm' });
    expect(argv).toEqual(['exec', '--json', '--output-schema', '/x/s.json', '-o', '/x/o.txt', '--skip-git-repo-check', '--ephemeral', '-s', 'read-only', '--color', 'never', '-m', 'm', '-']);
    expect(display).toEqual(argv.map((a) => (a === '/x/s.json' ? '<schema-file>' : a === '/x/o.txt' ? '<last-message-file>' : a)));
    for (const flag of CODEX_FORBIDDEN_FLAGS) expect(argv).not.toContain(flag);
  });

  it('leaves --output-schema out when there is no schema', () => {
    expect(codexArgv({ schemaFile: null, lastMessageFile: '/x/o.txt' }).argv).not.toContain('--output-schema');
  });
});

describe('codexDriver.prepare', () => {
  it('writes config.toml with the mock as a custom Responses provider, the schema file, and names the -o side file', async () => {
    const ws = await workspace();
    const schema = { type: 'object', properties: {}, required: [], additionalProperties: false };
    const run = await codexDriver.prepare({ route: 'codex/jsonl', schema, prompt: 'p', mockUrl: 'http://127.0.0.1:4321', workspace: ws });
    const config = await readFile(join(ws.home, '.codex', 'config.toml'), 'utf8');
    expect(config).toContain('model_provider = "routecert_mock"');
    expect(config).toContain('base_url = "http://127.0.0.1:4321/v1"');
    expect(config).toContain('wire_api = "responses"');
    expect(config).toContain('env_key = "ROUTECERT_MOCK_API_KEY"');
    expect(config).toMatch(/^plugins = false$/m);
    const schemaFile = run.argv[run.argv.indexOf('--output-schema') + 1]!;
    expect(JSON.parse(await readFile(schemaFile, 'utf8'))).toEqual(schema);
    expect(run.files).toEqual({ 'last-message': run.argv[run.argv.indexOf('-o') + 1] });
    expect(run.stdin).toBe('p');
    expect(run.env).toMatchObject({ HOME: ws.home, CODEX_HOME: join(ws.home, '.codex'), ROUTECERT_MOCK_API_KEY: CODEX_TEST_API_KEY, NO_PROXY: '127.0.0.1,localhost' });
    expect(Object.keys(run.env)).not.toContain('OPENAI_API_KEY');
  });

  it('refuses a route it does not run', async () => {
    const ws = await workspace();
    await expect(codexDriver.prepare({ route: 'codex/text', schema: null, prompt: 'p', mockUrl: 'http://127.0.0.1:1', workspace: ws })).rejects.toThrow(/codex has no route codex\/text/);
  });
});

describe('codexRejectionLine', () => {
  it("picks Codex's own refusal of the schema file from stderr", () => {
    expect(codexRejectionLine('Reading additional input from stdin...\nOutput schema file /x/s.json is not valid JSON: EOF\n')).toBe('Output schema file /x/s.json is not valid JSON: EOF');
    expect(codexRejectionLine('Reading additional input from stdin...\n')).toBeNull();
  });
});
