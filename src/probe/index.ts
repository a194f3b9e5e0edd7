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
  claudeArgv,
  claudeEnv,
  isClaudeRoute,
} from '#src/probe/claude.ts';
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
export type { ClaudeRoute, ClaudeArgv, ClaudeArgvOptions, ClaudeEnvOptions } from '#src/probe/claude.ts';
// Runner
export type { ProbeOptions, ProbeResult, StartupProbeResult } from '#src/probe/run.ts';
// Drivers
export { PROBE_DRIVERS, driverFor, driverForRoute } from '#src/probe/drivers.ts';
export { claudeDriver, claudeRejectionLine } from '#src/probe/claude.ts';
export { KNOWN_CLIS } from '#src/probe/known.ts';
export type { ProbeDriver, PrepareInput, PreparedRun, ProbeWorkspace } from '#src/probe/driver.ts';
export type { KnownCli } from '#src/probe/known.ts';
