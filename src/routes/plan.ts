/**
 * The types of a probe plan, declared with the routes that write the plans (src/routes/<cli>/plan.ts):
 * the probe runner (src/harness/probePlan.ts, src/probe/) reads them, so they sit below it.
 */
import type { CaseExpectation } from '#src/envelope/caseTypes.ts';
import type { ScenarioName } from '#src/mock/scenarios.ts';

/**
 * A schema variant a probe sends: the production schema, it with a `_meta` member at its root, or
 * `openai-strict`: `schemas/contracts/pov.openai-strict.schema.json`, the pov schema in OpenAI's
 * strict subset (for Codex, whose `--output-schema` goes to the provider with `strict: true`).
 */
export type SchemaVariant = 'production' | 'meta-root' | 'openai-strict';

/**
 * One planned probe case.
 * - `slug`: stable file name part (`<slug>.json` under the route's folder);
 * - `scenarios`: what the mock does on each attempt (a second entry is the retry on the same route);
 * - `schema`: the schema variant;
 * - `timeoutMs`: a deadline of its own (the `stall` case), else the run's;
 * - `deadlineAfterRequestMs`: a deadline counted from the first request to the mock (the `stall`
 *   case ends this long after the CLI reached the stalled stream; `timeoutMs` stays the cap);
 * - `expect`: the verdict the contract must reach, per route when it differs.
 */
export interface PlannedProbe {
  slug: string;
  description: string;
  scenarios: ScenarioName[];
  schema: SchemaVariant;
  timeoutMs?: number;
  deadlineAfterRequestMs?: number;
  tags: string[];
  expect: (route: string) => CaseExpectation;
}
