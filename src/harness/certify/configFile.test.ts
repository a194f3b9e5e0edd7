import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { projectPath } from '#src/paths.ts';
import { importConfigFile } from './configFile.ts';

const run = promisify(execFile);
const root = mkdtempSync(path.join(tmpdir(), 'routecert-config-file-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const TS_CONFIG = "import { defineConfig } from 'routecert';\nconst routes: string[] = ['grok/json'];\nexport default defineConfig({ routes, kind: 'ts' } as never);\n";
/** Config files of every supported extension, each exporting `{ routes: ['grok/json'], kind }`. */
const FILES: Record<string, string> = {
  'routecert.config.ts': TS_CONFIG,
  'routecert.config.mts': TS_CONFIG.replace("'ts'", "'mts'"),
  'routecert.config.cts': "const routes: string[] = ['grok/json'];\nmodule.exports = { routes, kind: 'cts' };\n",
  'routecert.config.mjs': "import { defineConfig } from 'routecert';\nexport default defineConfig({ routes: ['grok/json'], kind: 'mjs' });\n",
  'routecert.config.js': "export default { routes: ['grok/json'], kind: 'js' };\n",
  'routecert.config.cjs': "module.exports = { routes: ['grok/json'], kind: 'cjs' };\n",
  'routecert.config.json': '{ "routes": ["grok/json"], "kind": "json" }\n',
};
/** Folders whose nearest package.json says CommonJS (no "type"), ESM, or that have none. */
const FOLDERS: Record<string, string | null> = { 'no-type': '{ "name": "team" }', module: '{ "name": "team", "type": "module" }', 'no-package-json': null };

for (const [folder, packageJson] of Object.entries(FOLDERS)) {
  const dir = path.join(root, folder);
  mkdirSync(dir, { recursive: true });
  if (packageJson !== null) writeFileSync(path.join(dir, 'package.json'), packageJson);
  // One folder per file: tsx would take routecert.config.ts for an import of routecert.config.js.
  for (const [name, text] of Object.entries(FILES)) {
    mkdirSync(path.join(dir, extOf(name)));
    writeFileSync(path.join(dir, extOf(name), name), text);
  }
}

function extOf(name: string): string {
  return path.extname(name).slice(1);
}

describe('importConfigFile', () => {
  it('loads every extension in every kind of folder as the command line of a checkout runs it (tsx)', async () => {
    // The command line runs the sources through tsx, which takes a .ts file in a folder without
    // "type": "module" as CommonJS: `Cannot require() ES Module ... in a cycle` before jiti. (The
    // build on plain Node is checked by .ci/pack-smoke.sh, from the installed tarball.)
    const script = [
      `const { importConfigFile } = await import(${JSON.stringify(projectPath('src/harness/certify/configFile.ts'))});`,
      `await import(${JSON.stringify(projectPath('src/index.ts'))});`,
      'const out = [];',
      `for (const folder of ${JSON.stringify(Object.keys(FOLDERS))}) for (const name of ${JSON.stringify(Object.keys(FILES))}) {`,
      `  const m = await importConfigFile(${JSON.stringify(root)} + '/' + folder + '/' + name.split('.').pop() + '/' + name);`,
      '  out.push([folder, name, m.default?.kind]);',
      '}',
      'console.log(JSON.stringify(out));',
    ].join('\n');
    const { stdout } = await run(process.execPath, ['--conditions=routecert-source', '--import', 'tsx', '--input-type=module', '-e', script], { cwd: projectPath(), timeout: 120_000 });
    const rows = JSON.parse(stdout) as [string, string, string][];
    expect(rows).toHaveLength(Object.keys(FOLDERS).length * Object.keys(FILES).length);
    for (const [folder, name, kind] of rows) expect({ folder, name, kind }).toEqual({ folder, name, kind: extOf(name) });
  }, 120_000);

  it('names the supported extensions for another one, and says when JSON does not parse', async () => {
    writeFileSync(path.join(root, 'routecert.config.yaml'), 'routes: []\n');
    await expect(importConfigFile(path.join(root, 'routecert.config.yaml'))).rejects.toThrow(/unsupported extension "\.yaml" \(a config file ends in \.ts, \.mts, \.cts, \.js, \.mjs, \.cjs, \.json\)/);
    writeFileSync(path.join(root, 'broken.json'), '{ "routes": [');
    await expect(importConfigFile(path.join(root, 'broken.json'))).rejects.toThrow(/not valid JSON/);
  });
});

describe('a config module without a default export', () => {
  it('is said as such, naming what it exports (it read "the config must be an object")', async () => {
    const { importConfig } = await import('./config.ts');
    const file = path.join(root, 'no-default', 'routecert.config.mjs');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, "export const config2 = { routes: ['grok/json'] };\n");
    await expect(importConfig(file)).rejects.toThrow(/has no default export \(it exports config2\): end it with `export default defineConfig\(\{\.\.\.\}\)`/);
  });
});
