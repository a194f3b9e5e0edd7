/**
 * Probes of real installed CLIs: discovery, route argv/env, and the hermetic runner.
 */
// Discovery
export { discoverCli } from '#src/probe/discover.ts';
// Claude Code routes
export { CLAUDE_ROUTES, CLAUDE_PINNED_MODEL, SCHEMA_PLACEHOLDER, FORBIDDEN_FLAGS } from '#src/routes/claude/probe.ts';
// Codex route
export {
  CODEX_PINNED_MODEL,
  CODEX_SCHEMA_PLACEHOLDER,
  CODEX_LAST_MESSAGE_PLACEHOLDER,
  CODEX_FORBIDDEN_FLAGS,
} from '#src/routes/codex/probe.ts';
// Runner
export { runProbe, runStartupProbe } from '#src/probe/run.ts';

// Discovery
export type { CliName, DiscoveredCli } from '#src/probe/discover.ts';
// Claude Code routes
export type { ClaudeRoute } from '#src/routes/claude/probe.ts';
// Codex route
// Runner
export type { ProbeResult } from '#src/probe/run.ts';
// Drivers
// Each CLI's driver, built from its route definition (src/routes/<cli>/route.ts)
export { codexDriver } from '#src/routes/codex/route.ts';
export { qwenDriver } from '#src/routes/qwen/route.ts';
export { geminiDriver } from '#src/routes/gemini/route.ts';
export { opencodeDriver } from '#src/routes/opencode/route.ts';
export { copilotDriver } from '#src/routes/copilot/route.ts';
export { piDriver } from '#src/routes/pi/route.ts';
export { grokCliDriver } from '#src/routes/grok-cli/route.ts';
// Chat Completions family (issue 3): Qwen Code, opencode, Copilot CLI, pi
export { QWEN_ROUTES, QWEN_PINNED_MODEL, QWEN_SCHEMA_PLACEHOLDER } from '#src/routes/qwen/probe.ts';
export { OPENCODE_PINNED_MODEL } from '#src/routes/opencode/probe.ts';
export { COPILOT_PINNED_MODEL } from '#src/routes/copilot/probe.ts';
export { PI_PROVIDER_ID, PI_PINNED_MODEL } from '#src/routes/pi/probe.ts';
export type { QwenProbeRoute } from '#src/routes/qwen/probe.ts';
// Startup table: canaries, classification, the table
export { lintExpectation, routeFormat, startupRoutes } from '#src/probe/startup.ts';
export type { StartupSubject } from '#src/probe/startup.ts';
export type { StartupCell, StartupTable } from './startupTypes.ts';
// Schema in the prompt (CLIs without a schema flag)
export { SCHEMA_PROMPT_LEAD } from '#src/routes/schemaPrompt.ts';
// Gemini CLI routes
export { GEMINI_ROUTES, GEMINI_PINNED_MODEL } from '#src/routes/gemini/probe.ts';
export type { GeminiRoute } from '#src/routes/gemini/probe.ts';
// grok-cli route
export { GROK_CLI_PINNED_MODEL, GROK_CLI_TEST_API_KEY, PROMPT_PLACEHOLDER } from '#src/routes/grok-cli/probe.ts';
