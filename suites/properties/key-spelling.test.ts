/**
 * structured_output, structuredOutput, StructuredOutput, structured-output and STRUCTURED_OUTPUT are
 * one field: respelling it never changes the verdict or the accepted value. The fault it must catch
 * (a decoder that reads only `structured_output`) is in fault-injection.test.ts.
 */
import { describe, it } from 'vitest';
import { keySpellingProperty } from '#src/properties/index.ts';
import { holds, PROPERTY_TIMEOUT_MS } from './_shared.ts';

describe('key-spelling', () => {
  it(keySpellingProperty.summary, () => {
    holds(keySpellingProperty);
  }, PROPERTY_TIMEOUT_MS);
});
