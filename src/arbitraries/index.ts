/**
 * Arbitraries (fast-check) of envelopes, answers, stderr texts and schema payloads, each envelope with
 * the verdict it was built to get; plus the plan functions metamorphic properties use.
 */
export { schemaPayload } from './schemaPayload.ts';
export { povAnswer, checkAnswer } from './povAnswer.ts';
export { proseText } from './proseText.ts';
export { answerStyle } from './answerStyle.ts';
export { stderrText, evidenceForm, STDERR_KINDS } from './stderrText.ts';
export { claudeJsonEnvelope, CLAUDE_PROVIDER_ERRORS } from './claudeJsonEnvelope.ts';
export { claudeStreamEnvelope } from './claudeStreamEnvelope.ts';
export { grokJsonEnvelope } from './grokJsonEnvelope.ts';
export { cursorStreamEnvelope } from './cursorStreamEnvelope.ts';
export { freeTextEnvelope } from './freeTextEnvelope.ts';
export { routeEnvelope, STRUCTURED_FAMILIES } from './routeEnvelope.ts';
export { hostileStdout } from './hostileStdout.ts';
export { InvalidPayloadError } from './errors.ts';
export { FINALITIES, ROUTE_FAMILIES } from './types.ts';
export { STRUCTURED_SPELLINGS, STARTUP_MESSAGES } from './_internals/material.ts';
export { renderPlan, renderText } from './_internals/render.ts';
export { answersRead, expectedOf } from './_internals/truth.ts';
export { generatedFrom } from './_internals/generated.ts';
export { insertAnswer, insertionPoints, respell, withStderr, withoutFinality } from './_internals/transform.ts';
export { productionSchema, productionSchemaNames } from './_internals/schemas.ts';

// Shapes
export type {
  AnswerStyle,
  AnswerWrap,
  ClaudeJsonPlan,
  ClaudeStreamEvent,
  ClaudeStreamPlan,
  CursorStreamPlan,
  EnvelopeConstraints,
  EnvelopePlan,
  Expected,
  Finality,
  FreeTextPlan,
  GeneratedEnvelope,
  GrokJsonPlan,
  PovAnswer,
  ProcessPlan,
  RouteFamily,
  Separator,
  StructuredSlot,
  TerminalFailure,
  TextPiece,
  TextPlan,
} from './types.ts';
// Constraints
export type { SchemaPayloadConstraints } from './schemaPayload.ts';
export type { PovAnswerConstraints } from './povAnswer.ts';
export type { ProseTextConstraints } from './proseText.ts';
export type { AnswerStyleConstraints } from './answerStyle.ts';
export type { StderrKind, StderrTextConstraints } from './stderrText.ts';
export type { RouteEnvelopeConstraints } from './routeEnvelope.ts';
export type { HostileStdoutConstraints } from './hostileStdout.ts';
