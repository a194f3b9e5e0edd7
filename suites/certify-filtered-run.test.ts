/**
 * A `routecert run` whose `--tag` or `--case` filters leave certification checks out never reports
 * the worker "certified" (a new-user trial: `run --tag smoke` on a worker that fails two checks when
 * certified in full printed `certified, 2 of 2 checks passed`, exit 0). The run's selection goes to
 * the engine (only the selected checks run), and the engine's route status travels with each result
 * to every report (src/report/certificates.ts).
 */
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { blockingLines, certificateMarkdown } from '#src/harness/certify/certificate.ts';
import { certify } from '#src/harness/certify/certify.ts';
import { certifyLiveSource } from '#src/harness/certify/liveSource.ts';
import type { CaseFilter } from '#src/harness/runCorpus.ts';
import { certificates } from '#src/report/certificates.ts';
import { summaryText } from '#src/report/console.ts';
import type { CaseResult, RunReport } from '#src/report/types.ts';
import { bashMiniatureConfig } from '../examples/miniatures/index.ts';

const LONG = 240_000;

/** The certification results a run with `filter` emits for the no-retry miniature (fails retry-once and drop-second-nonfinal in full). */
async function filtered(filter: CaseFilter): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  const faults = await certifyLiveSource(bashMiniatureConfig('no-retry')).run(async (r) => {
    results.push(r);
  }, filter);
  expect(faults).toEqual([]);
  return results;
}

describe('a filtered run certifies nothing it did not check', () => {
  it('--tag smoke: the smoke passes, the route is partial with every check counted as not run, never certified', async () => {
    const results = await filtered({ tags: ['smoke'] });
    expect(results.map((r) => r.id).sort()).toEqual(['certify-claude-code-stream-json-smoke-final', 'certify-claude-code-stream-json-smoke-prose-only']);
    expect(results.every((r) => r.outcome === 'pass')).toBe(true);
    const [c] = certificates(results);
    expect(c!.status).toBe('partial');
    expect(c!.notRun).toBeGreaterThan(20);
    // picocolors colours in-process output when CI is set (as .ci/run's machine does): judge the words.
    const text = stripVTControlCharacters(summaryText({ cases: results, faults: [], summary: { total: 2, pass: 2, fail: 0, error: 0, skip: 0, faults: 0, byVerdict: {} }, header: {} } as unknown as RunReport));
    expect(text).toMatch(/claude-code\/stream-json: partial, smoke 2 of 2 passed; no check ran, \d+ not run \(left out by the run's filters\)/);
  }, LONG);

  it('--case of a check the worker passes: partial; --case of one it fails: not certified, the check named', async () => {
    const passing = await filtered({ ids: ['certify-claude-code-stream-json-tie-to-later'] });
    expect(passing.map((r) => [r.id, r.outcome])).toEqual([['certify-claude-code-stream-json-tie-to-later', 'pass']]);
    expect(certificates(passing)[0]!.status).toBe('partial');
    // The engine's certificate names the run's filter, not a `--check` the user never typed.
    const engine = await certify(bashMiniatureConfig('no-retry'), { checks: ['tie-to-later'], selectedBy: 'run --case certify-claude-code-stream-json-tie-to-later' });
    expect(engine.certificate.routes[0]!.notSelected?.reason).toBe('not selected by run --case certify-claude-code-stream-json-tie-to-later');
    const failing = await filtered({ ids: ['certify-claude-code-stream-json-retry-once'] });
    expect(failing.map((r) => [r.id, r.outcome])).toEqual([['certify-claude-code-stream-json-retry-once', 'fail']]);
    const [c] = certificates(failing);
    expect(c!.status).toBe('not certified');
    expect(c!.failing.map((f) => f.id)).toEqual(['certify-claude-code-stream-json-retry-once']);
  }, LONG);
});

describe('a check that waits on a failed check', () => {
  it('is not advised a new corpus case: the advice names the failed check it waits on, and certificate.md counts the failure', async () => {
    // no-retry never retries: retry-once fails, and retry-paragraph (which reads retry-once's runs) has no retry to judge.
    const outcome = await certify(bashMiniatureConfig('no-retry'), { checks: ['retry-paragraph'] });
    const route = outcome.certificate.routes[0]!;
    expect(route.checks.find((c) => c.id === 'retry-once')!.status).toBe('fail');
    const lines = blockingLines(route);
    expect(lines).toContain('retry-paragraph did not run: no retry was observed (retry-once says why)');
    expect(lines.some((l) => /^next step: make `retry-once` pass/.test(l))).toBe(true);
    expect(lines.some((l) => l.includes('give the corpus an accepted case'))).toBe(false);
    expect(certificateMarkdown(outcome.certificate)).toContain('**Not certified: 1 check(s) failed (table below), and 1 check(s) did not run:**');
  }, LONG);
});
