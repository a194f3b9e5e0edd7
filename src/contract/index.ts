export { VERDICTS } from './types.ts';
export { defineContract, definitionProblems, ContractDefinitionError } from './define.ts';
export { PRESET_NAMES, presetDefinition, presetContract } from './presets.ts';
export { povContract, DEFAULT_POV_POLICY, FINAL_ANSWER_ADDENDUM } from './pov.ts';
export { loadContract } from './registry.ts';
export { judgeCase } from './judgeCase.ts';

export type { Contract, Verdict, VerdictName } from './types.ts';
export type { ContractDefinition, ContractExtensions, DefinedContract, NormalizedContractDefinition } from './define.ts';
export type { PovContract, PovPolicy } from './pov.ts';
export type { ReplyCodec } from './types.ts';
