/**
 * Properties as data (metamorphic and ground-truth checks of decoders and contracts), the runner
 * that checks them with a replay key, and regression cases from shrunk counterexamples.
 */
export { PROPERTIES, propertyByName } from './registry.ts';
export { groundTruthProperty } from './groundTruth.ts';
export { keySpellingProperty } from './keySpelling.ts';
export { placeholderInsertionProperty } from './placeholderInsertion.ts';
export { finalRemovalProperty } from './finalRemoval.ts';
export { stderrEvidenceProperty } from './stderrEvidence.ts';
export { neverThrowsProperty } from './neverThrows.ts';
export { neverThrowsLargeProperty, buildLargeEnvelope, LARGE_SHAPES } from './neverThrowsLarge.ts';
export { propertyEnv } from './env.ts';
export { checkProperty, assertProperty, numRunsFor } from './run.ts';
export { saveRegression } from './regression.ts';

export type { AnyProperty, PropertyEnv, RoutecertProperty, Sample } from './types.ts';
export type { CheckOptions, PropertyRun } from './run.ts';
