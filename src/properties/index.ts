/**
 * Properties as data (metamorphic and ground-truth checks of decoders and contracts), the runner
 * that checks them with a replay key, and regression cases from shrunk counterexamples.
 */
export { PROPERTIES, propertyByName, UnknownPropertyError } from './registry.ts';
export { groundTruthProperty } from './groundTruth.ts';
export { keySpellingProperty } from './keySpelling.ts';
export { placeholderInsertionProperty } from './placeholderInsertion.ts';
export { finalRemovalProperty, stripFinal } from './finalRemoval.ts';
export { stderrEvidenceProperty, expectedStderrFragment } from './stderrEvidence.ts';
export { neverThrowsProperty } from './neverThrows.ts';
export { neverThrowsLargeProperty, buildLargeEnvelope, LARGE_SHAPES } from './neverThrowsLarge.ts';
export type { LargeEnvelopePlan } from './neverThrowsLarge.ts';
export { propertyEnv } from './env.ts';
export { checkProperty, assertProperty, numRunsFor, freshSeed, seedFromEnv, replayCommand, PropertyFailedError, NUM_RUNS_ENV, SEED_ENV } from './run.ts';
export { regressionCase, saveRegression, RegressionRefusedError, REGRESSIONS_DIR } from './regression.ts';
export { sampleOf, sampleFromCase, usableCases, judgeAttempts, describeSample } from './samples.ts';

export type { AnyProperty, PropertyEnv, RegressionDraft, RoutecertProperty, Sample } from './types.ts';
export type { CheckOptions, PropertyRun } from './run.ts';
export type { PlaceholderInsertion } from './placeholderInsertion.ts';
export type { StderrEvidence } from './stderrEvidence.ts';
export type { HostileEnvelope } from './neverThrows.ts';
