/**
 * Issue 20 point 3: the contract x route matrix, proven.
 * - Every shipped contract that reads the reply has a case on every route of a CLI, built from that
 *   route's own final-answer envelope (suites/_helpers/matrixCases.ts), and accepts it: a valid
 *   answer is read right wherever the route decoder finds it.
 * - Per route: replacing that one route's decoder with one that finds nothing (the registry's
 *   override, `withDecoders`) changes verdicts of EVERY contract that has cases on that route, so
 *   no contract on any route can pass without its route decoder.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { judgeCase } from '#src/contract/judgeCase.ts';
import { loadContract } from '#src/contract/registry.ts';
import type { Contract } from '#src/contract/types.ts';
import { envelopeFacts } from '#src/envelope/decodeParts.ts';
import { decoderFor, withDecoders } from '#src/routes/registry.ts';
import type { RouteDecoder } from '#src/envelope/types.ts';
import { projectPath } from '#src/paths.ts';
import { corpus } from './_helpers/corpus.ts';
import { buildMatrixCase, matrixPath, matrixRoutes, REPLY_CONTRACTS } from './_helpers/matrixCases.ts';

/** A decoder for `route` that finds nothing: no candidate, no reply, status ok; run facts and raw text only. */
function blindDecoder(route: string): RouteDecoder {
  return {
    route,
    header: `${route} (finds nothing)`,
    detect: () => true,
    decode: (envelope) => ({ ...envelopeFacts(envelope), route, candidates: [], status: { kind: 'ok' }, human: [], ancillary: [], keys: [], notes: [], reply: {}, freeText: [] }),
  };
}

const contracts = new Map<string, Contract>();
async function contractOf(name: string): Promise<Contract> {
  if (!contracts.has(name)) contracts.set(name, await loadContract(name));
  return contracts.get(name)!;
}

describe('contract x route matrix', () => {
  const cells = REPLY_CONTRACTS.flatMap((contract) => matrixRoutes().map((route) => [contract, route] as const));

  it('covers every route of every CLI definition (not an empty matrix)', () => {
    expect(matrixRoutes().length).toBeGreaterThanOrEqual(17);
    expect(cells.length).toBe(REPLY_CONTRACTS.length * matrixRoutes().length);
  });

  it.each(cells)('%s on %s: the committed case is the one built from the route envelope, and it is accepted', async (contract, route) => {
    const built = buildMatrixCase(contract, route);
    const committed: unknown = JSON.parse(readFileSync(projectPath(matrixPath(contract, route)), 'utf8'));
    expect(committed, `${matrixPath(contract, route)} is stale: run \`npm run matrix:cases\``).toEqual(built);
    const loaded = corpus.cases.find((c) => c.case.id === built.id);
    expect(loaded, 'the corpus loads the matrix case').toBeDefined();
    const { verdict } = judgeCase(built, await contractOf(contract), decoderFor(route));
    expect(verdict.verdict, JSON.stringify(verdict.evidence)).toBe('accepted');
    expect('value' in verdict ? verdict.value : undefined).toEqual(built.expect.value);
  });
});

describe('per-route blind decoder: every contract on the route notices', () => {
  const routes = [...new Set(corpus.cases.map((c) => c.case.route))].sort();

  it.each(routes)('%s', async (route) => {
    const decoders = withDecoders([blindDecoder(route)]);
    const blind = decoderFor(route, decoders);
    expect(blind.header).toContain('finds nothing');
    const onRoute = corpus.cases.filter((c) => c.case.route === route);
    const byContract = new Map<string, number>();
    for (const c of onRoute) {
      const contract = await contractOf(c.case.contract);
      const real = judgeCase(c.case, contract, decoderFor(route)).verdict;
      const judged = judgeCase(c.case, contract, blind).verdict;
      if (real.verdict !== judged.verdict) byContract.set(c.case.contract, (byContract.get(c.case.contract) ?? 0) + 1);
    }
    const names = [...new Set(onRoute.map((c) => c.case.contract))].sort();
    expect(names.filter((n) => !byContract.has(n)), `contracts on ${route} whose verdicts do not change without the route decoder`).toEqual([]);
    if (route !== 'generic') expect(names).toEqual(expect.arrayContaining([...REPLY_CONTRACTS]));
  });
});
