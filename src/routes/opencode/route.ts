/**
 * opencode (`opencode run --format json`): every fact routecert knows about it. Facts from
 * opencode 1.18.33 run against the loopback mock (research/cli-envelopes.md, probes/opencode.test.ts).
 */
import { defineRoute, driverOf } from '#src/routes/define.ts';
import { opencodeDecoder } from './decoder.ts';
import { OPENCODE_POV_PLAN } from './plan.ts';
import { opencodeProbe } from './probe.ts';

/** opencode. */
export const opencodeRoute = defineRoute({
  cli: 'opencode',
  title: 'opencode',
  bin: 'opencode',
  npmPackage: 'opencode-ai',
  routes: [{ route: 'opencode/jsonl', framings: ['jsonl'], streams: true, outputFormat: { flags: ['--format'], value: 'json' }, decoder: opencodeDecoder }],
  schema: null,
  forbiddenFlags: [
    { flag: '--auto', source: '`opencode run --help` of opencode 1.18.33 ("auto-approve permissions ... (dangerous!)")' },
  ],
  answer: 'text parts',
  versions: { recorded: '1.18.33' },
  casesFrom: 'recorded hermetically',
  probe: {
    hooks: opencodeProbe,
    plan: OPENCODE_POV_PLAN,
    mock: 'Chat Completions mock (SSE), OPENCODE_CONFIG_CONTENT openai-compatible provider; schema in the prompt',
  },
});

/** The opencode probe driver (built from {@link opencodeRoute}). */
export const opencodeDriver = driverOf(opencodeRoute);
