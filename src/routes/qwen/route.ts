/**
 * Qwen Code (`qwen -p`): every fact routecert knows about it. Facts from Qwen Code 0.24.4 run
 * against the loopback mock (research/cli-envelopes.md, probes/qwen.test.ts).
 */
import { defineRoute, driverOf } from '#src/routes/define.ts';
import { qwenDecoder } from './decoder.ts';
import { QWEN_POV_PLAN } from './plan.ts';
import { qwenProbe } from './probe.ts';

/** Qwen Code. */
export const qwenRoute = defineRoute({
  cli: 'qwen',
  title: 'Qwen Code',
  bin: 'qwen',
  npmPackage: '@qwen-code/qwen-code',
  routes: [
    { route: 'qwen-code/json', framings: ['json-array'], streams: false, outputFormat: { flags: ['--output-format', '-o'], value: 'json' }, decoder: () => qwenDecoder('qwen-code/json') },
    { route: 'qwen-code/stream-json', framings: ['jsonl'], streams: true, outputFormat: { flags: ['--output-format', '-o'], value: 'stream-json' }, decoder: () => qwenDecoder('qwen-code/stream-json') },
  ],
  schema: { flag: '--json-schema', value: 'json' },
  forbiddenFlags: [
    { flag: '--yolo', source: '`qwen --help` of Qwen Code 0.24.4' },
    { flag: '-y', source: '`qwen --help` of Qwen Code 0.24.4 (alias of --yolo)' },
    { flag: '--approval-mode', value: 'yolo', source: '`qwen --help` of Qwen Code 0.24.4 (mode yolo)' },
  ],
  answer: '`structured_result`',
  versions: { recorded: '0.24.4' },
  casesFrom: 'recorded hermetically',
  probe: {
    hooks: qwenProbe,
    plan: QWEN_POV_PLAN,
    mock: 'Chat Completions mock (SSE), structured_output tool, OPENAI_BASE_URL + ~/.qwen/settings.json',
    lintProfile: 'qwen-code',
  },
});

/** The Qwen Code probe driver (built from {@link qwenRoute}). */
export const qwenDriver = driverOf(qwenRoute);
