/**
 * Miniature broken worker `alwaysAccept`: the reference worker with the finality check removed. It
 * publishes the best schema-shaped answer whether or not `final` is true, so it must fail exactly
 * the checks that cover finality (after bowtie's `always_valid` miniatures, STYLE.md item 13).
 * It is the pov preset's definition with `finality: 'none'` (and so no retry): a contract as data.
 */
import { defineContract, definitionOf } from '#src/contract/define.ts';
import { povContract } from '#src/contract/pov.ts';
import type { Contract } from '#src/contract/types.ts';
import type { ContractMaker } from '#src/worker/worker.ts';

/** The pov contract, except that a non-final answer is accepted instead of retried or dropped. */
export const finalityRemoved: ContractMaker = (schema, policy): Contract => {
  const { retry: _retry, ...rest } = definitionOf(povContract(schema, { policy }).definition);
  return defineContract({ ...rest, name: 'pov-without-finality', finality: 'none' });
};
