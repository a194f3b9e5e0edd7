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
    name: 'pov-without-finality',
    anchor: base.anchor,
    judge(envelope, decoded, context) {
      const verdict = base.judge(envelope, decoded, context);
      if (verdict.verdict !== 'retry' && verdict.verdict !== 'dropped-nonfinal') return verdict;
      const best = base.select(decoded)!;
      return {
        verdict: 'accepted',
        attempt: context.attempt,
        origin: best.candidate.origin,
        value: best.candidate.value,
        score: best.score,
        evidence: [`accepted ${base.anchor} from ${best.candidate.origin} (finality not checked)`],
      };
    },
  };
};
