export { VERDICTS } from './types.ts';
export { povContract, DEFAULT_POV_POLICY, FINAL_ANSWER_ADDENDUM } from './pov.ts';
export { loadContract, readContractDefinition, CONTRACT_NAMES, CONTRACT_FACTORIES, UnknownContractError } from './registry.ts';
export { judgeCase } from './judgeCase.ts';
export { compileValidator } from './validator.ts';
export { findingsContract, selectFindings, FINDINGS_RULES } from './findings.ts';
export { roleOutputContract, commitsResolve, REPLY_SHAPES, DEFAULT_ROLE_OUTPUT_POLICY } from './roleOutput.ts';
export { eventContract } from './event.ts';
export { reviewFooterContract, readFooter, isResultLike, FOOTER_RESULTS, FOOTER_PROBLEMS, DEFAULT_FOOTER_POLICY } from './reviewFooter.ts';
export { readReply, REPLY_TEXT_FIELDS } from './reply.ts';

export type {
  AcceptedVerdict,
  Contract,
  CrashedVerdict,
  DroppedNonfinalVerdict,
  DroppedUnusableVerdict,
  InvalidStructuredOutputVerdict,
  ParseTier,
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
export type { FindingsContract, FindingsOptions, FindingsRule, FindingsSelection } from './findings.ts';
export type {
  ReplyReading,
  ReplyShape,
  RoleOutputContract,
  RoleOutputOptions,
  RoleOutputPolicy,
  RoleOutputSessionState,
  ValueCheck,
} from './roleOutput.ts';
export type { EventContract, EventOptions, EventReading } from './event.ts';
export type { FooterPolicy, FooterProblem, FooterReading, ReviewFooterContract, ReviewKind } from './reviewFooter.ts';
export type { Reply } from './reply.ts';
