/**
 * Certifying bash workers, the kind most teams run (issue 10 part 6):
 * - the example bash worker (examples/bash-worker/peer-worker.sh) passes every check that applies
 *   on each route its miniatures use;
 * - each miniature (examples/miniatures/*.sh: the example with one classic mistake) fails EXACTLY
 *   the checks for that mistake, and the example passes each of those checks on the same route;
 * - no process is left running (checked by process and process group in afterAll).
 *
 * No timing is raced: faults are injected by the fake CLIs (a grandchild that ignores SIGTERM is
 * recorded only once in place), windows are generous, and a certification runs its slow runs at
 * the same time as its quick ones, so the suite holds on a busy machine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certify, type CertifyOutcome } from '#src/harness/certify/certify.ts';
import type { CheckResult, RouteCertificate } from '#src/harness/certify/certificate.ts';
import { loadConfig } from '#src/harness/certify/config.ts';
import { whichOnPath } from '#src/harness/shim/tools.ts';
import { projectPath } from '#src/paths.ts';
import { BASH_MINIATURES, bashMiniatureConfig, FINDINGS_MINIATURES, findingsMiniatureConfig } from '../examples/miniatures/index.ts';
import { processTracker } from './_helpers/certifyProcesses.ts';

const LONG = 900_000;
const tracker = processTracker();
afterAll(() => tracker.expectNoneLeft(), 60_000);

const all = (r: RouteCertificate): CheckResult[] => [...r.smoke, ...r.checks];
const failing = (r: RouteCertificate) => all(r).filter((c) => c.status === 'fail').map((c) => c.id);
const explain = (r: RouteCertificate) =>
  all(r)
    .filter((c) => c.status === 'fail')
    .map((c) => `${c.id}: ${c.evidence.join(' | ').slice(0, 600)}`)
    .join('\n');

/** Run `work` over `items`, at most `limit` at once. */
async function pool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await work(items[i]!);
      }
    }),
  );
  return out;
}

// The example needs bash, jq and python3; routecert installs none of them.
const missingTools = ['bash', 'jq', 'python3', 'sleep'].filter((t) => whichOnPath(t, process.env.PATH ?? '') === null);

describe.skipIf(missingTools.length > 0)(`bash workers${missingTools.length ? ` (skipped: ${missingTools.join(', ')} not installed)` : ''}`, () => {
  const routes = [...new Set(Object.values(BASH_MINIATURES).map((m) => m.route))];
  let example: CertifyOutcome;
  const miniatures = new Map<string, CertifyOutcome>();

  beforeAll(async () => {
    const loaded = await loadConfig(projectPath('examples/bash-worker/routecert.config.ts'));
    const jobs: (() => Promise<void>)[] = [
      async () => {
        example = await certify({ ...loaded, config: { ...loaded.config, routes } }, { concurrency: 3, parallelRoutes: true, onProgress: tracker.track });
      },
      ...Object.keys(BASH_MINIATURES).map((name) => async () => {
        miniatures.set(name, await certify(bashMiniatureConfig(name), { concurrency: 2, onProgress: tracker.track }));
      }),
    ];
    await pool(jobs, 4, (job) => job());
  }, LONG);

  it('the example bash worker passes every check that applies, on every route its miniatures use', () => {
    for (const r of example.certificate.routes) {
      expect(failing(r), `${r.route}\n${explain(r)}`).toEqual([]);
      expect(r.status).toBe('certified');
      for (const c of r.checks.filter((k) => k.status === 'skipped')) expect(c.reason, `${r.route} ${c.id}`).toMatch(/\w/);
    }
    expect(example.exitCode).toBe(0);
    // The checks that bite on the streaming route run there, not skipped.
    const claude = example.certificate.routes.find((r) => r.route === 'claude-code/stream-json')!;
    for (const id of ['idle-window', 'process-group', 'missing-final', 'retry-paragraph', 'retry-same-argv', 'skip-evidence', 'output-format']) {
      expect(claude.checks.find((c) => c.id === id)?.status, id).toBe('pass');
    }
  });

  it.each(Object.entries(BASH_MINIATURES))('%s fails exactly its checks', (name, m) => {
    const r = miniatures.get(name)!.certificate.routes[0]!;
    expect(r.route).toBe(m.route);
    expect(r.smoke.map((c) => c.status), explain(r)).toEqual(['pass', 'pass']);
    expect(failing(r), explain(r)).toEqual([...m.fails]);
    expect(r.status).toBe('not-certified');
    expect(miniatures.get(name)!.exitCode).toBe(1);
    // The example passes each of those checks on the same route: the difference is the mistake.
    const base = example.certificate.routes.find((x) => x.route === m.route)!;
    for (const id of m.fails) expect(base.checks.find((c) => c.id === id)?.status, `example ${id}`).toBe('pass');
  });
});

describe.skipIf(whichOnPath('python3', process.env.PATH ?? '') === null)('findings miniatures (examples/miniatures/findings-worker.py, contract findings-code)', () => {
  it.each(Object.entries(FINDINGS_MINIATURES))('%s fails exactly its checks, and each of them ran', async (name, m) => {
    const { certificate } = await certify(findingsMiniatureConfig(name), { concurrency: 3, checks: [...m.checks], onProgress: tracker.track });
    const r = certificate.routes[0]!;
    expect(r.smoke.map((c) => c.status), explain(r)).toEqual(['pass', 'pass']);
    expect(failing(r), explain(r)).toEqual([...m.fails]);
    for (const id of m.fails) expect(r.checks.find((c) => c.id === id)?.status).toBe('fail');
    // The correct worker passes the same checks on the same route: the difference is the mistake.
    if (m.mistake === null) for (const c of r.checks) expect(c.status === 'pass' || /not applicable/.test(c.reason ?? ''), `${c.id}: ${c.reason ?? ''}`).toBe(true);
  }, LONG);
});

describe.skipIf(missingTools.length > 0)(`a records check chosen alone${missingTools.length ? ` (skipped: ${missingTools.join(', ')} not installed)` : ''}`, () => {
  it('runs the checks whose runs it reads: `--check retry-paragraph` judges the retry retry-once plans instead of skipping', async () => {
    const { certificate } = await certify(bashMiniatureConfig('retry-without-paragraph'), { checks: ['retry-paragraph'], routes: ['claude-code/stream-json'], onProgress: tracker.track });
    const r = certificate.routes[0]!;
    expect(r.checks.map((c) => c.id).sort()).toEqual(['retry-once', 'retry-paragraph']);
    expect(r.checks.find((c) => c.id === 'retry-paragraph')!.status, explain(r)).toBe('fail');
  }, LONG);
});
