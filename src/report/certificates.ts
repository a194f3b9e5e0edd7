/**
 * The certificates of a run: the results on `certify:<route>` routes grouped by route, each with
 * its status. One rule for every writer (console, markdown, HTML): a route is `certified` when no
 * check failed or errored and at least one check ran, `not certified` when one failed or errored,
 * `nothing checked` when every check was skipped. Writers print it; they never judge.
 */
import type { CaseResult } from './types.ts';

/** The route prefix of certification results (src/harness/certify). */
export const CERTIFY_PREFIX = 'certify:';

/** One certified route: its worker route (without the prefix), checks, passes, status, the checks that did not pass. */
export interface CertificateSummary {
  route: string;
  checks: CaseResult[];
  pass: number;
  status: 'certified' | 'not certified' | 'nothing checked';
  failing: CaseResult[];
}

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
    return { route: route.slice(CERTIFY_PREFIX.length), checks, pass: checks.filter((c) => c.outcome === 'pass').length, status: failing.length > 0 ? 'not certified' : ran ? 'certified' : 'nothing checked', failing };
  });
}
