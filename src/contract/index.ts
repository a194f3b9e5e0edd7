export { VERDICTS } from './types.ts';
export { defineContract, normalizeDefinition, definitionProblems, ContractDefinitionError, commitsResolve, withoutFinality, valueAt, DEFAULT_CLIP } from './define.ts';
export { PRESET_NAMES, PRESET_DIR, presetDefinition, presetContract } from './presets.ts';
export { povContract, DEFAULT_POV_POLICY, FINAL_ANSWER_ADDENDUM } from './pov.ts';
export { loadContract, CONTRACT_NAMES, UnknownContractError } from './registry.ts';
export { judgeCase } from './judgeCase.ts';
export { compileValidator } from './validator.ts';
export { selectLastShaped, LAST_SHAPED_RULES } from './select.ts';
export { CODEC_KINDS, buildCodec } from './codecs.ts';
export { REPLY_SHAPES, jsonObjectCodec } from './roleOutput.ts';
export { eventCodec } from './event.ts';
export { readFooter, isResultLike, footerCodec, FOOTER_RESULTS, FOOTER_PROBLEMS } from './reviewFooter.ts';

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
export type { ContractDefinition, ContractExtensions, ContractSessionState, DefinedContract, NormalizedContractDefinition, Reading } from './define.ts';
export type { PovContract, PovPolicy } from './pov.ts';
export type { AttemptJudgement, CaseJudgement } from './judgeCase.ts';
export type { Validator } from './validator.ts';
export type { LastShapedRule, LastShapedSelection } from './select.ts';
export type { Codec } from './codecs.ts';
export type { ReplyCodec } from './types.ts';
export type { ReplyReading, ReplyShape } from './roleOutput.ts';
export type { EventCodecApi, EventContract, EventOptions, EventReading } from './event.ts';
export type { FooterProblem, FooterReading, ReviewKind } from './reviewFooter.ts';
