/**
 * Hermetic probes of installed CLIs as a live source of `routecert run`, and the shared step that
 * `routecert record` uses: run one planned probe (every attempt) against the provider mock.
 */
import { availableParallelism } from 'node:os';
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { FINAL_ANSWER_ADDENDUM } from '#src/contract/pov.ts';
import { judgeCase } from '#src/contract/judgeCase.ts';
import { loadContract } from '#src/contract/registry.ts';
import { decoderFor } from '#src/envelope/registry.ts';
import { projectPath } from '#src/paths.ts';
import { CLAUDE_ROUTES, type ClaudeRoute } from '#src/probe/claude.ts';
import { discoverCli, type DiscoveredCli } from '#src/probe/discover.ts';
import { DEFAULT_PROBE_PROMPT, runProbe } from '#src/probe/run.ts';
import type { CaseAttempt } from '#src/record/caseTypes.ts';
import type { CaseResult, CliStatus, RunFault } from '#src/report/types.ts';
import { compareVerdict } from './compare.ts';
import type { LiveSource } from './run.ts';
import type { CaseFilter } from './runCorpus.ts';
import { POV_PROBE_PLAN, schemaFor, type PlannedProbe } from './probePlan.ts';

/** The outcome of running one planned probe: the attempts' envelopes, or why it could not run. */
export interface ExecutedProbe {
  route: ClaudeRoute;
  planned: PlannedProbe;
  attempts: CaseAttempt[];
  /** Requests the mock did not expect (answered 501), as `METHOD path`. */
  unexpected: string[];
  /** Set when the probe could not be carried out (spawn failure, mock failure). */
  fault?: string;
  durationMs: number;
}

/** The id of a live probe case: `probe-<cli>-<format>-<slug>`, e.g. `probe-claude-json-final`. */
export function probeCaseId(route: string, slug: string): string {
  return `probe-${route.replace('claude-code', 'claude').replace('/', '-')}-${slug}`;
}

/** The prompt of attempt `index`: the base prompt, plus the final-answer paragraph on the retry. */
export function attemptPrompt(index: number, base = DEFAULT_PROBE_PROMPT): string {
  return index === 0 ? base : `${base}\n\n${FINAL_ANSWER_ADDENDUM}`;
}

/**
 * Run every attempt of `planned` on `route` against a fresh provider mock per attempt. Never throws.
 *
 * @param timeoutMs deadline of one attempt (ms), unless the plan sets its own.
 */
export async function executePlannedProbe(
  cli: DiscoveredCli,
  route: ClaudeRoute,
  planned: PlannedProbe,
  productionSchema: Record<string, unknown>,
  timeoutMs: number,
): Promise<ExecutedProbe> {
  const started = performance.now();
  const attempts: CaseAttempt[] = [];
  const unexpected: string[] = [];
  const schema = schemaFor(planned.schema, productionSchema);
  for (let i = 0; i < planned.scenarios.length; i += 1) {
    const prompt = attemptPrompt(i);
    const result = await runProbe({ cli, route, scenario: planned.scenarios[i]!, schema, prompt, timeoutMs: planned.timeoutMs ?? timeoutMs });
    if (result.fault) return { route, planned, attempts, unexpected, fault: result.fault, durationMs: performance.now() - started };
    unexpected.push(...result.unexpected.map((r) => `${r.method} ${r.path}`));
    attempts.push({ ...result.envelope, argv: result.argv, prompt });
  }
  return { route, planned, attempts, unexpected, durationMs: performance.now() - started };
}

/**
 * Run `tasks` with at most `limit` at once, calling `onResult` as each finishes (completion order).
 */
export async function runBounded<T, R>(tasks: T[], limit: number, work: (task: T) => Promise<R>, onResult: (r: R) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.max(1, Math.min(limit, tasks.length)) }, async () => {
    while (next < tasks.length) {
      const task = tasks[next]!;
      next += 1;
      await onResult(await work(task));
    }
  });
  await Promise.all(workers);
}

/**
 * The live source that probes Claude Code hermetically for every planned behaviour in both routes.
 * When the CLI is not installed it reports so in one line (with the install command) and runs nothing.
 */
export function probeLiveSource(options: { timeoutMs: number; concurrency?: number }): LiveSource {
  let cli: DiscoveredCli | undefined;
  const discover = async (): Promise<DiscoveredCli> => (cli ??= await discoverCli('claude'));
  return {
    async clis(): Promise<CliStatus[]> {
      const c = await discover();
      return [
        {
          name: 'claude',
          installed: c.bin !== null,
          version: c.version,
          bin: c.bin,
          note: c.bin !== null ? `hermetic probes run against a loopback mock (${c.source})` : `not installed; hermetic probes skipped. Install with: ${c.installHint}`,
        },
      ];
    },
    async run(emit, filter: CaseFilter): Promise<RunFault[]> {
      const c = await discover();
      if (c.bin === null) return [];
      if (filter.contracts?.length && !filter.contracts.includes('pov')) return [];
      const schema = JSON.parse(await readFile(projectPath('schemas/contracts/pov.schema.json'), 'utf8')) as Record<string, unknown>;
      const contract = await loadContract('pov');
      const tasks: { route: ClaudeRoute; planned: PlannedProbe }[] = [];
      for (const route of CLAUDE_ROUTES) {
        for (const planned of POV_PROBE_PLAN) {
          const id = probeCaseId(route, planned.slug);
          if (filter.ids?.length && !filter.ids.some((x) => id.startsWith(x))) continue;
          if (filter.routes?.length && !filter.routes.some((r) => route === r || route.startsWith(`${r}/`))) continue;
          if (filter.tags?.length && !filter.tags.some((t) => planned.tags.includes(t))) continue;
          tasks.push({ route, planned });
        }
      }
      const faults: RunFault[] = [];
      await runBounded(
        tasks,
        options.concurrency ?? availableParallelism(),
        (t) => executePlannedProbe(c, t.route, t.planned, schema, options.timeoutMs),
        async (executed) => {
          const result = liveResult(c, executed, contract);
          if (executed.fault) faults.push({ kind: 'probe', message: `${result.id}: ${executed.fault}` });
          await emit(result);
        },
      );
      return faults;
    },
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
  result.problems.push(...mismatches);
  if (executed.unexpected.length > 0) {
    result.caught = 'probe';
    result.problems.push(`the provider mock received requests the scenario does not expect (answered 501): ${executed.unexpected.join(', ')}`);
    result.outcome = 'error';
    return result;
  }
  result.outcome = mismatches.length === 0 ? 'pass' : 'fail';
  return result;
}
