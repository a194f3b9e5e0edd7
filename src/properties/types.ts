/**
 * Properties as data: each is a name, a generator of inputs, the corpus examples to try first, a
 * check, and the way a counterexample becomes a regression case. The conformance suites
 * (suites/properties/) and `routecert fuzz` run the same objects through {@link checkProperty}.
 */
import type fc from 'fast-check';
import type { Contract } from '#src/contract/types.ts';
import type { EnvelopePlan, Expected } from '#src/arbitraries/types.ts';
import type { Envelope, RouteDecoder } from '#src/envelope/types.ts';
import type { CaseExpectation } from '#src/envelope/caseTypes.ts';
import type { LoadedCase } from '#src/record/corpus.ts';

/** What a property checks against: the decoders (a test may prepend a faulty one) and the pov contract. */
export interface PropertyEnv {
  decoders: RouteDecoder[];
  contract: Contract;
}

/**
 * One envelope sequence with its expected outcome: generated (with the `plan` it was rendered from)
 * or taken from a corpus case (`source` names the case and its file).
 */
export interface Sample {
  route: string;
  attempts: Envelope[];
  expected: Expected & Pick<CaseExpectation, 'origin' | 'evidence' | 'attempt'>;
  plan?: EnvelopePlan;
  source: string;
}

/** The parts of a regression case a property fills in from a counterexample (the rest is provenance). */
export interface RegressionDraft {
  route: string;
  description: string;
  attempts: Envelope[];
  expect: CaseExpectation;
  tags: string[];
}

/**
 * A property routecert checks.
 *
 * - `name`: stable, kebab-case; `routecert fuzz --property <name>` selects it.
 * - `summary`: the claim, one sentence.
 * - `numRuns`: generated runs per check by default (`ROUTECERT_NUM_RUNS` or `--runs` raise it).
 * - `arbitrary()`: the input generator (built on first use).
 * - `examples(cases)`: inputs built from corpus cases, tried before any generated input.
 * - `check(input, env)`: throws an Error saying what broke; returns when the property holds.
 * - `regression(input, env)`: the case that pins a counterexample down, or `{ refused }` with the reason
 *   when no expected verdict can be stated for it.
 * - `describe(input)`: a short text of the input for failure messages.
 */
export interface RoutecertProperty<I> {
  name: string;
  summary: string;
  numRuns: number;
  arbitrary(): fc.Arbitrary<I>;
  examples(cases: readonly LoadedCase[]): I[];
  check(input: I, env: PropertyEnv): void;
  regression(input: I, env: PropertyEnv): RegressionDraft | { refused: string };
  describe(input: I): string;
}

/** A property whatever its input type, as the registry holds them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyProperty = RoutecertProperty<any>;
