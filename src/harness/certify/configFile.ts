/**
 * Loading a user's config file, whatever its language and wherever it is: `.ts`, `.mts`, `.cts`,
 * `.mjs`, `.cjs`, `.js` or `.json`, in a folder whose nearest package.json says `"type": "module"`,
 * says nothing, or does not exist (issue 10 part 5: a `.ts` config in a folder without
 * `"type": "module"` failed with `Cannot require() ES Module ... in a cycle` under tsx).
 *
 * JavaScript and TypeScript are imported by the running loader first (plain Node for the build in
 * dist/; tsx in a checkout; vitest in tests). When that fails (plain Node and a `.ts` file; ESM
 * syntax in a folder the nearest package.json makes CommonJS), jiti compiles the file itself, so
 * the package type does not matter. The config's `import ... from 'routecert'` then gets the very
 * module the running routecert uses (jiti `virtualModules`), not a second copy compiled again: the
 * package entry (src/index.ts) and the command line hand it in with {@link providePackageModule}, so
 * this loader never imports the package entry itself (the entry exports this module: a cycle).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createJiti } from 'jiti';
import { abandonWork } from '#src/process/interrupt.ts';
import { describeJsonSyntaxError } from '#src/schema/jsonError.ts';
import { NUMERIC_VARIABLES, numericVariable } from '#src/envNumbers.ts';

let packageModule: (() => Promise<unknown>) | null = null;

/**
 * Name the module a compiled config's `import ... from 'routecert'` gets: `load` returns the running
 * package entry. Until one is given, jiti resolves `routecert` from the config's folder.
 */
export function providePackageModule(load: () => Promise<unknown>): void {
  packageModule = load;
}

/** The extensions a config file may have. */
export const CONFIG_EXTENSIONS = ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs', '.json'] as const;


/**
 * How long a config may take to load (ms): a top-level `await` that never settles is an error after
 * this (issue 23 point 6). `ROUTECERT_CONFIG_TIMEOUT_MS` sets another bound (a whole number of ms
 * above 0; anything else is refused before any command runs: src/envNumbers.ts).
 */
export const CONFIG_LOAD_TIMEOUT_MS = 30_000;

function loadBound(): number {
  return numericVariable(NUMERIC_VARIABLES.configTimeoutMs) ?? CONFIG_LOAD_TIMEOUT_MS;
}

/**
 * Import `file` (an absolute path) and return its module namespace (`.json`: `{ default: <value> }`).
 *
 * @throws {Error} with the loader's own message when the file does not parse or its code throws;
 *   for an unknown extension, an error naming {@link CONFIG_EXTENSIONS}; when it has not finished
 *   loading after {@link CONFIG_LOAD_TIMEOUT_MS} (a top-level await that never settles), an error
 *   saying so.
 */
export async function importConfigFile(file: string): Promise<Record<string, unknown>> {
  const bound = loadBound();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abandonWork(`loading ${file}`);
      reject(new Error(`it did not finish loading within ${bound / 1000} s (a top-level await that never settles?)`));
    }, bound);
  });
  try {
    return await Promise.race([importUnbounded(file), expired]);
  } finally {
    clearTimeout(timer);
  }
}

async function importUnbounded(file: string): Promise<Record<string, unknown>> {
  const extension = path.extname(file).toLowerCase();
  if (!(CONFIG_EXTENSIONS as readonly string[]).includes(extension)) {
    throw new Error(`unsupported extension "${extension}" (a config file ends in ${CONFIG_EXTENSIONS.join(', ')})`);
  }
  if (extension === '.json') {
    const text = await readFile(file, 'utf8');
    try {
      return { default: JSON.parse(text) as unknown };
    } catch (error) {
      throw new Error(`not valid JSON: ${describeJsonSyntaxError(text, error)}`, { cause: error });
    }
  }
  try {
    return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch {
    // not loadable by the running loader: jiti below compiles it
  }
  const virtualModules: Record<string, unknown> = packageModule ? { routecert: await packageModule() } : {};
  const jiti = createJiti(file, { fsCache: false, moduleCache: false, interopDefault: false, virtualModules });
  return (await jiti.import(file)) as Record<string, unknown>;
}
