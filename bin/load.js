// Shared by the bins: which code a bin runs.
// - An installed package (no src/ beside bin/) runs the build in dist/ on plain Node: no
//   TypeScript loader at run time.
// - A checkout (src/ beside bin/) runs the TypeScript sources through tsx (a dev dependency), so
//   `npx routecert` and `npm start` need no build step and never run a stale dist/. The
//   `routecert-source` condition (bin/source-conditions.js) makes `#src/*.ts` and the `routecert`
//   package resolve to src/ instead of dist/ (package.json `imports`/`exports`).
// `ROUTECERT_DIST=1` makes a checkout run dist/ (after `npm run build`), as the package does;
// `ROUTECERT_DIST=<folder>` runs another build folder beside dist/ (the tests' one-off build of the
// sources, suites/_helpers/cliBuild.globalSetup.ts).
import { existsSync } from 'node:fs';
import { register } from 'node:module';

const ROOT = new URL('../', import.meta.url);

/**
 * Import the module a bin runs: `src/<entry>.ts` in a checkout, else `dist/<entry>.js`.
 * @param {string} entry the module path under src/ or dist/, without extension (e.g. `cli/main`)
 */
export async function loadEntry(entry) {
  const source = new URL(`src/${entry}.ts`, ROOT);
  const dist = process.env.ROUTECERT_DIST ?? '';
  if (dist !== '' && dist !== '1' && dist !== '0') {
    // The tests' build of the sources: a config the run loads may still import the sources
    // (routecert.config.ts imports ./src/index.ts), so they resolve as in a checkout. Only then:
    // the loader's hook thread and tsx cost a start-up about as much CPU as all of routecert.
    if (existsSync(source) && mayImportCode(process.argv.slice(2))) await registerSources();
    return import(new URL(`${dist}/${entry}.js`, ROOT).href);
  }
  if (existsSync(source) && dist !== '1') {
    await registerSources();
    return import(source.href);
  }
  return import(new URL(`dist/${entry}.js`, ROOT).href);
}

/** Code files a config, a reporter or a route folder may be (a `.json` config needs no loader). */
const CODE = /\.(?:[cm]?ts|[cm]?js)$/;

/**
 * Whether a run of the tests' build may import code beside its own: a code file named on the
 * command line (`--config routecert.config.ts`, `--reporter ./mine.mjs`), a `--config` folder, a
 * routecert.config.* code file in the working folder (found without `--config`), or route folders.
 * @param {string[]} args the command line after the script
 */
function mayImportCode(args) {
  if (process.env.ROUTECERT_ROUTE_DIRS) return true;
  if (args.some((a, i) => CODE.test(a) || (args[i - 1] === '--config' && !a.endsWith('.json')) || /^--config=(?!.*\.json$)/.test(a))) return true;
  return ['ts', 'mts', 'cts', 'js', 'mjs', 'cjs'].some((ext) => existsSync(`routecert.config.${ext}`));
}

/** Let this process import the TypeScript sources: tsx, and the `routecert-source` condition. */
async function registerSources() {
  let tsx;
  try {
    tsx = await import('tsx/esm/api');
  } catch {
    throw new Error('routecert: this checkout runs its TypeScript sources through tsx, which is not installed: run `npm ci` (or `npm run build` and set ROUTECERT_DIST=1)');
  }
  register('./source-conditions.js', import.meta.url);
  tsx.register();
}
