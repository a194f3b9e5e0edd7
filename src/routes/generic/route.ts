/**
 * `generic`: no CLI, the route for envelopes of a CLI routecert does not know. Its decoder looks
 * for the answer in a structured field, the `result`/`text`/`response` strings, or free text
 * (src/envelope/generic.ts); `generic:<spec>` routes configure one (`routecert run --generic`).
 */
import { genericDecoder } from '#src/envelope/generic.ts';
import { defineRoute } from '#src/routes/define.ts';

/** The generic route. */
export const genericRoute = defineRoute({
  cli: 'generic',
  title: 'generic',
  bin: null,
  npmPackage: null,
  // Any stdout: one document, JSONL, or free text; no framing is declared, so none needs a case.
  routes: [{ route: 'generic', framings: [], streams: false, outputFormat: { none: 'generic reads any output; it is no CLI' }, decoder: () => genericDecoder('generic', { header: 'generic (structured field, result/text/response, or free text)', freeText: true }) }],
  schema: null,
  forbiddenFlags: [],
  answer: 'anywhere, as configured',
  versions: null,
  casesFrom: 'generated',
  note: 'no CLI: envelopes of a CLI routecert does not know',
});
