/**
 * Hermetic probes of installed CLIs as a live source of `routecert run`, and the shared step that
 * `routecert record` uses: run one planned probe (every attempt) against the provider mock.
 */
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { FINAL_ANSWER_ADDENDUM } from '#src/contract/pov.ts';
import { judgeCase } from '#src/contract/judgeCase.ts';
import { loadContract } from '#src/contract/registry.ts';
import { decoderFor } from '#src/routes/registry.ts';
import { projectPath } from '#src/paths.ts';
import { candidateFor, discoverCli, type DiscoveredCli } from '#src/probe/discover.ts';
import type { ProbeDriver } from '#src/probe/driver.ts';
import { PROBE_DRIVERS } from '#src/probe/drivers.ts';
import { rangeText, supportOf } from '#src/probe/versions.ts';
import { DEFAULT_PROBE_PROMPT, runProbe, type ProbeOptions } from '#src/probe/run.ts';
import { probeRunKey, ProbeRunPool } from '#src/probe/pool.ts';
import type { CaseAttempt } from '#src/envelope/caseTypes.ts';
import type { ExecutedProbe } from '#src/record/executedProbe.ts';
import type { CaseResult, CliStatus, RunFault, VersionStatus } from '#src/report/types.ts';
import { compareVerdict } from './compare.ts';
import { probeDrift, versionResult } from './drift.ts';
import type { LiveSource } from './run.ts';
import type { CaseFilter } from './runCorpus.ts';
import { routeSelected } from './select.ts';
import { inShard } from './shard.ts';
import { planFor, schemaFor, type PlannedProbe } from './probePlan.ts';
import { pushAll } from '#src/arrays.ts';

export type { ExecutedProbe } from '#src/record/executedProbe.ts';

/** The id of a live probe case: `probe-<route with / as ->-<slug>`, e.g. `probe-claude-code-json-final`. */
export function probeCaseId(route: string, slug: string): string {
  return `probe-${route.replace(/\//g, '-')}-${slug}`;
}

/** The prompt of attempt `index`: the base prompt, plus the final-answer paragraph on the retry. */
export function attemptPrompt(index: number, base = DEFAULT_PROBE_PROMPT): string {
  return index === 0 ? base : `${base}\n\n${FINAL_ANSWER_ADDENDUM}`;
}

/**
 * Run every attempt of `planned` on `route`, each against a fresh provider mock of its own, through
 * `pool` (shared with the other planned probes of the batch: attempts that are the same run are run
 * once; @default a pool of one, so the attempts run one after another). Never throws.
 * `durationMs`: the summed wall time of the attempts' runs.
 *
 * @param timeoutMs deadline of one attempt (ms), unless the plan sets its own.
 * @param live `true` only from `--live`: the real provider, no mock (src/probe/live.ts).
 */
export async function executePlannedProbe(
  cli: DiscoveredCli,
  driver: ProbeDriver,
  route: string,
  planned: PlannedProbe,
  productionSchema: Record<string, unknown>,
  timeoutMs: number,
  live = false,
  pool: ProbeRunPool = new ProbeRunPool(1),
): Promise<ExecutedProbe> {
  const schema = schemaFor(planned.schema, productionSchema);
  const deadline = planned.timeoutMs ?? timeoutMs;
  const afterRequest = planned.deadlineAfterRequestMs !== undefined && !live ? planned.deadlineAfterRequestMs : undefined;
  // Every attempt is asked for at once (the plan fixes each attempt's scenario and prompt): the
  // pool starts them in this order, as slots free up.
  const runs = planned.scenarios.map((scenario, i) => {
    const prompt = attemptPrompt(i);
    const probe: ProbeOptions = { cli, driver, route, scenario, schema, prompt, timeoutMs: deadline, ...(afterRequest !== undefined ? { deadlineAfterRequestMs: afterRequest } : {}), ...(live ? { live: true } : {}) };
    const run = pool.run(probeRunKey(probe), cli.name, () => runProbe(probe));
    return { prompt, run };
  });
  const attempts: CaseAttempt[] = [];
  const unexpected: string[] = [];
  let durationMs = 0;
  for (const { prompt, run } of runs) {
    const result = await run;
    durationMs += result.runMs;
    if (result.fault) {
      // The later attempts' runs were asked for already; let them finish before saying so.
      await Promise.all(runs.map((r) => r.run));
      return { route, planned, attempts, unexpected, fault: result.fault, durationMs };
    }
    pushAll(unexpected, result.unexpected.map((r) => `${r.method} ${r.path}`));
    attempts.push({ ...result.envelope, argv: result.argv, prompt });
  }
  return { route, planned, attempts, unexpected, durationMs };
}

