/**
 * The pov probe plan of opencode (`opencode/jsonl`): a CLI without a schema flag
 * (src/routes/plans/schemaInPrompt.ts; the driver appends the schema to the prompt). An accepted
 * answer comes from a `text` part (origin `assistant-text`).
 *
 * opencode facts the expectations rest on (opencode 1.18.33, probes/opencode.test.ts): an API error
 * is an `error` event whose `error.data.statusCode` is the HTTP status, exit 1; a 529 is retried 5
 * times (at once, with the mock's `retry-after-ms`) before that event; it starts in 5-25 s under load.
 */
import type { PlannedProbe } from '#src/routes/plan.ts';
import { schemaInPromptPlan } from '#src/routes/plans/schemaInPrompt.ts';

/** The pov probe plan of opencode. */
export const OPENCODE_POV_PLAN: readonly PlannedProbe[] = schemaInPromptPlan({ answerOrigin: () => 'assistant-text', stallTimeoutMs: 30_000 });
