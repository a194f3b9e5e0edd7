/**
 * The pov probe plan of Claude Code (`claude-code/json`, `claude-code/stream-json`), a CLI with a
 * schema flag. The expectations are the contract's rules applied to the scripted behaviour
 * (DESIGN.md "Contracts in the mission" item 1), written down independently of the engine, so a
 * decoder or contract regression fails them.
 *
 * CLI facts the expectations rest on (Claude Code 2.1.332, observed by probes/claude.test.ts):
 * - `missing-final`: the CLI validates the tool input against the schema (which requires `final`),
 *   rejects it, lets the model try again and ends with `error_max_structured_output_retries`; in
 *   `json` format nothing shaped survives (dropped-unusable), in `stream-json` the rejected
 *   tool_use inputs are in the log and read as a shaped non-final position (retry: fail closed).
 * - `fenced` / `prose-only`: no tool call even after the enforcement turn; `result` holds the text.
 */
import type { PlannedProbe } from '#src/routes/plan.ts';
import { DEFAULT_FINAL_PAYLOAD } from '#src/mock/scenarios.ts';
import { apiErrorProbe, missingFinalProbe, nonfinalProbes, proseOnlyProbe, STARTUP_META_PROBE, stallProbe } from '#src/routes/plans/shared.ts';

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