/**
 * The order that finishes a set of probes soonest on a few cores: longest first (LPT scheduling),
 * so a long probe never starts last while the other cores idle. Estimated cost of a planned probe:
 * its own deadline when it has one (the `stall` probe waits for it), else 1 per attempt, with the
 * provider-error plans (`api-*`, where CLIs retry with back-off) counted 3. Stable for equal costs.
 */
export function longestFirst<T extends { planned: PlannedProbe }>(tasks: readonly T[]): T[] {
  const cost = (p: PlannedProbe): number => (p.timeoutMs !== undefined ? p.timeoutMs / 1000 : p.scenarios.length * (p.slug.startsWith('api-') ? 3 : 1));
  return tasks.map((t, i) => ({ t, i, c: cost(t.planned) })).sort((a, b) => b.c - a.c || a.i - b.i).map((x) => x.t);
}

/**
 * Start `work` for every task at once (each planned probe then waits for its runs in a
 * {@link ProbeRunPool}, which bounds the CLIs running), calling `onResult` as each finishes
 * (completion order; one `onResult` at a time, so a reporter never interleaves).
 */
export async function runAll<T, R>(tasks: readonly T[], work: (task: T) => Promise<R>, onResult: (r: R) => Promise<void>): Promise<void> {
  let reporting = Promise.resolve();
  await Promise.all(tasks.map(async (task) => {
    const r = await work(task);
    reporting = reporting.then(() => onResult(r));
    await reporting;
  }));
}

/**
 * The live source that probes every installed CLI that has a driver and a plan, all routes, at most
 * `concurrency` probe runs at once (default: the number of cores; `pool`: the run's shared
 * {@link ProbeRunPool} instead, which then sets the bound). A CLI that is not installed is
 * reported in one line with the command that installs it, and nothing of it runs. `bins`: candidate
 * binaries by CLI name (`--bin`; `ROUTECERT_BIN_<CLI>` is read too); `casesDir`: the recorded corpus
 * drift is measured against (`run --cases`), @default the bundled fixtures/cases.
 */
