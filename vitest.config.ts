import { defineConfig } from 'vitest/config';

/**
 * Three projects:
 * - unit: tests beside the code (src/**\/*.test.ts);
 * - conformance: suites generated from the corpus (suites/);
 * - probes: hermetic probes of the real installed CLIs (probes/*.test.ts); each skips with a
 *   visible reason when its CLI is not installed (`npm run probes:install`).
 */
export default defineConfig({
  test: {
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts'] } },
      { extends: true, test: { name: 'conformance', include: ['suites/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'probes',
          include: ['probes/**/*.test.ts'],
          exclude: ['probes/node_modules/**'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
