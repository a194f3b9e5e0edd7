/**
 * grok-cli (`@vibe-kit/grok-cli`, binary `grok`): every fact routecert knows about it. Facts from
 * grok-cli 0.0.34 run against the loopback mock (probes/grokCli.test.ts). Not xAI's grok
 * (src/routes/grok/route.ts), though both install a `grok` binary.
 */
import { defineRoute, driverOf } from '#src/routes/define.ts';
import { grokCliDecoder } from './decoder.ts';
import { GROK_CLI_POV_PLAN } from './plan.ts';
import { grokCliProbe } from './probe.ts';

/** grok-cli. */
export const grokCliRoute = defineRoute({
  cli: 'grok-cli',
  title: 'grok-cli',
  bin: 'grok',
  npmPackage: '@vibe-kit/grok-cli',
  routes: [{ route: 'grok-cli/jsonl', framings: ['jsonl'], streams: true, outputFormat: { none: 'grok-cli -p prints JSONL without a format flag (src/routes/grok-cli/probe.ts, grok-cli 0.0.34)' }, decoder: grokCliDecoder }],
  schema: null,
  forbiddenFlags: [
    { flag: '--always-approve', source: 'research/ce-plugin.md 1.2 (never-emit flags asserted on every route); grok-cli 0.0.34 has no permission flag of its own (`grok --help`)' },
  ],
  answer: 'assistant message',
  versions: { recorded: '0.0.34', reports: '1.0.1' },
  casesFrom: 'recorded hermetically',
  probe: {
    hooks: grokCliProbe,
    plan: GROK_CLI_POV_PLAN,
    mock: 'non-streaming Chat Completions mock, GROK_BASE_URL; no schema flag (schema in the prompt); `grok --version` says 1.0.1 for 0.0.34',
  },
});

/** The grok-cli probe driver (built from {@link grokCliRoute}). */
export const grokCliDriver = driverOf(grokCliRoute);
