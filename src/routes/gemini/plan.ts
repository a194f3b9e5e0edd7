/**
 * The pov probe plan of Gemini CLI (`gemini-cli/json`, `gemini-cli/stream-json`): a CLI without a
 * schema flag (src/routes/plans/schemaInPrompt.ts). An accepted answer comes from the `response`
 * string (json) or the assistant message deltas (stream-json, origin `assistant-text`).
 *
 * Gemini facts the expectations rest on (Gemini CLI 0.61.0, probes/gemini.test.ts): HTTP 400 and
 * 529 leave an error object whose `code` is the HTTP status (on stderr in json, in the `result`
 * event in stream-json), exit 144 and 17; the driver sets `general.maxAttempts: 1`, so a 529 is not
 * retried and the run ends in seconds; a never-finished SSE stream is waited on past 8 s.
 */
import type { PlannedProbe } from '#src/routes/plan.ts';
import { schemaInPromptPlan } from '#src/routes/plans/schemaInPrompt.ts';

/** The pov probe plan of Gemini CLI. */
export const GEMINI_POV_PLAN: readonly PlannedProbe[] = schemaInPromptPlan({
  answerOrigin: (route) => (route.endsWith('/stream-json') ? 'assistant-text' : 'response'),
  // Gemini CLI 0.61.0 takes 3-5 s to start under load: give the stall probe room to reach the request.
  stallTimeoutMs: 15_000,
});
