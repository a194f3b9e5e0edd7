/**
 * Fake CLI shims: one executable under each model CLI's name, replaying corpus attempts call by
 * call and recording what each call received, in a bin folder that stands alone on PATH.
 */
export { installShims } from './install.ts';
export { readShimRecords, promptOf } from './plan.ts';

export type { ShimAttempt, ShimCallRecord, ShimPlan, ShimRecord } from './plan.ts';
