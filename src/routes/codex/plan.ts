/**
 * The pov probe plan of Codex (`codex/jsonl`): the Claude Code scenarios that make sense for a CLI
 * whose schema travels to the provider as OpenAI strict `text.format`, plus the schema rejection
 * that strictness causes. The expectations are the pov contract's rules applied to the scripted
 * behaviour (DESIGN.md "Contracts in the mission" item 1), written down independently of the
 * engine, so a decoder or contract regression fails them.
 *
 * CLI facts the expectations rest on (Codex 0.171.0, observed by probes/codex.test.ts):
 * - the answer is the last `agent_message`, also written to the `-o` file: the decoder keeps the
 *   `-o` copy last, so an accepted answer's origin is `last-message`;
 * - Codex validates nothing client-side: a message without `final` passes through (exit 0) and
 *   reads as a shaped non-final position (retry: fail closed), prose passes through (exit 0) and
 *   is unusable;
 * - HTTP 400 arrives as the provider's raw error body in `turn.failed` (status 400), 529 as
 *   `unexpected status 529 ...`; the driver sets `request_max_retries = 0` and
 *   `stream_max_retries = 0`, so one request is made;
 * - the production pov schema (`schemas/contracts/pov.schema.json`) has seven optional receipt
 *   properties, so it is not OpenAI-strict: the provider answers 400 `invalid_json_schema` to the
 *   first request and Codex ends with `turn.failed` carrying that body. Verdict: `startup-rejected`
 *   (DESIGN: the schema was refused before the model said anything), with the provider's message;
 * - every other probe sends the strict variant `schemas/contracts/pov.openai-strict.schema.json`.
 */
import type { PlannedProbe } from '#src/routes/plan.ts';
import { DEFAULT_FINAL_PAYLOAD } from '#src/mock/scenarios.ts';
import { apiErrorProbe, missingFinalProbe, nonfinalProbes, proseOnlyProbe, stallProbe } from '#src/routes/plans/shared.ts';

/** The pov probe plan of Codex (`codex exec --json --output-schema FILE -o FILE`). */
export const CODEX_POV_PLAN: readonly PlannedProbe[] = [
  {
    slug: 'final',
    description: 'the model answers the final POV as its only agent message (also in the -o file)',
    scenarios: ['final'],
    schema: 'openai-strict',
    tags: ['final', 'key-case'],
    expect: () => ({ verdict: 'accepted', origin: 'last-message', value: DEFAULT_FINAL_PAYLOAD }),
  },
  {
    slug: 'placeholder-then-final',
    description: 'a progress agent message holds a placeholder POV (final: false), then the last agent message holds the final one',
    scenarios: ['placeholder-then-final'],
    schema: 'openai-strict',
    tags: ['placeholder-then-final', 'key-case'],
    expect: () => ({ verdict: 'accepted', origin: 'last-message', value: DEFAULT_FINAL_PAYLOAD }),
  },
  ...nonfinalProbes('openai-strict', () => ({ verdict: 'accepted', origin: 'last-message', value: DEFAULT_FINAL_PAYLOAD, attempt: 1 })),
  missingFinalProbe(
    'openai-strict',
    'the model omits the required final flag; Codex does not validate (exit 0), the answer is never accepted (fail closed)',
  ),
  proseOnlyProbe('openai-strict', 'the model answers prose; Codex exits 0 with it as the last agent message, which is not success'),
  {
    slug: 'fenced',
    description: 'the model answers the final POV inside a ```json fence in prose',
    scenarios: ['fenced'],
    schema: 'openai-strict',
    tags: ['fenced'],
    expect: () => ({ verdict: 'accepted', origin: 'last-message', value: DEFAULT_FINAL_PAYLOAD, evidence: ['(fenced)'] }),
  },
  apiErrorProbe('openai-strict', 400, 'the provider answers HTTP 400 invalid_request_error; Codex ends with turn.failed holding the raw body', {
    moreEvidence: ['routecert mock: invalid request (scenario api-400)'],
  }),
  apiErrorProbe('openai-strict', 529, 'the provider answers HTTP 529; Codex ends with turn.failed "unexpected status 529 ..."'),
  stallProbe('openai-strict', 5_000),
  {
    slug: 'startup-not-strict',
    description: 'the production pov schema has optional properties: the provider refuses it (400 invalid_json_schema) before the model answers',
    scenarios: ['final'],
    schema: 'production',
    tags: ['startup-rejected', 'strict-schema'],
    expect: () => ({
      verdict: 'startup-rejected',
      evidence: ["Invalid schema for response_format 'codex_output_schema'", "Missing 'cross_model_route'"],
    }),
  },
];
