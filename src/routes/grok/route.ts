/**
 * xAI grok (`grok --json-schema`, installed by its own script from x.ai, not on npm): every fact
 * routecert knows about it. It cannot run here, so its routes have documented cases only
 * (xai-org/grok-build headless-mode docs, research/cli-envelopes.md section 9b). Not grok-cli
 * (src/routes/grok-cli/route.ts), though both install a `grok` binary.
 */
import { genericDecoder } from '#src/envelope/generic.ts';
import { defineRoute } from '#src/routes/define.ts';

/** xAI grok. */
export const grokRoute = defineRoute({
  cli: 'grok',
  title: 'grok (xAI)',
  bin: 'grok',
  npmPackage: null,
  routes: [
    // `--json-schema` implies buffered `--output-format json`: one document at the end.
    { route: 'grok/json', framings: ['json-document'], streams: false, outputFormat: { none: 'grok --json-schema implies the buffered --output-format json (research/ce-plugin.md 1.2)' }, decoder: () => genericDecoder('grok/json', { header: 'xAI grok --json-schema (documented)' }) },
    {
      route: 'grok/streaming-json',
      framings: ['jsonl'],
      streams: true, outputFormat: { flags: ['--output-format'], value: 'streaming-json' },
      // The final `end` line carries structuredOutput / structuredOutputError; `error` lines end a failed run.
      decoder: () => genericDecoder('grok/streaming-json', { header: 'xAI grok streaming-json (documented)', terminalType: ['end', 'error'] }),
    },
    {
      route: 'grok/streaming-messages-json',
      framings: ['jsonl'],
      streams: true, outputFormat: { flags: ['--output-format'], value: 'streaming-messages-json' },
      // A Claude Code stream-json clone (result.structured_output).
      decoder: () => genericDecoder('grok/streaming-messages-json', { header: 'xAI grok streaming-messages-json (documented)', terminalType: 'result', assistantEvents: true }),
    },
  ],
  schema: { flag: '--json-schema', value: 'json' },
  forbiddenFlags: [
    { flag: '--always-approve', source: 'research/cli-envelopes.md section 9b (xAI grok headless docs; ce-plugin never-emit flags)' },
    { flag: '--permission-mode', value: 'bypassPermissions', source: 'research/ce-plugin.md 1.2 (grok takes Claude Code permission modes)' },
  ],
  answer: 'camelCase `structuredOutput`, `structuredOutputError`, `text`',
  versions: { recorded: '1.0.4' },
  casesFrom: 'documented',
  note: 'installed by its own script (x.ai); documented cases only',
});
