/**
 * Provider mocks: scripted scenarios, msw handlers for provider APIs, and the loopback server that
 * serves them to child processes. Handler definitions start no server.
 */
// Scenarios
export { SCENARIOS, DEFAULT_PAYLOADS, PROSE_ONLY_TEXT, withoutFinal, fencedText } from '#src/mock/scenarios.ts';
// Anthropic Messages API
export { STRUCTURED_OUTPUT_ENFORCE_PREFIX, anthropicHandlers } from '#src/mock/anthropic.ts';
// OpenAI Responses API and OpenAI strict structured-output rules
// Loopback server
export { startLoopbackServer } from '#src/mock/server.ts';
// OpenAI-compatible Chat Completions (may refuse tool calling)
// OpenAI Chat Completions, streamed (Qwen Code, opencode, Copilot CLI, pi)
export { TITLE_TEXT } from '#src/mock/openaiChat.ts';

// Scenarios
export type { ScenarioName } from '#src/mock/scenarios.ts';
// Anthropic Messages API
// OpenAI Chat Completions, streamed
// OpenAI Responses API and strict rules
// Loopback server
export type { LoopbackServer } from '#src/mock/server.ts';
// OpenAI-compatible Chat Completions
// Gemini API (streamGenerateContent SSE, router generateContent)
