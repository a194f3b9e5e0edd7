/**
 * Certification as a live source of `routecert run`: each check of each route becomes one case
 * result with route `certify:<route>`, so `npm start` reports the bundled reference worker's
 * certificate beside the corpus.
 */
import path from 'node:path';
import type { LiveSource } from '#src/harness/run.ts';
import type { CaseFilter } from '#src/harness/runCorpus.ts';
import { inShard } from '#src/harness/shard.ts';
import type { CaseResult, RunFault } from '#src/report/types.ts';
import type { CheckResult, RouteCertificate } from './certificate.ts';
import { certify, checksThatApply, type CertifyOptions } from './certify.ts';
import { CHECKS } from './checks.ts';
import { CertifyConfigError, type CertifyConfig, type LoadedConfig } from './config.ts';

/** The id of a check's case result: `certify-<route with / as ->-<check>`, e.g. `certify-claude-code-stream-json-retry-once`. */
export function certifyCaseId(route: string, check: string): string {
  return `certify-${route.replace(/\//g, '-')}-${check}`;
}

function toCaseResult(config: LoadedConfig, route: RouteCertificate, check: CheckResult, stage: 'smoke' | 'check'): CaseResult {
  const id = certifyCaseId(route.route, check.id);
  const adapterBroken = stage === 'smoke' && check.status === 'fail';
  const configArg = config.file ? path.relative(process.cwd(), config.file) || config.file : 'routecert.config.ts';
  return {
    id,
    file: `(certify ${config.config.worker.name})`,
    description: `certify ${config.config.worker.name}: ${check.title}`,
    route: `certify:${route.route}`,
    contract: route.contract,
    cli: route.cli,
    source: 'generated',
    tags: ['certify', stage, ...check.covers],
    outcome: check.status === 'pass' ? 'pass' : check.status === 'skipped' ? 'skip' : adapterBroken ? 'error' : 'fail',
    expected: check.expectedVerdict ? { verdict: check.expectedVerdict } : null,
    verdict: null,
    attempts: [],
    problems: check.status === 'skipped' ? [check.reason ?? 'skipped'] : check.status === 'fail' ? [...(adapterBroken ? ['the smoke failed: the adapter is broken'] : []), ...check.evidence] : [],
    caught: adapterBroken ? 'probe' : null,
    replay: `npx routecert certify --config ${configArg} --route ${route.route}`,
    durationMs: check.durationMs,
  };
}

/**
 * The checks (besides the smoke) that apply to `config`'s contract and that the run's `--case` and
 * `--tag` filters select on any of `routes`, for the engine's `checks` option; `null` when they
 * select every such check (or filter by neither), so the route can be certified. A check's tags are those of its result:
 * `certify`, its stage, what it covers.
 */
function selectedChecks(config: CertifyConfig, routes: readonly string[], filter: CaseFilter): string[] | null {
  if (!filter.ids?.length && !filter.tags?.length) return null;
  const checks = checksThatApply(config);
  const picked = checks.filter((d) => {
    const stage = d.stage === 'records' ? 'check' : d.stage;
    const byTag = !filter.tags?.length || filter.tags.some((t) => ['certify', stage, ...d.covers].includes(t));
    const byId = !filter.ids?.length || routes.some((r) => filter.ids!.some((id) => certifyCaseId(r, d.id).startsWith(id)));
    return byTag && byId;
  });
  return picked.length === checks.length ? null : picked.map((d) => d.id);
}

/** The run's `--tag` and `--case` filters as the user typed them, e.g. `run --tag smoke --case certify-x`. */
function filterWords(filter: CaseFilter): string {
  const words = [...(filter.tags ?? []).map((t) => `--tag ${t}`), ...(filter.ids ?? []).map((id) => `--case ${id}`)];
  return `run ${words.join(' ')}`;
}

/**
 * The live source that certifies `config`'s worker. Honours the run's filters: routes (`certify:<route>`,
 * the route itself or its CLI prefix), ids (prefixes of {@link certifyCaseId}), contracts (`pov`)
 * and tags (`certify`, `smoke`, a check's behaviours). A config error becomes a run fault.
 */
export function certifyLiveSource(config: CertifyConfig | LoadedConfig, options: Omit<CertifyOptions, 'routes' | 'onProgress'> = {}): LiveSource {
  const loaded: LoadedConfig = 'config' in config && 'dir' in config ? config : { config: config as CertifyConfig, file: null, dir: process.cwd() };
  return {
    async clis() {
      return [];
    },
    async run(emit, filter: CaseFilter, _planned, activity): Promise<RunFault[]> {
      if (filter.contracts?.length && !filter.contracts.includes('pov')) return [];
      const tags = new Set(['certify', 'smoke', 'check', ...CHECKS.flatMap((c) => c.covers)]);
      if (filter.tags?.length && !filter.tags.some((t) => tags.has(t))) return [];
      const routes = loaded.config.routes.filter(
        (r) =>
          !filter.routes?.length ||
          filter.routes.some((f) => {
            const want = f.startsWith('certify:') ? f.slice('certify:'.length) : f;
            return want === 'certify' || r === want || r.startsWith(`${want}/`);
          }),
      );
      // One shard certifies a whole route (keyed by the route's certification id prefix).
      const routesWanted = routes.filter((r) => inShard(certifyCaseId(r, ''), filter.shard)).filter((r) => !filter.ids?.length || filter.ids.some((id) => certifyCaseId(r, '').startsWith(id) || id.startsWith(certifyCaseId(r, ''))));
      if (routesWanted.length === 0) return [];
      let outcome;
      try {
        // Progress: results are emitted when every route is done, so the phase says how far it is.
        let routesDone = 0;
        let checks = 0;
        activity?.({ phase: 'certification', done: 0, total: routesWanted.length, running: routesWanted.slice(0, 3).join(', ') });
        const selected = selectedChecks(loaded.config, routesWanted, filter);
        outcome = await certify(loaded, {
          ...options,
          routes: routesWanted,
          ...(selected !== null ? { checks: selected, selectedBy: filterWords(filter) } : {}),
          onProgress: (e) => {
            if (e.kind === 'check') checks += 1;
            if (e.kind === 'route-end') routesDone += 1;
            if (e.kind === 'check' || e.kind === 'route-end') activity?.({ phase: 'certification', done: routesDone, total: routesWanted.length, running: `${checks} checks done, last ${e.route}${e.kind === 'check' ? ` ${e.result.id}` : ''}` });
          },
        });
      } catch (error) {
        if (error instanceof CertifyConfigError) return [{ kind: 'internal', message: `certify: ${error.message}` }];
        throw error;
      }
      for (const route of outcome.certificate.routes) {
        for (const [stage, checks] of [['smoke', route.smoke], ['check', route.checks]] as const) {
          for (const check of checks) {
            const result = toCaseResult(loaded, route, check, stage);
            // The engine's status of the whole route travels with each result: the reports print it,
            // never re-judge it from the results a filter kept (a filtered run read "certified").
            result.certificate = { status: route.status, notRun: route.notSelected?.ids.length ?? 0 };
            if (filter.ids?.length && !filter.ids.some((id) => result.id.startsWith(id))) continue;
            if (filter.tags?.length && !filter.tags.some((t) => result.tags.includes(t))) continue;
            await emit(result);
          }
        }
      }
      return [];
    },
  };
}
