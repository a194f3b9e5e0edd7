/**
 * Claude Code (`claude -p`): every fact routecert knows about it. Facts from Claude Code 2.1.332
 * run against the loopback mock (research/cli-envelopes.md section 2, probes/claude.test.ts).
 */
import { defineRoute, driverOf } from '#src/routes/define.ts';
import { claudeDecoder } from './decoder.ts';
import { CLAUDE_POV_PLAN } from './plan.ts';
import { CLAUDE_TEXT_ROUTE, claudeProbe } from './probe.ts';

/** Claude Code. */
export const claudeRoute = defineRoute({
  cli: 'claude',
  title: 'Claude Code',
  bin: 'claude',
  npmPackage: '@anthropic-ai/claude-code',
  routes: [
    { route: 'claude-code/json', framings: ['json-document', 'json-array'], streams: false, outputFormat: { flags: ['--output-format'], value: 'json' }, decoder: () => claudeDecoder('claude-code/json') },
    { route: 'claude-code/stream-json', framings: ['jsonl'], streams: true, outputFormat: { flags: ['--output-format'], value: 'stream-json' }, decoder: () => claudeDecoder('claude-code/stream-json') },
  ],
  schema: { flag: '--json-schema', value: 'json' },
  forbiddenFlags: [
    { flag: '--dangerously-skip-permissions', source: '`claude --help` of Claude Code 2.1.332' },
    { flag: '--allow-dangerously-skip-permissions', source: '`claude --help` of Claude Code 2.1.332' },
    { flag: '--permission-mode', value: 'bypassPermissions', source: '`claude --help` of Claude Code 2.1.332 (mode bypassPermissions)' },
  ],
  answer: '`structured_output` (+ `result` string, StructuredOutput tool_use)',
  versions: { recorded: '2.1.332' },
  casesFrom: 'recorded hermetically + issue cases',
  probe: {
    hooks: claudeProbe,
    plan: CLAUDE_POV_PLAN,
    mock: 'Anthropic Messages mock (SSE), ANTHROPIC_BASE_URL',
    lintProfile: 'claude-code',
    startupOnlyRoutes: [CLAUDE_TEXT_ROUTE],
  },
});

/** The Claude Code probe driver (built from {@link claudeRoute}). */
export const claudeDriver = driverOf(claudeRoute);
