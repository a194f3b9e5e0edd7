/**
 * vitest setup of every project: one fast-check seed for the whole run (property suites,
 * `fc.assert`, `test.prop`), so CI gives the same verdict on the same code. `ROUTECERT_SEED=<n>`
 * replays a seed, `ROUTECERT_SEED=random` draws a fresh one on demand, and `ROUTECERT_NUM_RUNS`
 * (nightly) draws a fresh one and raises the runs; see `suiteSeed` in src/properties/run.ts.
 */
import fc from 'fast-check';
import { suiteSeed } from '#src/properties/run.ts';

fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: suiteSeed() });
