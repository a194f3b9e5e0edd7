/**
 * Miniature broken worker `alwaysAccept`: the reference worker with the finality check removed. It
 * publishes the best schema-shaped answer whether or not `final` is true, so it must fail exactly
 * the checks that cover finality (after bowtie's `always_valid` miniatures, STYLE.md item 13).
 */
import { povContract } from '#src/contract/pov.ts';
import type { Contract } from '#src/contract/types.ts';
import type { ContractMaker } from '#src/worker/worker.ts';

/** The pov contract, except that a non-final answer is accepted instead of retried or dropped. */
export const finalityRemoved: ContractMaker = (schema, policy): Contract => {
  const base = povContract(schema, { policy });
  return {
    ...base,
    name: 'pov-without-finality',
    judge(decoded, context) {
      const verdict = base.judge(decoded, context);
      if (verdict.verdict !== 'retry' && verdict.verdict !== 'dropped-nonfinal') return verdict;
      const best = base.read(decoded, context.attempt);
      if (best.kind !== 'answer') return verdict;
      return {
        verdict: 'accepted',
        attempt: context.attempt,
        origin: best.origin,
        value: best.value,
        score: best.score,
        evidence: [`accepted ${base.anchor} from ${best.origin} (finality not checked)`],
      };
    },
  };
};
