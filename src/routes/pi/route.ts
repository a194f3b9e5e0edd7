/**
 * pi (`pi --mode json`): every fact routecert knows about it. Facts from pi 0.73.1 run against
 * the loopback mock (research/cli-envelopes.md section 8, probes/pi.test.ts).
 */
import { defineRoute, driverOf } from '#src/routes/define.ts';
import { piDecoder } from './decoder.ts';
import { PI_POV_PLAN } from './plan.ts';
import { piProbe } from './probe.ts';

/** pi. */
export const piRoute = defineRoute({
  cli: 'pi',
  title: 'pi',
  bin: 'pi',
  npmPackage: '@mariozechner/pi-coding-agent',
  // json mode prints one JSON event per line as the session runs.
  routes: [{ route: 'pi/json', framings: ['jsonl'], streams: true, outputFormat: { flags: ['--mode'], value: 'json' }, decoder: piDecoder }],
  schema: null,
  forbiddenFlags: [
    { flag: '--yolo', source: 'research/ce-plugin.md 1.2 (never-emit flags asserted on every route); pi 0.73.1 has no permission flag of its own (`pi --help`)' },
  ],
  answer: 'last assistant `message_end`',
  versions: { recorded: '0.73.1' },
  casesFrom: 'recorded hermetically',
  probe: {
    hooks: piProbe,
    plan: PI_POV_PLAN,
    mock: 'Chat Completions mock (SSE), ~/.pi/agent/models.json baseUrl; schema in the prompt',
  },
});

/** The pi probe driver (built from {@link piRoute}). */
export const piDriver = driverOf(piRoute);
