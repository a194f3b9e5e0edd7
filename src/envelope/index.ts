export { claudeDecoder } from '#src/routes/claude/decoder.ts';
export { codexDecoder } from '#src/routes/codex/decoder.ts';
export { genericDecoder, genericRouteDecoder, genericDecoderFromOption, parseGenericSpec, GenericSpecError } from './generic.ts';
export { defaultDecoders, withDecoders, decoderFor, UnknownRouteError } from './registry.ts';

export type { GenericDecoderOptions, EventFilter } from './generic.ts';
export type { Candidate, Decoded, DecodeOptions, Envelope, EnvelopeStatus, Origin, RouteDecoder } from './types.ts';
