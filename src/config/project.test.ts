import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFor, loadProjectConfig, clisOf, profilesOf } from '#src/config/project.ts';
import { projectPath } from '#src/paths.ts';

let dir: string;
const SCHEMA = { type: 'object', required: ['answer'], properties: { answer: { type: 'string' } } };
const contract = (extra: Record<string, unknown> = {}) => ({ name: 'a', schema: 'a.schema.json', anchor: 'answer', finality: 'none', selection: 'score', ...extra });

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'routecert-config-'));
  await writeFile(path.join(dir, 'a.schema.json'), JSON.stringify(SCHEMA));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function config(name: string, value: unknown): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, JSON.stringify(value));
  return file;
}

describe('loadProjectConfig', () => {
  it('builds contracts against the config folder, whatever the working folder', async () => {
    const loaded = await loadProjectConfig(await config('ok.json', { cases: 'my-cases', contracts: [contract({ clis: ['claude', 'gemini'] })] }));
    expect(loaded.contracts.map((c) => c.name)).toEqual(['a']);
    expect(loaded.contracts[0]!.definition.schemaFile).toBe(path.join(dir, 'a.schema.json'));
    expect(loaded.casesDir).toBe(path.join(dir, 'my-cases'));
    expect(loaded.certify).toBeNull();
    expect(clisOf(loaded.contracts[0]!)).toEqual(['claude', 'gemini']);
    expect(profilesOf(loaded.contracts[0]!)).toEqual(['claude-code']);
  });

  it('names every problem with the contract index and name', async () => {
    const file = await config('bad.json', { contracts: [contract(), contract(), contract({ name: 'b', clis: ['claud'] }), contract({ name: 'c', schema: 'gone.json' })] });
    const error = await loadProjectConfig(file).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toContain('contracts/1 ("a"): a contract named "a" is defined twice');
    expect(message).toContain('contracts/2 ("b"): unknown CLI "claud" in clis');
    expect(message).toContain('contracts/3 ("c"): schema file gone.json not found');
  });

  it('names every problem of one contract in one round, each with a did-you-mean (they came one per round: fields, then the anchor, then clis)', async () => {
    const typos = { anchor: 'answr', selection: 'scor', textFallback: 'fence', clis: ['claud'] };
    const expected = [
      'unknown CLI "claud" in clis (known: claude,',
      '; did you mean "claude"?',
      '`selection` must be "score" or "last-shaped"; did you mean "score"?',
      '`textFallback` must be "any", "fenced" or "off"; did you mean "fenced"?',
      '`anchor` "answr" names no property of a.schema.json: the schema at /properties lists "answer"; did you mean "answer"?',
    ];
    const json = ((await loadProjectConfig(await config('typos.json', { contracts: [contract(typos)] })).catch((e: Error) => e)) as Error).message;
    for (const text of expected) expect(json).toContain(text);
    // A .ts config's defineContract refuses at import time, before the config's folder is known: the
    // loader checks the definition again against that folder, so the anchor and clis come in the same round.
    // Two broken contracts and a misspelt top-level field: all in the one round, each labelled (a .ts
    // config's first refusing defineContract ended its import, one contract per round).
    const ts = path.join(dir, 'typos.config.ts');
    const second = contract({ name: 'b', finality: 'nnoe' });
    await writeFile(ts, `import { defineConfig, defineContract } from ${JSON.stringify(pathToFileURL(projectPath('src/index.ts')).href)};\nexport default defineConfig({ case: 'cases', contracts: [defineContract(${JSON.stringify(contract(typos))} as never), defineContract(${JSON.stringify(second)} as never)] } as never);\n`);
    const fromTs = ((await loadProjectConfig(ts).catch((e: Error) => e)) as Error).message;
    for (const text of expected) expect(fromTs).toContain(text);
    expect(fromTs).toContain('contracts/0 ("a"): `anchor` "answr" names no property');
    expect(fromTs).toContain('contracts/1 ("b"): `finality` must be { key: "<boolean member>" } or "none"; did you mean "none"?');
    expect(fromTs).toContain('unknown field `case`');
    expect(fromTs).not.toContain(path.join(dir, 'a.schema.json'));
  });

  it("a worker's `contract` may name one of the config's own contracts (a JSON config cannot refer to it otherwise)", async () => {
    const worker = { name: 'w', command: ['python3', 'w.py', '{prompt}', '{outDir}'], prompt: 'file', artifact: '{outDir}/a.json', windowEnv: { hardWindowS: 'H' } };
    const loaded = await loadProjectConfig(await config('own.json', { contracts: [contract()], worker, routes: ['claude-code/json'], contract: 'a' }));
    expect(loaded.certify?.config.contract).toBe(loaded.contracts[0]);
    const stray = await loadProjectConfig(await config('stray.json', { contracts: [contract()], worker, routes: ['claude-code/json'], contract: 'b' })).catch((e: Error) => e);
    expect((stray as Error).message).toContain("the name of a contract of this config's `contracts`");
  });

  it('a config with neither contracts nor a worker is refused', async () => {
    await expect(loadProjectConfig(await config('empty.json', {}))).rejects.toThrow(/neither `contracts`.*nor `worker`/);
  });

  it('configFor finds routecert.config.* in a folder, and none outside', async () => {
    const sub = await mkdtemp(path.join(dir, 'sub-'));
    expect(await configFor(undefined, sub)).toBeNull();
    await writeFile(path.join(sub, 'routecert.config.json'), JSON.stringify({ contracts: [contract({ schema: path.join(dir, 'a.schema.json') })] }));
    expect((await configFor(undefined, sub))?.contracts.map((c) => c.name)).toEqual(['a']);
    expect((await configFor(sub))?.file).toBe(path.join(sub, 'routecert.config.json'));
  });
});
