/**
 * The provider mock layer (msw, about 0.3-0.6 s of CPU to load) is imported only by a command that
 * starts a mock: `--version`, `--help` and `lint` never load it. Each spawn carries a module hook
 * (NODE_OPTIONS `--import`) that writes down every module the process resolves.
 */
import { execa } from 'execa';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectPath } from '#src/paths.ts';
import { routecert, tempRoot } from './cliTestKit.ts';

let root: { dir: string; remove: () => Promise<void> };
let hook: string;
let serial = 0;

beforeAll(async () => {
  root = await tempRoot('lazy-mock');
  await writeFile(
    path.join(root.dir, 'hooks.mjs'),
    [
      "import { appendFileSync } from 'node:fs';",
      'let file;',
      'export function initialize(data) { file = data; }',
      'export async function resolve(specifier, context, next) {',
      '  const resolved = await next(specifier, context);',
      "  appendFileSync(file, `${resolved.url}\\n`);",
      '  return resolved;',
      '}',
    ].join('\n'),
  );
  hook = path.join(root.dir, 'trace.mjs');
  await writeFile(hook, "import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url, { data: process.env.ROUTECERT_TEST_TRACE });\n");
  await writeFile(path.join(root.dir, 'a.schema.json'), JSON.stringify({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false }));
});
afterAll(async () => root.remove());

/** A fresh trace file and the environment that makes a node process write into it. */
function traced(): { env: Record<string, string>; modules: () => Promise<string[]> } {
  const file = path.join(root.dir, `trace-${(serial += 1)}.txt`);
  return {
    env: { NODE_OPTIONS: `--import ${pathToFileURL(hook).href}`, ROUTECERT_TEST_TRACE: file },
    modules: async () => (await readFile(file, 'utf8')).split('\n').filter(Boolean),
  };
}

const MSW = /\/node_modules\/(msw|@mswjs)\//;

describe('the mock layer loads only where a mock starts', () => {
  it.each([[['--version']], [['--help']], [['lint', 'a.schema.json']]])('routecert %j loads no msw module', async (args) => {
    const trace = traced();
    const r = await routecert(args, { cwd: root.dir, env: trace.env });
    expect(r.exitCode, r.stderr).toBe(0);
    const modules = await trace.modules();
    // The hook saw routecert's own modules (the command table), so an empty trace cannot pass.
    expect(modules.some((m) => /\/cli\/commandTable\.(ts|js)$/.test(m))).toBe(true);
    expect(modules.filter((m) => MSW.test(m))).toEqual([]);
  });

  it('a probe driver still loads its mock when asked for its handlers (the hook sees msw then)', async () => {
    const trace = traced();
    const script = [
      `const { loadEntry } = await import(${JSON.stringify(pathToFileURL(projectPath('bin/load.js')).href)});`,
      "const { driverFor } = await loadEntry('probe/drivers');",
      "const { DEFAULT_PAYLOADS } = await loadEntry('mock/scenarios');",
      "const handlers = await driverFor('claude').handlers('final', DEFAULT_PAYLOADS);",
      'console.log(handlers.length);',
    ].join('\n');
    const r = await execa('node', ['--input-type=module', '-e', script], { cwd: root.dir, env: trace.env, reject: false });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(Number(r.stdout)).toBeGreaterThan(0);
    expect((await trace.modules()).some((m) => MSW.test(m))).toBe(true);
  });
});
