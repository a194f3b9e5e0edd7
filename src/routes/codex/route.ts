/**
 * Codex (`codex exec --json`): every fact routecert knows about it. Facts from Codex 0.171.0 run
 * against the loopback mock (research/cli-envelopes.md, probes/codex.test.ts).
 */
import { defineRoute, driverOf } from '#src/routes/define.ts';
import { codexDecoder } from './decoder.ts';
import { CODEX_POV_PLAN } from './plan.ts';
import { codexProbe } from './probe.ts';

/** Codex. */
export const codexRoute = defineRoute({
  cli: 'codex',
  title: 'Codex',
  bin: 'codex',
  npmPackage: '@openai/codex',
  // `--experimental-json` is a clap alias of `--json` (codex-rs/exec/src/cli.rs: `#[arg(long = "json", alias = "experimental-json")]`); @openai/codex-sdk spawns it.
  routes: [{ route: 'codex/jsonl', framings: ['jsonl'], streams: true, outputFormat: { flags: ['--json', '--experimental-json'], value: null }, decoder: codexDecoder }],
  schema: { flag: '--output-schema', value: 'file' },
  forbiddenFlags: [
    { flag: '--dangerously-bypass-approvals-and-sandbox', source: '`codex exec --help` of Codex 0.171.0' },
    { flag: '--dangerously-bypass-hook-trust', source: '`codex exec --help` of Codex 0.171.0' },
    { flag: '--full-auto', source: '`codex exec --help` of Codex 0.153.0 (sandboxed automatic execution; src/routes/codex/probe.ts)' },
    { flag: '--yolo', source: 'alias of --dangerously-bypass-approvals-and-sandbox (src/routes/codex/probe.ts CODEX_FORBIDDEN_FLAGS)' },
    { flag: '--sandbox', value: 'danger-full-access', source: '`codex exec --help` of Codex 0.171.0 (policy danger-full-access)' },
    { flag: '-s', value: 'danger-full-access', source: '`codex exec --help` of Codex 0.171.0 (policy danger-full-access)' },
    // The same policy as a configuration override (`-c key=value`, the value parsed as TOML): how
    // ai-sdk-provider-codex-cli 2.2.1 sends its `sandboxMode` setting (`-c sandbox_mode=<mode>`).
    { flag: '-c', config: 'sandbox_mode', value: 'danger-full-access', source: '`codex exec --help` of Codex 0.171.0 (-c/--config overrides config.toml; key sandbox_mode)' },
    { flag: '--config', config: 'sandbox_mode', value: 'danger-full-access', source: '`codex exec --help` of Codex 0.171.0 (-c/--config overrides config.toml; key sandbox_mode)' },
  ],
  sideFiles: [{ role: 'last-message', flags: ['-o', '--output-last-message'] }],
  answer: 'last `agent_message` text, `-o` last-message file',
  versions: { recorded: '0.171.0' },
  casesFrom: 'recorded hermetically (Responses mock enforcing OpenAI strict rules)',
  probe: {
    hooks: codexProbe,
    plan: CODEX_POV_PLAN,
    mock: 'OpenAI Responses mock (SSE, strict text.format enforced), custom model_provider in CODEX_HOME/config.toml',
    lintProfile: 'codex',
  },
});

/** The Codex probe driver (built from {@link codexRoute}). */
export const codexDriver = driverOf(codexRoute);
