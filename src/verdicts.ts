/**
 * The verdict names (DESIGN.md "Words": verdict), below every layer: the contract's verdicts
 * (src/contract/types.ts), the expectations of corpus cases and route plans, and reports name them.
 */

/** The verdict names, in the order reports list them. */
export const VERDICTS = [
  'accepted',
  'retry',
  'dropped-nonfinal',
  'dropped-unusable',
  'invalid_structured_output',
  'startup-rejected',
  'provider-error',
  'timeout',
  'crashed',
] as const;

/** One of {@link VERDICTS}. */
export type VerdictName = (typeof VERDICTS)[number];
