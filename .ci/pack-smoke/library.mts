// The library as a user's TypeScript project uses it from the installed package (NodeNext, strict):
// judge a bundled case with the engine, and load a .ts config written with defineConfig in a folder
// whose package.json says CommonJS. Type-checked by tsc, then run on plain Node.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { decoderFor, defineConfig, judgeCase, loadConfig, loadContract, type Envelope, type CertifyConfig } from 'routecert';

const packageRoot = path.dirname(createRequire(import.meta.url).resolve('routecert/package.json'));
const file = path.join(packageRoot, 'fixtures/cases/claude-code/json/final.json');
const c = JSON.parse(await readFile(file, 'utf8')) as { route: string; contract: string; attempts: Envelope[]; expect: { verdict: string } };

const judged = judgeCase(c, await loadContract(c.contract), decoderFor(c.route));
if (judged.verdict.verdict !== c.expect.verdict) throw new Error(`judgeCase: ${judged.verdict.verdict}, expected ${c.expect.verdict}`);

const inline: CertifyConfig = defineConfig({
  worker: { name: 'w', command: ['bash', 'w.sh', '{prompt}'], prompt: 'file', artifact: '{outDir}/pov.json', windowEnv: { hardWindowS: 'H', retryMinS: 'R' } },
  routes: ['grok/json'],
});
const loaded = await loadConfig('routecert.config.ts');
if (JSON.stringify(loaded.config.routes) !== JSON.stringify(['claude-code/json'])) throw new Error(`loadConfig: routes ${JSON.stringify(loaded.config.routes)}`);

console.log(`library: judgeCase ${c.route} final -> ${judged.verdict.verdict}; routecert.config.ts (CommonJS folder) routes ${loaded.config.routes.join(',')}; inline ${inline.routes.join(',')}`);
