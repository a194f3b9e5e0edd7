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
    { route: 'cursor-agent/json', framings: ['json-document'], streams: false, outputFormat: { flags: ['--output-format'], value: 'json' }, decoder: () => genericDecoder('cursor-agent/json', { header: 'cursor-agent json (documented)', terminalType: 'result' }) },
    {
      route: 'cursor-agent/stream-json',
      framings: ['jsonl'],
      streams: true, outputFormat: { flags: ['--output-format'], value: 'stream-json' },
      decoder: () => genericDecoder('cursor-agent/stream-json', { header: 'cursor-agent stream-json (documented)', terminalType: 'result', assistantEvents: true }),
    },
  ],
  schema: null,
  forbiddenFlags: [
    { flag: '--force', source: 'research/ce-plugin.md 1.2 (cursor-agent `--force` lifts command approval; never-emit)' },
    { flag: '-f', source: 'research/ce-plugin.md 1.2 (cursor-agent `--force` lifts command approval; never-emit), short form' },
    { flag: '--sandbox', value: 'disabled', source: 'cursor-agent CLI parameters (`--sandbox <mode>`, enabled or disabled: https://linuxcommandlibrary.com/man/cursor); ce-plugin passes `--sandbox enabled` on every cursor route (research/ce-plugin.md 1.2)' },
  ],
  answer: '`result` (possibly fenced)',
  versions: { recorded: '2026.09.18-9a7762b' },
  casesFrom: 'documented / issue',
  note: 'proprietary backend; documented cases only',
});
