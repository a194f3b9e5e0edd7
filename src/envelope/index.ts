/**
 * The envelope toolkit the route decoders use: JSON documents and events, key folding, candidates,
 * status helpers, the reply's building blocks, and the types every layer shares. It imports nothing
 * above it (no route, no contract): the decoders and their registry live in src/routes/
 * (src/routes/decoders.ts).
 */

export type { Candidate, Decoded, DecodeOptions, Envelope, EnvelopeStatus, Origin, RouteDecoder } from './types.ts';
