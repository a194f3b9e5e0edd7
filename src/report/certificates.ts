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

/** One certified route: its worker route (without the prefix), checks, passes, status, the checks that did not pass. */
export interface CertificateSummary {
  route: string;
  checks: CaseResult[];
  pass: number;
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
    return { route: route.slice(CERTIFY_PREFIX.length), checks, pass: checks.filter((c) => c.outcome === 'pass').length, status, notRun: engine?.notRun ?? 0, failing };
  });
}
