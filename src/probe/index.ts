/**
 * Probes of real installed CLIs: discovery, route argv/env, and the hermetic runner.
 */
// Discovery
export { INSTALL_HINT, VERSION_TIMEOUT_MS, discoverCli, parseVersion, readVersion, projectRoot } from '#src/probe/discover.ts';
// Claude Code routes
export {
  CLAUDE_ROUTES,
  CLAUDE_PINNED_MODEL,
  CLAUDE_DEFAULT_MAX_TURNS,
  CLAUDE_TEST_API_KEY,
  SCHEMA_PLACEHOLDER,
  FORBIDDEN_FLAGS,
  CLAUDE_TEXT_ROUTE,
  claudeArgv,
  claudeEnv,
  isClaudeRoute,
} from '#src/routes/claude/probe.ts';
// Codex route
export {
  CODEX_ROUTES,
  CODEX_PINNED_MODEL,
  CODEX_MOCK_PROVIDER,
  CODEX_MOCK_KEY_ENV,
  CODEX_TEST_API_KEY,
  CODEX_SCHEMA_PLACEHOLDER,
  CODEX_LAST_MESSAGE_PLACEHOLDER,
  CODEX_FORBIDDEN_FLAGS,
  DEAD_PROXY,
  codexArgv,
  codexConfigToml,
  codexEnv,
  codexRejectionLine,
  isCodexRoute,
} from '#src/routes/codex/probe.ts';
// Runner
export {
  DEFAULT_PROBE_TIMEOUT_MS,
  DEFAULT_PROBE_PROMPT,
  runProbe,
  runStartupProbe,
  schemaRejectionLine,
} from '#src/probe/run.ts';

// Discovery
export type { CliName, DiscoveredCli, DiscoverOptions } from '#src/probe/discover.ts';
// Claude Code routes
export type { ClaudeRoute, ClaudeArgv, ClaudeArgvOptions, ClaudeEnvOptions } from '#src/routes/claude/probe.ts';
// Codex route
export type { CodexRoute, CodexArgvOptions } from '#src/routes/codex/probe.ts';
// Runner
export type { ProbeOptions, ProbeResult, StartupProbeResult } from '#src/probe/run.ts';
// Drivers
export { PROBE_DRIVERS, driverFor } from '#src/probe/drivers.ts';
// Each CLI's driver, built from its route definition (src/routes/<cli>/route.ts)
export { claudeDriver } from '#src/routes/claude/route.ts';
export { codexDriver } from '#src/routes/codex/route.ts';
export { qwenDriver } from '#src/routes/qwen/route.ts';
export { geminiDriver } from '#src/routes/gemini/route.ts';
export { opencodeDriver } from '#src/routes/opencode/route.ts';
export { copilotDriver } from '#src/routes/copilot/route.ts';
export { piDriver } from '#src/routes/pi/route.ts';
export { grokCliDriver } from '#src/routes/grok-cli/route.ts';
export { claudeRejectionLine } from '#src/routes/claude/probe.ts';
// Chat Completions family (issue 3): Qwen Code, opencode, Copilot CLI, pi
export {
  QWEN_ROUTES,
  QWEN_PINNED_MODEL,
  QWEN_TEST_API_KEY,
  QWEN_STRUCTURED_TOOL,
  QWEN_SCHEMA_PLACEHOLDER,
  QWEN_HERMETIC_SETTINGS,
  isQwenRoute,
  qwenArgv,
  qwenEnv,
} from '#src/routes/qwen/probe.ts';
export {
  OPENCODE_ROUTES,
  OPENCODE_PROVIDER_ID,
  OPENCODE_PINNED_MODEL,
  OPENCODE_TEST_API_KEY,
  opencodeConfig,
  opencodeEnv,
  prepareOpencodeConfigDir,
} from '#src/routes/opencode/probe.ts';
export { COPILOT_ROUTES, COPILOT_PINNED_MODEL, COPILOT_TEST_API_KEY, COPILOT_ARGV, copilotEnv } from '#src/routes/copilot/probe.ts';
export { PI_ROUTES, PI_PROVIDER_ID, PI_PINNED_MODEL, PI_TEST_API_KEY, PI_HERMETIC_SETTINGS, piModelsJson, piArgv, piEnv } from '#src/routes/pi/probe.ts';
export type { QwenProbeRoute } from '#src/routes/qwen/probe.ts';
export { KNOWN_CLIS } from '#src/probe/known.ts';
export type { ProbeDriver, PrepareInput, PreparedRun, ProbeWorkspace } from '#src/probe/driver.ts';
export type { KnownCli } from '#src/probe/known.ts';
// Startup table: canaries, classification, the table
export { CANARY_BASELINE, CANARY_GROUPS, CANARY_PAYLOAD, canaryById, canarySchemas } from '#src/probe/canaries.ts';
export {
  LINT_PROFILE_BY_CLI,
  PROVIDER_SCHEMA_REFUSALS,
  STARTUP_MESSAGE_LIMIT_CHARS,
  STARTUP_ONLY_ROUTES,
  classifyStartup,
  lintExpectation,
  providerRefusal,
  routeFormat,
  runStartupTable,
  startupRoutes,
  summariseStartup,
} from '#src/probe/startup.ts';
export type { Canary, CanaryGroup } from '#src/probe/canaries.ts';
export type { StartupSubject, StartupTableOptions, StartupTarget } from '#src/probe/startup.ts';
export type {
  StartupCell,
  StartupColumn,
  StartupExpectation,
  StartupObservation,
  StartupOutcome,
  StartupRow,
  StartupRowKind,
  StartupStage,
  StartupSummary,
  StartupTable,
} from './startupTypes.ts';
// Schema in the prompt (CLIs without a schema flag)
export { SCHEMA_PROMPT_LEAD, promptWithSchema } from '#src/routes/schemaPrompt.ts';
// Gemini CLI routes
export {
  GEMINI_ROUTES,
  GEMINI_PINNED_MODEL,
  GEMINI_TEST_API_KEY,
  GEMINI_HERMETIC_SETTINGS,
  geminiArgv,
  geminiEnv,
  isGeminiRoute,
} from '#src/routes/gemini/probe.ts';
export type { GeminiRoute } from '#src/routes/gemini/probe.ts';
// grok-cli route
export {
  GROK_CLI_ROUTES,
  GROK_CLI_PINNED_MODEL,
  GROK_CLI_TEST_API_KEY,
  PROMPT_PLACEHOLDER,
  grokCliArgv,
  grokCliEnv,
} from '#src/routes/grok-cli/probe.ts';
