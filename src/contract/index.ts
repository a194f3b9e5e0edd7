export { VERDICTS } from './types.ts';
export { povContract, DEFAULT_POV_POLICY, FINAL_ANSWER_ADDENDUM } from './pov.ts';
export { loadContract, readContractDefinition, CONTRACT_NAMES, CONTRACT_FACTORIES, UnknownContractError } from './registry.ts';
export { judgeCase } from './judgeCase.ts';
export { compileValidator } from './validator.ts';

export type {
  AcceptedVerdict,
  Contract,
  CrashedVerdict,
  DroppedNonfinalVerdict,
  DroppedUnusableVerdict,
  ProviderErrorVerdict,
  RetryVerdict,
  StartupRejectedVerdict,
  TimeoutVerdict,
  Verdict,
  VerdictName,
} from './types.ts';
export type { AttemptContext, PovContract, PovPolicy, ScoredCandidate } from './pov.ts';
export type { ContractDefinition, ContractFactory } from './registry.ts';
export type { AttemptJudgement, CaseJudgement } from './judgeCase.ts';
export type { Validator } from './validator.ts';
