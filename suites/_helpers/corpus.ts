/**
 * Shared helpers of the conformance suites: the bundled corpus, loaded once per file, and a way to
 * judge a (possibly transformed) case with the reference decoders and contract.
 */
import { judgeCase } from '#src/contract/judgeCase.ts';
import { loadContract } from '#src/contract/registry.ts';
import type { Contract, Verdict } from '#src/contract/types.ts';
import { decoderFor } from '#src/routes/registry.ts';
import type { Envelope } from '#src/envelope/types.ts';
import { projectPath } from '#src/paths.ts';
import { loadCorpus, type LoadedCase } from '#src/record/corpus.ts';

/** Every bundled case (fixtures/cases), and the load errors (the corpus suite asserts there are none). */
export const corpus = await loadCorpus(projectPath('fixtures/cases'));

/** Cases carrying `tag`, as `[label, case]` rows for `it.each`. */
export function casesTagged(tag: string): [string, LoadedCase][] {
  return corpus.cases.filter((c) => c.case.tags.includes(tag)).map((c) => [`${c.case.id} ${c.case.route}: ${c.case.description}`, c]);
}

const contracts = new Map<string, Contract>();

/** Judge `attempts` as case `c` would be judged (its route's decoder, its contract). */
export async function judge(c: LoadedCase, attempts: Envelope[] = c.case.attempts): Promise<Verdict> {
  let contract = contracts.get(c.case.contract);
  if (!contract) {
    contract = await loadContract(c.case.contract);
    contracts.set(c.case.contract, contract);
  }
  return judgeCase({ attempts }, contract, decoderFor(c.case.route)).verdict;
}
