/**
 * GitHub Copilot CLI (`copilot -p --output-format json`): every fact routecert knows about it.
 * Facts from Copilot CLI 1.0.102 (BYOK) run against the loopback mock (probes/copilot.test.ts).
 */
import { defineRoute, driverOf } from '#src/routes/define.ts';
import { copilotDecoder } from './decoder.ts';
import { COPILOT_POV_PLAN } from './plan.ts';
import { copilotProbe } from './probe.ts';

/** Copilot CLI. */
export const copilotRoute = defineRoute({
  cli: 'copilot',
  title: 'Copilot CLI',
  bin: 'copilot',
  npmPackage: '@github/copilot',
  // `--output-format json` prints one JSON event per line as the session runs.
  routes: [{ route: 'copilot/json', framings: ['jsonl'], streams: true, outputFormat: { flags: ['--output-format'], value: 'json' }, decoder: copilotDecoder }],
  schema: null,
  forbiddenFlags: [
    { flag: '--allow-all', source: '`copilot --help` of Copilot CLI 1.0.102' },
    { flag: '--yolo', source: '`copilot --help` of Copilot CLI 1.0.102' },
    { flag: '--allow-all-tools', source: '`copilot --help` of Copilot CLI 1.0.102' },
    { flag: '--allow-all-paths', source: '`copilot --help` of Copilot CLI 1.0.102' },
    { flag: '--allow-all-urls', source: '`copilot --help` of Copilot CLI 1.0.102' },
  ],
  answer: '`assistant.message` content (BYOK)',
  versions: { recorded: '1.0.102' },
  casesFrom: 'recorded hermetically',
  probe: {
    hooks: copilotProbe,
    plan: COPILOT_POV_PLAN,
    mock: 'Chat Completions mock (SSE), BYOK COPILOT_PROVIDER_BASE_URL + COPILOT_OFFLINE; schema in the prompt',
  },
});

/** The Copilot CLI probe driver (built from {@link copilotRoute}). */
export const copilotDriver = driverOf(copilotRoute);
