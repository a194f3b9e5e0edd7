/**
 * The pov probe plan of pi (`pi/json`): a CLI without a schema flag
 * (src/routes/plans/schemaInPrompt.ts; the driver appends the schema to the prompt). An accepted
 * answer comes from the text of an assistant `message_end` (origin `assistant-text`).
 *
 * pi facts the expectations rest on (pi 0.73.1, probes/pi.test.ts): an API error exits **0**; the
 * assistant `message_end` has `stopReason: "error"` and `errorMessage: "<status> <message>"`, whose
 * status the decoder reads, so `api-400` / `api-529` are provider errors despite the exit code.
 */
import type { PlannedProbe } from '#src/routes/plan.ts';
import { schemaInPromptPlan } from '#src/routes/plans/schemaInPrompt.ts';

/** The pov probe plan of pi. */
export const PI_POV_PLAN: readonly PlannedProbe[] = schemaInPromptPlan({ answerOrigin: () => 'assistant-text', stallTimeoutMs: 20_000 });
