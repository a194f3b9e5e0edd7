/**
 * Every bundled case conforms: the reference decoders and contracts reach the expected verdict.
 */
import { describe, expect, it } from 'vitest';
import { runCase } from '#src/harness/runCorpus.ts';
import { corpus } from './_helpers/corpus.ts';

describe('bundled corpus', () => {
  it('loads every case file without error', () => {
    expect(corpus.errors).toEqual([]);
    expect(corpus.cases.length).toBeGreaterThanOrEqual(14);
  });

  it('keeps case ids unique and equal to their content hash', () => {
    const ids = corpus.cases.map((c) => c.case.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(corpus.cases.flatMap((c) => c.warnings)).toEqual([]);
  });

  it('holds at least 14 cases recorded from the real Claude Code', () => {
    const recorded = corpus.cases.filter((c) => c.case.provenance.source === 'recorded' && c.case.cli.name === 'claude');
    expect(recorded.length).toBeGreaterThanOrEqual(14);
  });

  it.each(corpus.cases.map((c) => [`${c.case.id} ${c.case.route}: ${c.case.description}`, c] as const))('%s', async (_label, loaded) => {
    const result = await runCase(loaded);
    expect(result.problems, result.replay).toEqual([]);
    expect(result.outcome).toBe('pass');
  });
});
