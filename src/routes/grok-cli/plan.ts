/**
 * The pov probe plan of grok-cli (`grok-cli/jsonl`, `@vibe-kit/grok-cli` 0.0.34): a CLI without a
 * schema flag (src/routes/plans/schemaInPrompt.ts). An accepted answer comes from the assistant
 * message's `content` (origin `assistant-text`).
 *
 * grok-cli facts the expectations rest on (0.0.34, probes/grokCli.test.ts): HTTP errors become the
 * assistant message `Sorry, I encountered an error: Grok API error: <status> <message>` with exit 0,
 * which reads as a provider error with that status; a 529 is retried twice by the OpenAI SDK first.
 */
import type { PlannedProbe } from '#src/routes/plan.ts';
import { schemaInPromptPlan } from '#src/routes/plans/schemaInPrompt.ts';

/** The pov probe plan of grok-cli. */
export const GROK_CLI_POV_PLAN: readonly PlannedProbe[] = schemaInPromptPlan({ answerOrigin: () => 'assistant-text', stallTimeoutMs: 10_000 });
