/**
 * vitest globalSetup (issue 24 point 4): one build of the sources per test run, so the hundreds of
 * `node bin/routecert.js` and `node bin/routecert-worker.js` processes the tests start load plain
 * JavaScript instead of compiling every module through tsx again (about half of each start-up's
 * CPU). The build is TypeScript's own per-file transpilation of src/ (the published build's
 * options, no type-check: `npx tsc --noEmit` does that), written to a folder beside src/ (so paths
 * found from `import.meta.url` stay right) that this run owns and removes. `ROUTECERT_DIST=<that
 * folder>` (bin/load.js) reaches every process the tests start through the environment; a test
 * that is about the checkout's own tsx start-up clears it. `ROUTECERT_TEST_BUILD=0` runs every
 * process from the sources through tsx instead.
 */
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';
import { PROJECT_ROOT } from '../../src/paths.ts';

/** The build folder's name prefix (.gitignore and eslint skip `.routecert-build-*`). */
const PREFIX = '.routecert-build-';

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) for (const f of await sources(full)) out.push(f);
    else if (!entry.name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

/** Transpile src/ into `out`: relative `.ts` imports become `.js`, `#src/*.ts` a relative path into `out`. */
async function build(out: string): Promise<void> {
  const src = path.join(PROJECT_ROOT, 'src');
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    verbatimModuleSyntax: true,
    rewriteRelativeImportExtensions: true,
    esModuleInterop: true,
    resolveJsonModule: true,
  };
  await Promise.all(
    (await sources(src)).map(async (file) => {
      const rel = path.relative(src, file);
      const dest = path.join(out, rel);
      await mkdir(path.dirname(dest), { recursive: true });
      if (!file.endsWith('.ts')) return copyFile(file, dest);
      const js = ts.transpileModule(await readFile(file, 'utf8'), { compilerOptions: options, fileName: file }).outputText;
      const here = path.dirname(dest);
      const linked = js.replace(/(["'])#src\/([^"']+)\.ts\1/g, (_m, q: string, target: string) => {
        const to = path.relative(here, path.join(out, `${target}.js`)).split(path.sep).join('/');
        return `${q}${to.startsWith('.') ? to : `./${to}`}${q}`;
      });
      return writeFile(dest.replace(/\.ts$/, '.js'), linked, 'utf8');
    }),
  );
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Build once for the run and hand the folder to every process through `ROUTECERT_DIST`. */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.ROUTECERT_TEST_BUILD === '0' || process.env.ROUTECERT_DIST !== undefined) return undefined;
  // A run that was killed leaves its folder: remove those whose vitest is gone.
  for (const entry of await readdir(PROJECT_ROOT)) {
    const pid = Number(entry.slice(PREFIX.length));
    if (entry.startsWith(PREFIX) && Number.isInteger(pid) && pid > 0 && !alive(pid)) await rm(path.join(PROJECT_ROOT, entry), { recursive: true, force: true });
  }
  const name = `${PREFIX}${process.pid}`;
  const out = path.join(PROJECT_ROOT, name);
  await rm(out, { recursive: true, force: true });
  await build(out);
  process.env.ROUTECERT_DIST = name;
  return async () => {
    delete process.env.ROUTECERT_DIST;
    await rm(out, { recursive: true, force: true });
  };
}
