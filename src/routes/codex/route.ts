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
  routes: [{ route: 'codex/jsonl', framings: ['jsonl'], streams: true, decoder: codexDecoder }],
  schema: { flag: '--output-schema', value: 'file' },
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
