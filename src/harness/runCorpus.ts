/**
 * Running corpus cases: load, decode, judge, compare, one {@link CaseResult} per case. A crash while
 * judging one case becomes that case's `error` and never hides the others.
 */
import { performance } from 'node:perf_hooks';
import { judgeCase } from '#src/contract/judgeCase.ts';
import { loadContract } from '#src/contract/registry.ts';
import type { Contract } from '#src/contract/types.ts';
import { decoderFor, defaultDecoders } from '#src/routes/registry.ts';
import type { RouteDecoder } from '#src/envelope/types.ts';
import type { LoadedCase } from '#src/record/corpus.ts';
import type { CaseResult } from '#src/report/types.ts';
import { compareVerdict } from './compare.ts';
import { prependAll } from '#src/arrays.ts';
import { inShard, type Shard } from './shard.ts';
import { routeSelected } from './select.ts';

/**
 * Which cases to run; every list is OR-ed within itself and AND-ed across. Empty = all. `shard`
 * keeps only the cases (and probes, certifications) of one shard (src/harness/shard.ts).
 */
export interface CaseFilter {
  ids?: string[];
  routes?: string[];
  contracts?: string[];
  tags?: string[];
  shard?: Shard;
}

/** True when `c` passes `filter`. A route filter matches the route or its CLI prefix (`claude-code`). */
export function matchesFilter(c: LoadedCase['case'], filter: CaseFilter): boolean {
  if (!inShard(c.id, filter.shard)) return false;
  if (filter.ids?.length && !filter.ids.some((id) => c.id.startsWith(id))) return false;
  if (filter.routes?.length && !filter.routes.some((r) => routeSelected(r, c.route))) return false;
  if (filter.contracts?.length && !filter.contracts.includes(c.contract)) return false;
  if (filter.tags?.length && !filter.tags.some((t) => c.tags.includes(t))) return false;
  return true;
}

/**
 * Judge one loaded case. Never throws: a failure inside routecert is an `error` result.
 *
 * @param contracts compiled contracts by name: the team's own first, then presets as needed (a cache).
 * @param replay the command that runs one case alone (default `npx routecert run --case <id>`; the CLI adds `--cases` and `--config`).
 */
export async function runCase(
  loaded: LoadedCase,
  options: { decoders?: RouteDecoder[]; contracts?: Map<string, Contract>; replay?: (id: string) => string } = {},
): Promise<CaseResult> {
  const started = performance.now();
  const c = loaded.case;
  const result: CaseResult = {
    id: c.id,
    file: loaded.file,
    description: c.description,
    route: c.route,
    contract: c.contract,
    cli: c.cli,
    source: c.provenance.source,
    tags: c.tags,
    outcome: 'error',
    expected: { verdict: c.expect.verdict, ...(c.expect.origin ? { origin: c.expect.origin } : {}), ...(c.expect.attempt !== undefined ? { attempt: c.expect.attempt } : {}) },
    verdict: null,
    attempts: [],
    problems: [...loaded.warnings],
    caught: null,
    replay: options.replay ? options.replay(c.id) : `npx routecert run --case ${c.id}`,
    durationMs: 0,
  };
  if (c.scenario !== undefined) result.scenario = c.scenario;
  if (c.skip) {
    result.outcome = 'skip';
    result.problems.unshift(`known bug: ${c.skip.reason} (${c.skip.issue}${c.skip.cliRange ? `, CLI ${c.skip.cliRange}` : ''})`);
    result.durationMs = performance.now() - started;
    return result;
  }
  try {
    const contracts = options.contracts ?? new Map<string, Contract>();
    let contract = contracts.get(c.contract);
    if (!contract) {
      contract = await loadContract(c.contract, {}, [...contracts.values()]);
      contracts.set(c.contract, contract);
    }
    const decoder = decoderFor(c.route, options.decoders ?? defaultDecoders());
    const judgement = judgeCase(c, contract, decoder);
    result.verdict = judgement.verdict;
    result.attempts = judgement.attempts;
    const mismatches = compareVerdict(c.expect, judgement.verdict);
    if (judgement.unusedAttempts > 0) result.problems.push(`${judgement.unusedAttempts} recorded attempt(s) were never reached`);
    prependAll(result.problems, mismatches);
    result.outcome = mismatches.length === 0 ? 'pass' : 'fail';
  } catch (error) {
    result.outcome = 'error';
    result.caught = 'routecert';
    result.problems.unshift(`routecert could not judge this case: ${(error as Error).message}`);
  }
  result.durationMs = performance.now() - started;
  return result;
}
