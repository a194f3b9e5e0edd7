/**
 * Policies that span the attempts of a case: the usage ledger (summed token usage, never counted
 * twice on replay).
 */
export { UsageLedger, flattenUsage, addUsage } from '#src/policy/usage.ts';

export type { UsageLedgerState, UsageTotals } from '#src/policy/usage.ts';
