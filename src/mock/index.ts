/**
 * Provider mocks: scripted scenarios, msw handlers for provider APIs, and the loopback server that
 * serves them to child processes. Handler definitions start no server.
 */
// Scenarios
export {
  SCENARIOS,
  DEFAULT_FINAL_PAYLOAD,
  DEFAULT_PLACEHOLDER_PAYLOAD,
  DEFAULT_PAYLOADS,
  PROSE_ONLY_TEXT,
  AFTER_ACCEPTED_TEXT,
  withoutFinal,
  fencedText,
  planTurn,
  isScenarioName,
} from '#src/mock/scenarios.ts';
// Anthropic Messages API
export {
  DEFAULT_MOCK_MODEL,
  STRUCTURED_OUTPUT_TOOL,
  STRUCTURED_OUTPUT_ENFORCE_PREFIX,
  anthropicHandlers,
  readAnthropicTurnContext,
  renderAnthropicSse,
} from '#src/mock/anthropic.ts';
// Loopback server
export { REDACTED_HEADERS, REDACTED, startLoopbackServer } from '#src/mock/server.ts';

// Scenarios
export type {
  ScenarioName,
  ScenarioPayloads,
  JsonObject,
  Turn,
  TurnBlock,
  TurnContext,
} from '#src/mock/scenarios.ts';
// Anthropic Messages API
export type { AnthropicHandlersOptions } from '#src/mock/anthropic.ts';
// Loopback server
export type { RecordedRequest, LoopbackServer, LoopbackServerOptions } from '#src/mock/server.ts';
