/**
 * Errors of the generators. A generator that yields a value it promised not to yield throws one of
 * these, so the property that drew the value fails with the reason instead of silently filtering it.
 */

/**
 * A generated payload that its schema rejects (checked with ajv), or an answer whose finality does not
 * match what it was built to be. `problems` are ajv's `<pointer> <message>` lines.
 */
export class InvalidPayloadError extends Error {
  readonly code = 'ROUTECERT_INVALID_GENERATED_PAYLOAD';
  readonly problems: string[];
  readonly payload: unknown;
  constructor(what: string, payload: unknown, problems: string[]) {
    super(
      `[routecert] the generator produced an invalid ${what}: ${problems.slice(0, 5).join('; ')}. ` +
        `Payload: ${JSON.stringify(payload)?.slice(0, 400)}. Fix the generator (or its schema); invalid payloads are never filtered out silently.`,
    );
    this.name = 'InvalidPayloadError';
    this.problems = problems;
    this.payload = payload;
  }
}
