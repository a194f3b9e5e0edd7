import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * Five projects:
 * - unit: tests beside the code (src/**\/*.test.ts);
 * - conformance: suites generated from the corpus and the property suites (suites/); kept under
 *   60 s on a 2-core machine (issue 6), so the worker certification below is a project of its own;
 * - certify: end-to-end certification of real worker processes behind fake CLIs (suites/certify*.test.ts:
 *   the reference worker, the example bash worker and its miniature broken workers);
 * - team: routecert installed into a temporary folder of its own, driven with npx as a team would
 *   (suites/team/: their contracts, cases, init), and a team's own CLI folder added through
 *   ROUTECERT_ROUTE_DIRS (suites/fixture-cli.test.ts, which needs a fresh module graph, so it cannot
 *   share conformance's unisolated workers);
 * - probes: hermetic probes of the real installed CLIs (probes/*.test.ts); each skips with a
 *   visible reason when its CLI is not installed (`npm run probes:install`).
 *
 * Two stages, one after the other (`sequence.groupOrder`; issue 24):
 * 1. unit and conformance, in-process and CPU-bound: two workers (vitest's default on two cores is
 *    one), and neither with per-file isolation, so their files share the loaded sources, the corpus
 *    and the property env instead of importing them again for each of their 135 files (a unit test
 *    that changes process state, such as a spy, an environment variable or the working folder,
 *    restores it);
 * 2. the end-to-end projects (certify, team, probes), whose files spawn real processes and wait on
 *    them (CLI start-ups, deadlines): two files at a time, each in its own isolated worker.
 * `VITEST_MAX_WORKERS` overrides both stages' worker count (e.g. 1 to run every file alone).
 *
 * `npm test` runs unit, conformance, certify and team; `npm run test:probes` the probes project,
 * the real CLIs (CI's end-to-end stage, after `npm test`); `npm run test:all` all five (README
 * "Tests", issue 24).
 */
const WORKERS = Number(process.env.VITEST_MAX_WORKERS ?? '') || 2;

export default defineConfig({
  // `#src/*.ts` resolves to the sources under the `routecert-source` condition (package.json
  // `imports`); without it, to the build in dist/ (what the published package runs).
  ssr: { resolve: { conditions: ['routecert-source', ...defaultServerConditions] } },
  test: {
    // Generous deadlines: a test asserts behaviour, not speed (timing goals live in bench/), and a
    // shared 2-core machine under load can take many times vitest's 5 s default for one that
    // spawns processes or loads the CLI. A hang still fails, five minutes later: the CPU-bound
    // conformance suites (contracts-evidence-bounded, never-throws, large-envelope) took 25-32 s a
    // test alone and went past a 60 s limit at load 30 on this 2-core machine (2026-12-02).
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // One fast-check seed per run (fixed unless ROUTECERT_SEED or ROUTECERT_NUM_RUNS ask otherwise).
    setupFiles: ['suites/_helpers/seed.setup.ts'],
    // One build of the sources per run for every `node bin/routecert*.js` the tests start (each would
    // otherwise compile its modules through tsx again): ROUTECERT_DIST names it (bin/load.js).
    globalSetup: ['suites/_helpers/cliBuild.globalSetup.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts'], isolate: false, maxWorkers: WORKERS, sequence: { groupOrder: 0 } } },
      {
        extends: true,
        test: {
          name: 'conformance',
          include: ['suites/**/*.test.ts'],
          exclude: ['suites/certify*.test.ts', 'suites/consumers.test.ts', 'suites/team/**', 'suites/fixture-cli.test.ts'],
          isolate: false,
          maxWorkers: WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: 'team', include: ['suites/team/**/*.test.ts', 'suites/fixture-cli.test.ts'], maxWorkers: WORKERS, sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: 'certify', include: ['suites/certify*.test.ts', 'suites/consumers.test.ts'], maxWorkers: WORKERS, sequence: { groupOrder: 1 } } },
      {
        extends: true,
        test: {
          name: 'probes',
          include: ['probes/**/*.test.ts'],
          exclude: ['probes/node_modules/**'],
          maxWorkers: WORKERS,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
