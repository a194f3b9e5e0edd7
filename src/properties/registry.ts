/**
 * The properties routecert ships, by name. `routecert fuzz --property <name>` and the suites in
 * suites/properties/ use this list.
 */
import { finalRemovalProperty } from './finalRemoval.ts';
import { groundTruthProperty } from './groundTruth.ts';
import { keySpellingProperty } from './keySpelling.ts';
import { neverThrowsProperty } from './neverThrows.ts';
import { neverThrowsLargeProperty } from './neverThrowsLarge.ts';
import { placeholderInsertionProperty } from './placeholderInsertion.ts';
import { stderrEvidenceProperty } from './stderrEvidence.ts';
import type { AnyProperty } from './types.ts';

/** Every property, in the order `routecert fuzz` runs them. */
export const PROPERTIES: readonly AnyProperty[] = [
  groundTruthProperty,
  keySpellingProperty,
  placeholderInsertionProperty,
  finalRemovalProperty,
  stderrEvidenceProperty,
  neverThrowsProperty,
  neverThrowsLargeProperty,
];

/** Raised for a property name routecert does not know; the message lists the known ones. */
export class UnknownPropertyError extends Error {
  readonly code = 'ROUTECERT_UNKNOWN_PROPERTY';
  constructor(name: string) {
    super(`[routecert] unknown property "${name}". Known properties: ${PROPERTIES.map((p) => p.name).join(', ')}.`);
    this.name = 'UnknownPropertyError';
  }
}

/**
 * The property named `name`.
 *
 * @throws UnknownPropertyError for an unknown name.
 */
export function propertyByName(name: string): AnyProperty {
  const found = PROPERTIES.find((p) => p.name === name);
  if (!found) throw new UnknownPropertyError(name);
  return found;
}
