/**
 * Amp (`amp --stream-json`, `@sourcegraph/amp`): every fact routecert knows about it. The Amp
 * service brokers model calls (AMP_URL), so it cannot run against a provider mock here:
 * documented cases only.
 */
import { genericDecoder } from '#src/envelope/generic.ts';
import { defineRoute } from '#src/routes/define.ts';

/** Amp. */
export const ampRoute = defineRoute({
  cli: 'amp',
  title: 'Amp',
  bin: 'amp',
  npmPackage: '@sourcegraph/amp',
  routes: [
    {
      route: 'amp/stream-json',
      framings: ['jsonl'],
      streams: true, outputFormat: { flags: ['--stream-json'], value: null },
      // Claude Code-compatible stream JSON, no schema flag (answer in result / assistant text).
      decoder: () => genericDecoder('amp/stream-json', { header: 'Amp stream-json (documented)', terminalType: 'result', assistantEvents: true }),
    },
  ],
  schema: null,
  forbiddenFlags: [
    { flag: '--dangerously-allow-all', source: 'Amp owner manual (ampcode.com/manual: runs every tool without asking)' },
  ],
  answer: 'Claude-compatible stream JSON',
  versions: { recorded: '0.0.1790142911' },
  casesFrom: 'documented',
  note: 'Amp service brokers model calls (AMP_URL); documented cases only',
});
