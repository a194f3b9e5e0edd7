/**
 * The envelope toolkit the route decoders use: JSON documents and events, key folding, candidates,
 * status helpers, the reply's building blocks, and the types every layer shares. It imports nothing
 * above it (no route, no contract): the decoders and their registry live in src/routes/
 * (src/routes/decoders.ts).
 */
export { foldKey, findKeys, isPlainObject, isStructuredOrigin, STRUCTURED_FIELD_NAMES } from './keys.ts';
export { objectReply, textReply, REPLY_TEXT_FIELDS } from './reply.ts';
export { envelopeFacts } from './decodeParts.ts';
export { readJsonDocuments, jsonEvents, framingOf } from './jsonl.ts';
export { canonicalJson, dedupeCandidates } from './candidates.ts';
export { stripAnsi } from './status.ts';

export type { JsonDocument, JsonDocuments, JsonEvent } from './jsonl.ts';
export type {
  Candidate,
  Decoded,
  DecodeOptions,
  Reply,
  RunFacts,
  Envelope,
  EnvelopeStatus,
  Milliseconds,
  Origin,
  RouteDecoder,
} from './types.ts';
