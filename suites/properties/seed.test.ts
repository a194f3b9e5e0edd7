/**
 * The seed of routecert's own suites: fixed in CI (the same code gets the same verdict), a fresh one
 * on demand (`ROUTECERT_SEED=random`) and in a nightly run (`ROUTECERT_NUM_RUNS`), a given one replayed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SUITE_SEED, suiteSeed } from '#src/properties/run.ts';

describe('suite seed', () => {
  it('is the fixed seed when nothing asks for another, and every fast-check run of the suites uses it', () => {
    expect(suiteSeed({})).toBe(SUITE_SEED);
    if (process.env.ROUTECERT_SEED === undefined && process.env.ROUTECERT_NUM_RUNS === undefined) expect(fc.readConfigureGlobal().seed).toBe(SUITE_SEED);
  });

  it('replays ROUTECERT_SEED, draws a fresh one for ROUTECERT_SEED=random or a nightly ROUTECERT_NUM_RUNS', () => {
    expect(suiteSeed({ ROUTECERT_SEED: '846370098' })).toBe(846370098);
    expect(suiteSeed({ ROUTECERT_SEED: '7', ROUTECERT_NUM_RUNS: '5000' })).toBe(7);
    const fresh = [suiteSeed({ ROUTECERT_SEED: 'random' }), suiteSeed({ ROUTECERT_NUM_RUNS: '5000' }), suiteSeed({ ROUTECERT_NUM_RUNS: '5000' })];
    expect(fresh.filter((s) => s !== SUITE_SEED).length).toBeGreaterThan(0);
    expect(() => suiteSeed({ ROUTECERT_SEED: 'abc' })).toThrow(/ROUTECERT_SEED="abc" is no seed: it takes a 32-bit integer or "random"/);
  });
});
