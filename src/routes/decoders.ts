/**
 * Every route decoder routecert ships, and the registry that picks one by route id
 * (src/routes/registry.ts). Each decoder lives in its CLI's folder (src/routes/<cli>/decoder.ts) and
 * is the only code that reads that CLI's output.
 */
export { claudeDecoder } from './claude/decoder.ts';
export { codexDecoder, readCodexFailure, CODEX_ROUTE, CODEX_LAST_MESSAGE_FILE } from './codex/decoder.ts';
export {
  genericDecoder,
  genericRouteDecoder,
  genericDecoderFromOption,
  parseGenericSpec,
  GenericSpecError,
  GENERIC_SPEC_HELP,
  GENERIC_ROUTE_PREFIX,
} from './generic/decoder.ts';
export { geminiDecoder, geminiErrorStatus } from './gemini/decoder.ts';
export { grokCliDecoder, grokCliErrorStatus, GROK_CLI_ERROR_PREFIX } from './grok-cli/decoder.ts';
export { qwenDecoder, qwenErrorStatus, qwenRejectionLine } from './qwen/decoder.ts';
export { opencodeDecoder, opencodeErrorStatus, OPENCODE_ROUTE } from './opencode/decoder.ts';
export { copilotDecoder, copilotErrorStatus, COPILOT_ROUTE } from './copilot/decoder.ts';
export { piDecoder, piErrorStatus, PI_ROUTE } from './pi/decoder.ts';
export { defaultDecoders, withDecoders, decoderFor, UnknownRouteError } from './registry.ts';

export type { GenericDecoderOptions, EventFilter } from './generic/decoder.ts';
export type { GeminiDecoderRoute } from './gemini/decoder.ts';
export type { QwenRoute } from './qwen/decoder.ts';