export function probeLiveSource(options: { timeoutMs: number; concurrency?: number; pool?: ProbeRunPool; drivers?: readonly ProbeDriver[]; bins?: Readonly<Record<string, string>>; casesDir?: string }): LiveSource {
  const drivers = options.drivers ?? PROBE_DRIVERS;
  const casesDir = options.casesDir ?? projectPath('fixtures/cases');
  let found: Promise<{ driver: ProbeDriver; cli: DiscoveredCli }[]> | undefined;
  let versions: VersionStatus[] = [];
  const discover = () => (found ??= Promise.all(drivers.map(async (driver) => ({ driver, cli: await discoverCli(driver.cli, { bin: driver.bin, npmPackage: driver.npmPackage, candidate: candidateFor(driver.cli, options.bins ?? {}) }) }))));
  return {
    async clis(): Promise<CliStatus[]> {
      return (await discover()).map(({ driver, cli }) => ({
        name: driver.cli,
        installed: cli.bin !== null,
        version: cli.version,
        bin: cli.bin,
        note:
          cli.bin === null
            ? cli.problem ?? `hermetic probes skipped. To install: ${cli.installHint}`
            : planFor(driver.cli).length === 0
              ? 'installed; no probe plan yet'
              : `hermetic probes run against a loopback mock (${cli.source ?? '?'})${cli.version === null ? `; its version could not be read (\`${cli.bin} --version\` failed twice), so its drift is reported as unknown` : supportOf(driver, cli.version).supported ? '' : `; outside the supported range ${rangeText(driver.versions)}, so its results are not evidence`}`,
      }));
    },
    async run(emit, filter: CaseFilter, planned): Promise<RunFault[]> {
      if (filter.contracts?.length && !filter.contracts.includes('pov')) return [];
      const schema = JSON.parse(await readFile(projectPath('schemas/contracts/pov.schema.json'), 'utf8')) as Record<string, unknown>;
      const contract = await loadContract('pov');
      const tasks: { cli: DiscoveredCli; driver: ProbeDriver; route: string; planned: PlannedProbe }[] = [];
      for (const { driver, cli } of await discover()) {
        if (cli.bin === null) continue;
        for (const route of driver.routes) {
          for (const planned of planFor(driver.cli)) {
            const id = probeCaseId(route, planned.slug);
            if (!inShard(id, filter.shard)) continue;
            if (filter.ids?.length && !filter.ids.some((x) => id.startsWith(x))) continue;
            if (filter.routes?.length && !filter.routes.some((r) => routeSelected(r, route))) continue;
            if (filter.tags?.length && !filter.tags.some((t) => planned.tags.includes(t))) continue;
            tasks.push({ cli, driver, route, planned });
          }
        }
      }
      planned?.(tasks.length);
      const faults: RunFault[] = [];
      const byCli = new Map<string, { cli: DiscoveredCli; recorded: Set<string>; probes: { id: string; conforms: boolean; drift: string[]; broken: boolean }[] }>();
      const pool = options.pool ?? new ProbeRunPool(options.concurrency ?? availableParallelism());
      await runAll(
        longestFirst(tasks),
        async (t) => ({ cli: t.cli, executed: await executePlannedProbe(t.cli, t.driver, t.route, t.planned, schema, options.timeoutMs, false, pool) }),
        async ({ cli, executed }) => {
          const result = liveResult(cli, executed, contract);
          if (executed.fault) faults.push({ kind: 'probe', message: `${result.id}: ${executed.fault}` });
          // Envelope drift against the recorded case of the same route and slug (the corpus `--cases`
          // names): information, never a failure. A probe that faulted or crashed is broken, never drift.
          const seen = executed.fault ? { drift: [], broken: true, recordedVersion: null } : await probeDrift(casesDir, { route: executed.route, slug: executed.planned.slug, version: cli.version, attempts: executed.attempts });
          if (seen.drift.length > 0) result.drift = seen.drift;
          const entry = byCli.get(cli.name) ?? { cli, recorded: new Set<string>(), probes: [] };
          if (seen.recordedVersion !== null) entry.recorded.add(seen.recordedVersion);
          entry.probes.push({ id: result.id, conforms: result.outcome === 'pass', drift: seen.drift, broken: seen.broken });
          byCli.set(cli.name, entry);
          await emit(result);
        },
      );
      // Only a version other than the recorded one has a result against the corpus.
      versions = [...byCli.values()].filter(({ cli, recorded }) => [...recorded].some((v) => v !== cli.version)).map(({ cli, recorded, probes }) => ({
        cli: cli.name,
        version: cli.version,
        corpus: path.relative(process.cwd(), casesDir) || '.',
        recorded: [...recorded].sort(),
        result: versionResult(probes, cli.version),
        probes: probes.length,
        driftLines: probes.reduce((n, p) => n + p.drift.length, 0),
      }));
      return faults;
    },
    sections: () => (versions.length > 0 ? { versions } : {}),
  };
}

/** Judge an executed probe and compare it with the plan's expectation. */
function liveResult(cli: DiscoveredCli, executed: ExecutedProbe, contract: Awaited<ReturnType<typeof loadContract>>): CaseResult {
  const { route, planned } = executed;
  const id = probeCaseId(route, planned.slug);
  const expect = planned.expect(route);
  const result: CaseResult = {
    id,
    file: `(live probe of ${cli.bin ?? cli.name})`,
    description: `live: ${planned.description}`,
    route,
    contract: 'pov',
    cli: { name: cli.name, version: cli.version ?? 'unknown' },
    source: 'probe',
    scenario: planned.scenarios.join('+'),
    tags: ['probe', ...planned.tags],
    outcome: 'error',
    expected: { verdict: expect.verdict, ...(expect.origin ? { origin: expect.origin } : {}) },
    verdict: null,
    attempts: [],
    problems: [],
    caught: null,
    replay: `npx routecert run --case ${id}`,
    durationMs: Math.round(executed.durationMs),
  };
  if (executed.fault) {
    result.caught = 'probe';
    result.problems.push(executed.fault);
    return result;
  }
  const judgement = judgeCase({ attempts: executed.attempts }, contract, decoderFor(route));
  result.verdict = judgement.verdict;
  result.attempts = judgement.attempts;
  const mismatches = compareVerdict(expect, judgement.verdict);
  pushAll(result.problems, mismatches);
  if (executed.unexpected.length > 0) {
    result.caught = 'probe';
    result.problems.push(`the provider mock received requests the scenario does not expect (answered 501): ${executed.unexpected.join(', ')}`);
    result.outcome = 'error';
    return result;
  }
  result.outcome = mismatches.length === 0 ? 'pass' : 'fail';
  return result;
}
