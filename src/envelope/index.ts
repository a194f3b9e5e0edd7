export { claudeDecoder, STRUCTURED_FIELD_NAMES } from '#src/routes/claude/decoder.ts';
export { codexDecoder, readCodexFailure, CODEX_ROUTE, CODEX_LAST_MESSAGE_FILE } from '#src/routes/codex/decoder.ts';
export {
  genericDecoder,
  genericRouteDecoder,
  genericDecoderFromOption,
  parseGenericSpec,
  GenericSpecError,
  GENERIC_SPEC_HELP,
  GENERIC_ROUTE_PREFIX,
} from './generic.ts';
export { geminiDecoder, geminiErrorStatus } from '#src/routes/gemini/decoder.ts';
export { grokCliDecoder, grokCliErrorStatus, GROK_CLI_ERROR_PREFIX } from '#src/routes/grok-cli/decoder.ts';
export { qwenDecoder, qwenErrorStatus, qwenRejectionLine, stripAnsi } from '#src/routes/qwen/decoder.ts';
export { opencodeDecoder, opencodeErrorStatus, OPENCODE_ROUTE } from '#src/routes/opencode/decoder.ts';
export { copilotDecoder, copilotErrorStatus, COPILOT_ROUTE } from '#src/routes/copilot/decoder.ts';
export { piDecoder, piErrorStatus, PI_ROUTE } from '#src/routes/pi/decoder.ts';
export { defaultDecoders, withDecoders, decoderFor, UnknownRouteError } from './registry.ts';
export { foldKey, findKeys, isPlainObject, isStructuredOrigin } from './keys.ts';
export { readReply, REPLY_TEXT_FIELDS } from './reply.ts';
export { envelopeFacts } from './decodeParts.ts';
export { readJsonDocuments, jsonEvents, framingOf } from './jsonl.ts';
export { canonicalJson, dedupeCandidates } from './candidates.ts';

export type { GenericDecoderOptions, EventFilter } from './generic.ts';
export type { GeminiDecoderRoute } from '#src/routes/gemini/decoder.ts';
export type { QwenRoute } from '#src/routes/qwen/decoder.ts';
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
