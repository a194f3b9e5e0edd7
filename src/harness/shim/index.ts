/**
 * Fake CLI shims: one executable under each model CLI's name, replaying corpus attempts call by
 * call and recording what each call received, in a bin folder that stands alone on PATH.
 */
export { installShims, ShimPlanError, FAKE_CLI_NAMES, FAKE_CLI_SCRIPT } from './install.ts';
export { readShimRecords, promptOf, SHIM_PROTOCOL_VERSION } from './plan.ts';
export { resolveTools, whichOnPath, DEFAULT_TOOLS } from './tools.ts';

export type { InstallShimsOptions, ShimInstall } from './install.ts';
export type {
  ShimAttempt,
  ShimCallRecord,
  ShimChildRecord,
  ShimChunk,
  ShimPlan,
  ShimRecord,
  ShimVersionRecord,
} from './plan.ts';
export type { ResolvedTools } from './tools.ts';
