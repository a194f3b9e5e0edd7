/**
 * The probe plan: which hermetic probes of a real CLI routecert runs and records, what the mock
 * model does on each attempt, and the verdict the pov contract must reach. The expectations are the
 * contract's rules applied to the scripted behaviour (DESIGN.md "Contracts in the mission" item 1),
 * written down independently of the engine, so a decoder or contract regression fails them.
 *
 * CLI facts the expectations rest on (Claude Code 2.1.332, observed by probes/claude.test.ts):
 * - `missing-final`: the CLI validates the tool input against the schema (which requires `final`),
 *   rejects it, lets the model try again and ends with `error_max_structured_output_retries`; in
 *   `json` format nothing shaped survives (dropped-unusable), in `stream-json` the rejected
 *   tool_use inputs are in the log and read as a shaped non-final position (retry: fail closed).
 * - `fenced` / `prose-only`: no tool call even after the enforcement turn; `result` holds the text.
 */
import { readFileSync } from 'node:fs';
import type { CaseExpectation } from '#src/record/caseTypes.ts';
import type { ScenarioName } from '#src/mock/scenarios.ts';
import { DEFAULT_FINAL_PAYLOAD } from '#src/mock/scenarios.ts';
import { projectPath } from '#src/paths.ts';
import { CODEX_POV_PLAN } from '#src/routes/codex/plan.ts';
import { GEMINI_POV_PLAN } from '#src/routes/gemini/plan.ts';
import { GROK_CLI_POV_PLAN } from '#src/routes/grok-cli/plan.ts';
import { QWEN_POV_PLAN } from '#src/routes/qwen/plan.ts';
import { OPENCODE_POV_PLAN } from '#src/routes/opencode/plan.ts';
import { COPILOT_POV_PLAN } from '#src/routes/copilot/plan.ts';
import { PI_POV_PLAN } from '#src/routes/pi/plan.ts';
import { apiErrorProbe, missingFinalProbe, nonfinalProbes, proseOnlyProbe, STARTUP_META_PROBE, stallProbe } from '#src/harness/plans/shared.ts';

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
 * - `expect`: the verdict the contract must reach, per route when it differs.
 */
export interface PlannedProbe {
  slug: string;
  description: string;
  scenarios: ScenarioName[];
  schema: SchemaVariant;
  timeoutMs?: number;
  tags: string[];
  expect: (route: string) => CaseExpectation;
}

/** The pov probe plan of Claude Code (a CLI with a schema flag). */
export const CLAUDE_POV_PLAN: readonly PlannedProbe[] = [
  {
    slug: 'final',
    description: 'the model calls StructuredOutput with a final POV',
    scenarios: ['final'],
    schema: 'production',
    tags: ['final', 'key-case'],
    expect: () => ({ verdict: 'accepted', origin: 'structured_output', value: DEFAULT_FINAL_PAYLOAD }),
  },
  {
    slug: 'placeholder-then-final',
    description: 'a text block holds a placeholder POV (final: false), then StructuredOutput holds the final one',
    scenarios: ['placeholder-then-final'],
    schema: 'production',
    tags: ['placeholder-then-final', 'key-case'],
    expect: () => ({ verdict: 'accepted', origin: 'structured_output', value: DEFAULT_FINAL_PAYLOAD }),
  },
  ...nonfinalProbes('production', () => ({ verdict: 'accepted', origin: 'structured_output', value: DEFAULT_FINAL_PAYLOAD, attempt: 1 })),
  missingFinalProbe('production', 'the model omits the required final flag on every try: never accepted (fail closed)', (route) =>
    route.endsWith('/stream-json')
      ? { verdict: 'retry' }
      : { verdict: 'dropped-unusable', evidence: ['terminal_reason=structured_output_retry_exhausted'] },
  ),
  proseOnlyProbe('production', 'the model answers prose and never calls the tool, even after the enforcement turn'),
  {
    slug: 'fenced',
    description: 'the model answers the final POV inside a ```json fence instead of calling the tool',
    scenarios: ['fenced'],
    schema: 'production',
    tags: ['fenced'],
    // stream-json shows the text first in the assistant events; json only in the result string.
    expect: (route) => ({ verdict: 'accepted', origin: route.endsWith('/stream-json') ? 'assistant-text' : 'result', value: DEFAULT_FINAL_PAYLOAD }),
  },
  apiErrorProbe('production', 400, 'the provider answers HTTP 400 invalid_request_error'),
  apiErrorProbe('production', 529, 'the provider answers HTTP 529 overloaded_error'),
  stallProbe('production', 5_000),
  STARTUP_META_PROBE,
];

/** The schema a variant sends, built from the production schema (`openai-strict` is read from its file). */
export function schemaFor(variant: SchemaVariant, production: Record<string, unknown>): Record<string, unknown> {
  if (variant === 'meta-root') return { ...production, _meta: { owner: 'routecert', note: 'custom member' } };
  if (variant === 'openai-strict') return JSON.parse(readFileSync(projectPath('schemas/contracts/pov.openai-strict.schema.json'), 'utf8')) as Record<string, unknown>;
  return production;
}

/**
 * The probe plan of each CLI, by its routecert name (src/probe/drivers.ts). A CLI with a driver but
 * no plan here is listed but not probed by `routecert run`.
 */
export const PROBE_PLANS: Readonly<Record<string, readonly PlannedProbe[]>> = {
  claude: CLAUDE_POV_PLAN,
  codex: CODEX_POV_PLAN,
  gemini: GEMINI_POV_PLAN,
  'grok-cli': GROK_CLI_POV_PLAN,
  qwen: QWEN_POV_PLAN,
  opencode: OPENCODE_POV_PLAN,
  copilot: COPILOT_POV_PLAN,
  pi: PI_POV_PLAN,
};

/** The plan of `cli`, or `[]`. */
export function planFor(cli: string): readonly PlannedProbe[] {
  return PROBE_PLANS[cli] ?? [];
}
