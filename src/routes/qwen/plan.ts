/**
 * The pov probe plan of Qwen Code (`qwen-code/json`, `qwen-code/stream-json`): a CLI WITH a schema
 * flag (`--json-schema`, offered to the model as the `structured_output` tool), so the expectations
 * follow the Claude Code plan with Qwen's own facts (Qwen Code 0.24.4, observed by
 * probes/qwen.test.ts):
 * - the answer lands in `structured_result` (origin `structured_result`);
 * - `missing-final`: the CLI validates the tool input (`params must have required property 'final'`,
 *   `is_error: true`) and stops after 4 identical calls (loop detection, `error_during_execution`);
 *   BOTH routes keep the rejected `tool_use` inputs (json prints every message as one array), which
 *   read as a shaped POV without `final`: non-final, retry (fail closed);
 * - `prose-only` / `fenced`: no nudge turn; the run ends `error_during_execution` with
 *   `Model produced plain text instead of calling the structured_output tool ...`, exit 1; a fenced
 *   final POV in the assistant text is found but never accepted: the run says it failed
 *   (`dropped-unusable`, as the recorded cases `qwen-code/<format>/fenced.json`);
 * - API errors: `[API Error: <status> <message>]`, the status parsed from that text; the driver
 *   answers overloads with 503 (see src/routes/qwen/probe.ts), so `api-529` expects `api_error_status=503`;
 * - a root `_meta` member is refused at startup (Ajv strict mode), exit 52, nothing on stdout.
 */
import type { PlannedProbe } from '#src/routes/plan.ts';
import { DEFAULT_FINAL_PAYLOAD } from '#src/mock/scenarios.ts';
import { apiErrorProbe, missingFinalProbe, nonfinalProbes, proseOnlyProbe, STARTUP_META_PROBE, stallProbe } from '#src/routes/plans/shared.ts';

/** The words of Qwen Code 0.24.4's result when the model answered text instead of calling the tool. */
export const QWEN_PLAIN_TEXT_ERROR = 'Model produced plain text instead of calling the structured_output tool';

const accepted = (attempt?: number) => ({
  verdict: 'accepted' as const,
  origin: 'structured_result',
  value: DEFAULT_FINAL_PAYLOAD,
  ...(attempt === undefined ? {} : { attempt }),
});

/** The pov probe plan of Qwen Code (see the module comment). */
export const QWEN_POV_PLAN: readonly PlannedProbe[] = [
  {
    slug: 'final',
    description: 'the model calls structured_output with a final POV',
    scenarios: ['final'],
    schema: 'production',
    tags: ['final', 'key-case'],
    expect: () => accepted(),
  },
  {
    slug: 'placeholder-then-final',
    description: 'a text holds a placeholder POV (final: false), then structured_output holds the final one',
    scenarios: ['placeholder-then-final'],
    schema: 'production',
    tags: ['placeholder-then-final', 'key-case'],
    expect: () => accepted(),
  },
  ...nonfinalProbes('production', () => accepted(1)),
  missingFinalProbe(
    'production',
    'the model omits the required final flag; the CLI rejects each call until loop detection stops it; the rejected calls read non-final (fail closed)',
  ),
  proseOnlyProbe('production', 'the model answers prose and never calls the tool; the CLI ends with its plain-text error', QWEN_PLAIN_TEXT_ERROR),
  {
    slug: 'fenced',
    description: 'the model answers the final POV inside a ```json fence instead of calling the tool; the CLI ends with its plain-text error',
    scenarios: ['fenced'],
    schema: 'production',
    tags: ['fenced'],
    // The run says it failed (error_during_execution, exit 1): the fenced POV is never accepted (as the recorded fenced cases).
    expect: () => ({ verdict: 'dropped-unusable', evidence: [`peer skip evidence: ${QWEN_PLAIN_TEXT_ERROR}`] }),
  },
  apiErrorProbe('production', 400, 'the provider answers HTTP 400 invalid_request_error'),
  apiErrorProbe(
    'production',
    529,
    'the provider is overloaded (the mock answers 503 with retry-after-ms, as OpenAI does); the CLI retries, then gives up',
    { reported: 503 },
  ),
  // Qwen Code 0.24.4 takes 5-20 s to start under load: give the stall probe room to reach the request.
  stallProbe('production', 30_000),
  STARTUP_META_PROBE,
];
