/**
 * The pov probe plan of a CLI with NO schema flag (the schema goes into the prompt, the answer is
 * JSON in the model's text): the Claude Code scenarios minus the startup schema check, with
 * expectations derived from the pov contract's rules (DESIGN.md "Contracts in the mission" item 1),
 * written down independently of the engine.
 *
 * Facts shared by such CLIs (Gemini CLI 0.61.0, grok-cli 0.0.34, observed by probes/gemini.test.ts
 * and probes/grokCli.test.ts): nothing validates the answer client-side, so
 * - `missing-final` passes through as a shaped POV without `final`: non-final (fail closed), retry;
 * - `placeholder-then-final`: the two objects arrive in one text, the later (final) one wins;
 * - `prose-only`: the prose is the answer, unusable, and quoted as evidence;
 * - there is no schema to refuse at startup, so no `startup-meta` probe.
 */
import type { PlannedProbe } from '#src/routes/plan.ts';
import { DEFAULT_FINAL_PAYLOAD } from '#src/mock/scenarios.ts';
import { apiErrorProbe, missingFinalProbe, nonfinalProbes, proseOnlyProbe, stallProbe } from './shared.ts';

/**
 * Options of {@link schemaInPromptPlan}.
 * - `answerOrigin(route)`: the origin an accepted answer comes from on `route` (e.g. `response`,
 *   `assistant-text`);
 * - `stallTimeoutMs`: the deadline of the `stall` probe (ms); @default 5000.
 */
export interface SchemaInPromptPlanOptions {
  answerOrigin: (route: string) => string;
  stallTimeoutMs?: number;
}

/** The pov probe plan of a CLI without a schema flag (see the module comment). */
export function schemaInPromptPlan(options: SchemaInPromptPlanOptions): readonly PlannedProbe[] {
  const accepted = (route: string, attempt?: number) => ({
    verdict: 'accepted' as const,
    origin: options.answerOrigin(route),
    value: DEFAULT_FINAL_PAYLOAD,
    ...(attempt === undefined ? {} : { attempt }),
  });
  return [
    {
      slug: 'final',
      description: 'the model answers the final POV as JSON text',
      scenarios: ['final'],
      schema: 'production',
      tags: ['final'],
      expect: (route) => accepted(route),
    },
    {
      slug: 'placeholder-then-final',
      description: 'one answer holds a placeholder POV (final: false) and then the final one, concatenated',
      scenarios: ['placeholder-then-final'],
      schema: 'production',
      tags: ['placeholder-then-final'],
      expect: (route) => accepted(route),
    },
    ...nonfinalProbes('production', (route) => accepted(route, 1)),
    missingFinalProbe('production', 'the model omits the required final flag; nothing validates it client-side, so it reads non-final (fail closed)'),
    proseOnlyProbe('production', 'the model answers prose with no JSON at all'),
    {
      slug: 'fenced',
      description: 'the model answers the final POV inside a ```json fence between two sentences',
      scenarios: ['fenced'],
      schema: 'production',
      tags: ['fenced'],
      expect: (route) => accepted(route),
    },
    apiErrorProbe('production', 400, 'the provider answers HTTP 400'),
    apiErrorProbe('production', 529, 'the provider answers HTTP 529 (overloaded)'),
    stallProbe(
      'production',
      options.stallTimeoutMs ?? 5_000,
      'the provider never finishes its answer; the probe kills the process group at its deadline',
    ),
  ];
}
