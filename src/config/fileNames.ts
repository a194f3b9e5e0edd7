/** The file names a config is found by in a folder (`--config` without a file, `run`, `lint`, `certify`), in this order; `init` writes the first (or `.json`). */
export const CONFIG_FILE_NAMES = ['routecert.config.ts', 'routecert.config.mts', 'routecert.config.cts', 'routecert.config.mjs', 'routecert.config.js', 'routecert.config.cjs', 'routecert.config.json'] as const;
