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
// OpenAI Responses API and OpenAI strict structured-output rules
export {
  DEFAULT_OPENAI_MOCK_MODEL,
  openAiResponsesHandlers,
  readResponsesFormat,
  readResponsesTurnContext,
  renderResponsesSse,
  strictRejection,
} from '#src/mock/openaiResponses.ts';
export {
  OPENAI_STRICT_REFUSED_KEYWORDS,
  OPENAI_STRICT_FORMATS,
  OPENAI_STRICT_LIMITS,
  checkOpenAiStrict,
  openAiSchemaErrorBody,
  openAiSchemaErrorMessage,
  pythonTuple,
} from '#src/mock/openaiStrict.ts';
// Loopback server
export { REDACTED_HEADERS, REDACTED, startLoopbackServer } from '#src/mock/server.ts';
// OpenAI-compatible Chat Completions (may refuse tool calling)
export { openAiCompatHandlers, DEFAULT_OPENAI_USAGE, TOOLS_REJECTED_MESSAGE } from '#src/mock/openaiCompatHttp.ts';
// OpenAI Chat Completions, streamed (Qwen Code, opencode, Copilot CLI, pi)
export {
  DEFAULT_CHAT_MODEL,
  DEFAULT_CHAT_STRUCTURED_TOOL,
  TITLE_TEXT,
  CHAT_CREATED_S,
  openaiChatHandlers,
  readOpenAiChatTurnContext,
  isTitleRequest,
  chatContentText,
  chatChunks,
  renderChatSse,
  renderOpenAiChatCompletion,
  chatErrorBody,
} from '#src/mock/openaiChat.ts';

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
// OpenAI Chat Completions, streamed
export type { OpenAiChatHandlersOptions, ChatIds } from '#src/mock/openaiChat.ts';
// OpenAI Responses API and strict rules
export type { OpenAiResponsesHandlersOptions, ResponsesJsonSchemaFormat } from '#src/mock/openaiResponses.ts';
export type { StrictRule, StrictViolation } from '#src/mock/openaiStrict.ts';
// Loopback server
export type { RecordedRequest, LoopbackServer, LoopbackServerOptions } from '#src/mock/server.ts';
// OpenAI-compatible Chat Completions
export type { OpenAiCompatOptions, OpenAiCompatReply, OpenAiCompatRequest, OpenAiRequestMode } from '#src/mock/openaiCompatHttp.ts';
// Gemini API (streamGenerateContent SSE, router generateContent)
export {
  GEMINI_STREAM_PATH,
  GEMINI_GENERATE_PATH,
  GOOGLE_STATUS_NAMES,
  geminiHandlers,
  readGeminiTurnContext,
  renderGeminiSse,
  satisfySchema,
} from '#src/mock/gemini.ts';
export type { GeminiHandlersOptions } from '#src/mock/gemini.ts';
// OpenAI Chat Completions, non-streaming (grok-cli)
export { DEFAULT_CHAT_JSON_MODEL, openaiChatJsonHandlers, readChatJsonTurnContext, renderChatJsonCompletion } from '#src/mock/openaiChatJson.ts';
export type { OpenAIChatJsonHandlersOptions } from '#src/mock/openaiChatJson.ts';
