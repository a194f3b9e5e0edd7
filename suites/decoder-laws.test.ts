/**
 * The decoder laws (suites/_helpers/decoderLaws.ts) for every decoder routecert ships, with the
 * corpus envelopes of each route mixed into the generated inputs.
 */
import { describe } from 'vitest';
import { defaultDecoders } from '#src/routes/registry.ts';
import { corpus } from './_helpers/corpus.ts';
import { decoderLaws } from './_helpers/decoderLaws.ts';

for (const decoder of defaultDecoders()) {
  const examples = corpus.cases.filter((c) => c.case.route === decoder.route).flatMap((c) => c.case.attempts.map((a) => a.stdout));
  describe(`decoder laws: ${decoder.header}`, () => decoderLaws(decoder, examples));
}
