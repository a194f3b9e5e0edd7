/**
 * `run` exits as `routecert certify` does on the same worker (a trial: a config whose worker route
 * had no corpus case to smoke it printed "could not run" and exited 0 in `run`, 3 in `certify`).
 */
import { describe, expect, it } from 'vitest';
import type { CaseResult } from '#src/report/types.ts';
import { exitCodeFor } from './run.ts';

function check(outcome: CaseResult['outcome'], status?: NonNullable<CaseResult['certificate']>['status']): CaseResult {
  return {
    id: `certify-claude-code-json-${outcome}`,
    file: '(certify w)',
    description: 'certify w: a check',
    route: 'certify:claude-code/json',
    contract: 'pov',
    cli: { name: 'claude', version: '1' },
    source: 'generated',
    tags: ['certify', 'check'],
    outcome,
    expected: null,
    verdict: null,
    attempts: [],
    problems: [],
    caught: null,
    replay: 'npx routecert certify',
    durationMs: 0,
    ...(status ? { certificate: { status, notRun: 0 } } : {}),
  };
}

describe('exitCodeFor on certification results', () => {
  it('is 3 when a worker route could not run, though every one of its checks is a skip', () => {
    expect(exitCodeFor([check('skip', 'could-not-run'), check('skip', 'could-not-run')], [])).toBe(3);
  });

  it('is 1 when a route is not certified with no failed check (every selected check skipped), as certify exits', () => {
    expect(exitCodeFor([check('skip', 'not-certified')], [])).toBe(1);
  });

  it('is 0 for a certified or partial route, and for results of an older report without a route status', () => {
    expect(exitCodeFor([check('pass', 'certified'), check('skip', 'certified')], [])).toBe(0);
    expect(exitCodeFor([check('pass', 'partial')], [])).toBe(0);
    expect(exitCodeFor([check('skip')], [])).toBe(0);
  });
});
