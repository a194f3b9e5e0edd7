/**
 * The pov probe plan of the GitHub Copilot CLI (`copilot/json`): a CLI without a schema flag
 * (src/routes/plans/schemaInPrompt.ts; the driver appends the schema to the prompt). An accepted
 * answer comes from the `assistant.message` event's `data.content` (origin `assistant-text`).
 *
 * Copilot facts the expectations rest on (Copilot CLI 1.0.102 BYOK, probes/copilot.test.ts): an API
 * error is a `session.error` event whose `statusCode` is the HTTP status, then `result {exitCode: 1}`;
 * a 529 is retried 5 times first (about 5 s with the mock's `retry-after`).
 */
import type { PlannedProbe } from '#src/routes/plan.ts';
import { schemaInPromptPlan } from '#src/routes/plans/schemaInPrompt.ts';

/** The pov probe plan of the Copilot CLI. */
export const COPILOT_POV_PLAN: readonly PlannedProbe[] = schemaInPromptPlan({ answerOrigin: () => 'assistant-text', stallTimeoutMs: 20_000 });
