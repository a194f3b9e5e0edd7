/**
 * Arbitraries (fast-check) of envelopes, answers, stderr texts and schema payloads, each envelope with
 * the verdict it was built to get; plus the plan functions metamorphic properties use.
 */
export { schemaPayload } from './schemaPayload.ts';
export { povAnswer, checkAnswer } from './povAnswer.ts';
export { stderrText, evidenceForm } from './stderrText.ts';
export { claudeJsonEnvelope } from './claudeJsonEnvelope.ts';
export { claudeStreamEnvelope } from './claudeStreamEnvelope.ts';
export { grokJsonEnvelope } from './grokJsonEnvelope.ts';
export { cursorStreamEnvelope } from './cursorStreamEnvelope.ts';
export { freeTextEnvelope } from './freeTextEnvelope.ts';
export { routeEnvelope } from './routeEnvelope.ts';
export { hostileStdout } from './hostileStdout.ts';
export { InvalidPayloadError } from './errors.ts';
export { ROUTE_FAMILIES } from './types.ts';
export { STRUCTURED_SPELLINGS } from './_internals/material.ts';
export { expectedOf } from './_internals/truth.ts';
export { productionSchema, productionSchemaNames } from './_internals/schemas.ts';

// Shapes
export type { ClaudeJsonPlan, EnvelopeConstraints, EnvelopePlan, Expected, GeneratedEnvelope, PovAnswer, TextPlan } from './types.ts';
