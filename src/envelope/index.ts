export { claudeDecoder, STRUCTURED_FIELD_NAMES } from './claude.ts';
export { genericDecoder } from './generic.ts';
export { defaultDecoders, withDecoders, decoderFor, UnknownRouteError } from './registry.ts';
export { foldKey, findKeys, isPlainObject, pointerToken } from './keys.ts';
export { readJsonDocuments } from './jsonl.ts';
export { canonicalJson, dedupeCandidates } from './candidates.ts';

export type { GenericDecoderOptions } from './generic.ts';
export type { JsonDocument, JsonDocuments } from './jsonl.ts';
export type {
  Candidate,
  Decoded,
  DecodeOptions,
  Envelope,
  EnvelopeStatus,
  Milliseconds,
  Origin,
  RouteDecoder,
} from './types.ts';
