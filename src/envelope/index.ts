export { claudeDecoder, STRUCTURED_FIELD_NAMES } from './claude.ts';
export { codexDecoder, readCodexFailure, CODEX_ROUTE, CODEX_LAST_MESSAGE_FILE } from './codex.ts';
export {
  genericDecoder,
  genericRouteDecoder,
  genericDecoderFromOption,
  parseGenericSpec,
  GenericSpecError,
  GENERIC_SPEC_HELP,
  GENERIC_ROUTE_PREFIX,
} from './generic.ts';
export { geminiDecoder, geminiErrorStatus } from './gemini.ts';
export { grokCliDecoder, grokCliErrorStatus, GROK_CLI_ERROR_PREFIX } from './grokCli.ts';
export { qwenDecoder, qwenErrorStatus, qwenRejectionLine, stripAnsi } from './qwen.ts';
export { opencodeDecoder, opencodeErrorStatus, OPENCODE_ROUTE } from './opencode.ts';
export { copilotDecoder, copilotErrorStatus, COPILOT_ROUTE } from './copilot.ts';
export { piDecoder, piErrorStatus, PI_ROUTE } from './pi.ts';
export { defaultDecoders, withDecoders, decoderFor, UnknownRouteError } from './registry.ts';
export { foldKey, findKeys, isPlainObject, pointerToken } from './keys.ts';
export { readJsonDocuments, jsonEvents, framingOf } from './jsonl.ts';
export { canonicalJson, dedupeCandidates } from './candidates.ts';

export type { GenericDecoderOptions, EventFilter } from './generic.ts';
export type { GeminiDecoderRoute } from './gemini.ts';
export type { QwenRoute } from './qwen.ts';
export type { JsonDocument, JsonDocuments, JsonEvent } from './jsonl.ts';
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
