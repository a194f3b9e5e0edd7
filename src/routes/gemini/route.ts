/**
 * Gemini CLI (`gemini -p`): every fact routecert knows about it. Facts from Gemini CLI 0.61.0 run
 * against the loopback mock (research/cli-envelopes.md, probes/gemini.test.ts).
 */
import { defineRoute, driverOf } from '#src/routes/define.ts';
import { geminiDecoder } from './decoder.ts';
import { GEMINI_POV_PLAN } from './plan.ts';
import { geminiProbe } from './probe.ts';

/** Gemini CLI. */
export const geminiRoute = defineRoute({
  cli: 'gemini',
  title: 'Gemini CLI',
  bin: 'gemini',
  npmPackage: '@google/gemini-cli',
  routes: [
    { route: 'gemini-cli/json', framings: ['json-document'], streams: false, outputFormat: { flags: ['--output-format', '-o'], value: 'json' }, decoder: () => geminiDecoder('gemini-cli/json') },
    { route: 'gemini-cli/stream-json', framings: ['jsonl'], streams: true, outputFormat: { flags: ['--output-format', '-o'], value: 'stream-json' }, decoder: () => geminiDecoder('gemini-cli/stream-json') },
  ],
  schema: null,
  forbiddenFlags: [
    { flag: '--yolo', source: '`gemini --help` of Gemini CLI 0.61.0' },
    { flag: '-y', source: '`gemini --help` of Gemini CLI 0.61.0 (alias of --yolo)' },
    { flag: '--approval-mode', value: 'yolo', source: '`gemini --help` of Gemini CLI 0.61.0 (mode yolo)' },
  ],
  answer: '`response` string (json), assistant message deltas (stream-json)',
  versions: { recorded: '0.61.0' },
  casesFrom: 'recorded hermetically',
  probe: {
    hooks: geminiProbe,
    plan: GEMINI_POV_PLAN,
    mock: 'Gemini API mock (streamGenerateContent SSE), GOOGLE_GEMINI_BASE_URL + API-key settings; no schema flag (schema in the prompt)',
  },
});

/** The Gemini CLI probe driver (built from {@link geminiRoute}). */
export const geminiDriver = driverOf(geminiRoute);
