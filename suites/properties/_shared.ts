/**
 * Shared by the property suites: the env (routecert's decoders and the pov contract), the corpus whose
 * cases run first as examples, and the time limit of one property test (a limit, not an assertion:
 * the budget itself is measured, see the issue 6 report; ROUTECERT_NUM_RUNS raises the runs).
 */
import { assertProperty, checkProperty, type AnyProperty, type CheckOptions, type PropertyEnv, type PropertyRun } from '#src/properties/index.ts';
import { propertyEnv } from '#src/properties/env.ts';
import { corpus } from '../_helpers/corpus.ts';

/** routecert's decoders and the pov contract. */
export const env: PropertyEnv = await propertyEnv();

/** The bundled corpus (fixtures/cases), fed to every property as examples. */
export const cases = corpus.cases;

/** Time limit of one property test, in ms (generous: the machine is shared). */
export const PROPERTY_TIMEOUT_MS = 120_000;

/** Assert that `property` holds for routecert: corpus examples first, then generated inputs. */
export function holds(property: AnyProperty, options: Partial<CheckOptions> = {}): PropertyRun {
  return assertProperty(property, { env, cases, ...options });
}

/**
 * Check `property` against a faulty env and return the run (which the test expects to fail). Corpus
 * examples are left out unless given, so the generated inputs alone must find the fault.
 */
export function againstFault(property: AnyProperty, faulty: PropertyEnv, options: Partial<CheckOptions> = {}): PropertyRun {
  return checkProperty(property, { env: faulty, ...options });
}
