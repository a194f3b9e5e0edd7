/**
 * How a benchmark starts a child process that runs routecert: always on the code under test. In a
 * checkout that is the TypeScript sources, through tsx, with the `routecert-source` condition (which
 * maps `#src/*.ts` to src/ rather than to dist/, package.json `imports`); without the condition a
 * child would load dist/, a stale build or none at all (issue 24: after `npm ci` every memory child
 * failed with ERR_MODULE_NOT_FOUND and its target line still read `met`).
 */

/** Node arguments that make a child run the sources of this checkout (put them before the script). */
export const SOURCE_CHILD_ARGS: readonly string[] = ['--conditions=routecert-source', '--import', 'tsx'];

/**
 * The environment of a child that runs `bin/routecert.js`: the parent's, without `ROUTECERT_DIST`
 * (which would make the bin load dist/ instead of the sources, bin/load.js).
 */
export function sourceChildEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env.ROUTECERT_DIST;
  return env;
}
