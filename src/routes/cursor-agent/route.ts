/**
 * cursor-agent (`cursor-agent -p --output-format json|stream-json`, not on npm): every fact
 * routecert knows about it. Its backend is proprietary, so it cannot run here: documented and
 * issue cases only.
 */
import { genericDecoder } from '#src/routes/generic/decoder.ts';
import { defineRoute } from '#src/routes/define.ts';

/** cursor-agent. */
export const cursorAgentRoute = defineRoute({
  cli: 'cursor-agent',
  title: 'cursor-agent',
  bin: 'cursor-agent',
  npmPackage: null,
  routes: [
    { route: 'cursor-agent/json', framings: ['json-document'], streams: false, decoder: () => genericDecoder('cursor-agent/json', { header: 'cursor-agent json (documented)', terminalType: 'result' }) },
    {
      route: 'cursor-agent/stream-json',
      framings: ['jsonl'],
      streams: true,
      decoder: () => genericDecoder('cursor-agent/stream-json', { header: 'cursor-agent stream-json (documented)', terminalType: 'result', assistantEvents: true }),
    },
  ],
  schema: null,
  answer: '`result` (possibly fenced)',
  versions: { recorded: '2026.09.18-9a7762b' },
  casesFrom: 'documented / issue',
  note: 'proprietary backend; documented cases only',
});
