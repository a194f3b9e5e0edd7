/**
 * The payload the mock model answers a probe with (src/harness/startupProbes.ts, src/record/recordContract.ts,
 * `routecert init`).
 */
import { generate } from 'json-schema-faker';
import { compileValidator } from '#src/contract/validator.ts';
import { DEFAULT_FINAL_PAYLOAD, type JsonObject } from '#src/mock/scenarios.ts';

/** Seed of the payload generator (json-schema-faker), so every run sends the same payloads. */
export const PAYLOAD_SEED = 1;

/**
 * A payload valid for `schema`, for the mock model to answer, so an accepted schema completes in one
 * request: json-schema-faker (seed {@link PAYLOAD_SEED}, no optional property, arrays of one),
 * checked with Ajv. Falls back to `fallback` when the generator fails or its output is not valid.
 */
export async function samplePayload(schema: Record<string, unknown>, fallback: JsonObject = { ...DEFAULT_FINAL_PAYLOAD }): Promise<JsonObject> {
  try {
    const value = await generate(schema as Parameters<typeof generate>[0], { seed: PAYLOAD_SEED, optionalsProbability: 0, maxDefaultItems: 1 });
    const valid = typeof value === 'object' && value !== null && !Array.isArray(value) && compileValidator(schema)(value).length === 0;
    return valid ? (value as JsonObject) : fallback;
  } catch {
    return fallback;
  }
}
