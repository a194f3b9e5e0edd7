/**
 * The decoder laws (suites/_helpers/decoderLaws.ts) for every decoder of every route definition
 * (src/routes/<cli>/route.ts), with the corpus envelopes of each route mixed into the generated
 * inputs and the origins each definition declares.
 */
import { describe } from 'vitest';
import { ROUTE_DEFINITIONS } from '#src/routes/index.ts';
import { corpus } from './_helpers/corpus.ts';
import { decoderLaws } from './_helpers/decoderLaws.ts';

for (const definition of ROUTE_DEFINITIONS) {
  for (const format of definition.routes) {
    const decoder = format.decoder();
    const examples = corpus.cases.filter((c) => c.case.route === decoder.route).flatMap((c) => c.case.attempts.map((a) => a.stdout));
    describe(`decoder laws: ${decoder.header}`, () => decoderLaws(decoder, examples, 200, definition.origins ?? []));
  }
}
