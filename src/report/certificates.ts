/**
 * The certificates of a run: the results on `certify:<route>` routes grouped by route, each with
 * its status. The status is the certification engine's (carried on each result as `certificate`,
 * src/harness/certify/certificate.ts `routeStatus`): `certified`, `not certified`, `partial` (the
 * run's filters left checks out), `adapter broken`, `could not run`. A result without it (a report
 * of an older routecert) falls back to: `not certified` when a check failed or errored, `certified`
 * when one ran, else `nothing checked`. One rule for every writer (console, markdown, HTML, diff):
 * writers print it; they never judge.
 */
import type { CaseResult } from './types.ts';

/** The route prefix of certification results (src/harness/certify). */
export const CERTIFY_PREFIX = 'certify:';

/** Passed and total results of one stage of a certified route. */
export interface StageCount {
  pass: number;
  total: number;
  skipped: number;
}

/**
 * One certified route: its worker route (without the prefix), its results (smoke and checks), the
 * counts of each stage apart (as `routecert certify` counts them: the smoke is not a check), its
 * status, the results that did not pass.
 */
export interface CertificateSummary {
  route: string;
  /** Every result of the route, smoke first as the run emitted them. */
  checks: CaseResult[];
  /** The smoke's results (tagged `smoke` by src/harness/certify/liveSource.ts). */
  smoke: StageCount;
  /** The checks' results, without the smoke. */
  checked: StageCount;
  status: 'certified' | 'not certified' | 'partial' | 'adapter broken' | 'could not run' | 'nothing checked';
  /** Checks of the route the run's filters left out (0 when none was). */
  notRun: number;
  failing: CaseResult[];
}

/** The engine's route status in the words the reports print. */
const ENGINE_STATUS: Record<NonNullable<CaseResult['certificate']>['status'], CertificateSummary['status']> = {
  certified: 'certified',
  'not-certified': 'not certified',
  partial: 'partial',
  'adapter-broken': 'adapter broken',
  'could-not-run': 'could not run',
};

/** Is `c` a certification result (not a corpus case or a probe)? */
export function isCertification(c: Pick<CaseResult, 'route'>): boolean {
  return c.route.startsWith(CERTIFY_PREFIX);
}

/** The certificates among `cases`, by route (sorted). */
export function certificates(cases: readonly CaseResult[]): CertificateSummary[] {
  const byRoute = new Map<string, CaseResult[]>();
  for (const c of cases) if (isCertification(c)) byRoute.set(c.route, [...(byRoute.get(c.route) ?? []), c]);
  return [...byRoute.keys()].sort().map((route) => {
    const checks = byRoute.get(route)!;
    const failing = checks.filter((c) => c.outcome === 'fail' || c.outcome === 'error');
    const ran = checks.some((c) => c.outcome === 'pass' || c.outcome === 'fail');
    const engine = checks.find((c) => c.certificate !== undefined)?.certificate;
    const status: CertificateSummary['status'] = engine ? ENGINE_STATUS[engine.status] : failing.length > 0 ? 'not certified' : ran ? 'certified' : 'nothing checked';
    const isSmoke = (c: CaseResult) => c.tags.includes('smoke');
    return { route: route.slice(CERTIFY_PREFIX.length), checks, smoke: stageCount(checks.filter(isSmoke)), checked: stageCount(checks.filter((c) => !isSmoke(c))), status, notRun: engine?.notRun ?? 0, failing };
  });
}

function stageCount(results: readonly CaseResult[]): StageCount {
  return { pass: results.filter((c) => c.outcome === 'pass').length, total: results.length, skipped: results.filter((c) => c.outcome === 'skip').length };
}

/**
 * A certified route's counts in words, the same in every writer: `smoke 2 of 2 passed; 25 of 27
 * checks passed, 1 skipped, 3 not run (left out by the run's filters)`. The smoke is counted apart,
 * as `routecert certify` counts it (src/harness/certify/certificate.ts `countsText`).
 */
export function certificateCounts(c: Pick<CertificateSummary, 'smoke' | 'checked' | 'notRun'>): string {
  const smoke = c.smoke.total > 0 ? `smoke ${c.smoke.pass} of ${c.smoke.total} passed; ` : '';
  const checks = c.checked.total > 0 || c.notRun === 0 ? `${c.checked.pass} of ${c.checked.total} checks passed` : 'no check ran';
  const skipped = c.checked.skipped > 0 ? `, ${c.checked.skipped} skipped` : '';
  const notRun = c.notRun > 0 ? `, ${c.notRun} not run (left out by the run's filters)` : '';
  return `${smoke}${checks}${skipped}${notRun}`;
}
