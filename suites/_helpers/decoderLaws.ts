/**
 * Laws every route decoder must obey, written once (after fast-check's ArbitraryAssertions):
 * the same envelope gives the same candidates; arbitrary bytes never make it throw; offsets stay
 * inside stdout; every origin is in the known set. A new decoder's spec is one call.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { isKnownOrigin } from '#src/envelope/keys.ts';
import type { Envelope, RouteDecoder } from '#src/envelope/types.ts';

/** Text that looks like CLI output: JSON lines, fragments of them, prose, braces, unicode. */
export function envelopeText(examples: string[] = []): fc.Arbitrary<string> {
  const piece = fc.oneof(
    fc.string({ unit: 'binary' }),
    fc.json(),
    fc.constantFrom('{', '}', '[', ']', '"', '\\', '\n', '\r\n', '\uFEFF', '```json\n', '\n```', '\u0000', '\uD800'),
    fc.constantFrom(...examples.map((e) => e.slice(0, 4000)), '{"type":"result","structured_output":{"position":"x","final":true}}'),
  );
  return fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''));
}

function envelopeOf(stdout: string, stderr: string, exitCode: number | null): Envelope {
  return { stdout, stderr, exitCode, elapsedMs: 10 };
}

/**
 * Register the four laws as tests for `decoder`. `examples` (recorded stdout texts) are mixed into
 * the generated inputs so known shapes are tried first; `origins` are the extra origins its route
 * definition declares (`origins` in src/routes/<cli>/route.ts), so a new CLI needs no edit here.
 */
export function decoderLaws(decoder: RouteDecoder, examples: string[] = [], numRuns = 200, origins: readonly string[] = []): void {
  const arbitraryEnvelope = fc.record({
    stdout: envelopeText(examples),
    stderr: fc.string({ maxLength: 200 }),
    exitCode: fc.oneof(fc.constant(0), fc.constant(1), fc.constant(null), fc.integer({ min: 0, max: 255 })),
  });

  it(`${decoder.route}: the same envelope gives the same candidates`, () => {
    fc.assert(
      fc.property(arbitraryEnvelope, ({ stdout, stderr, exitCode }) => {
        const a = decoder.decode(envelopeOf(stdout, stderr, exitCode), { anchor: 'position' });
        const b = decoder.decode(envelopeOf(stdout, stderr, exitCode), { anchor: 'position' });
        expect(b.candidates).toEqual(a.candidates);
        expect(b.status).toEqual(a.status);
      }),
      { numRuns },
    );
  });

  it(`${decoder.route}: arbitrary bytes never make it throw`, () => {
    fc.assert(
      fc.property(arbitraryEnvelope, ({ stdout, stderr, exitCode }) => {
        expect(() => decoder.decode(envelopeOf(stdout, stderr, exitCode))).not.toThrow();
        expect(() => decoder.decode(envelopeOf(stdout, stderr, exitCode), { anchor: 'position' })).not.toThrow();
      }),
      { numRuns },
    );
  });

  it(`${decoder.route}: candidate offsets stay inside stdout`, () => {
    fc.assert(
      fc.property(arbitraryEnvelope, ({ stdout, stderr, exitCode }) => {
        for (const c of decoder.decode(envelopeOf(stdout, stderr, exitCode)).candidates) {
          expect(c.offset).toBeGreaterThanOrEqual(0);
          expect(c.offset).toBeLessThanOrEqual(stdout.length);
        }
      }),
      { numRuns },
    );
  });

  it(`${decoder.route}: every origin is in the known set`, () => {
    const inputs = [...examples, ...fc.sample(envelopeText(examples), { numRuns, seed: 42 })];
    for (const stdout of inputs) {
      for (const c of decoder.decode(envelopeOf(stdout, '', 0)).candidates) expect(isKnownOrigin(c.origin, origins), c.origin).toBe(true);
    }
  });
}
