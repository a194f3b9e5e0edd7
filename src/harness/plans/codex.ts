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
import type { PlannedProbe } from '#src/harness/probePlan.ts';
import { DEFAULT_FINAL_PAYLOAD, DEFAULT_PLACEHOLDER_PAYLOAD, PROSE_ONLY_TEXT } from '#src/mock/scenarios.ts';

const NONFINAL_EVIDENCE = `peer skip evidence: non-final position: ${String(DEFAULT_PLACEHOLDER_PAYLOAD.position)}`;

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
  {
    slug: 'nonfinal-only',
    description: 'the only answer is a schema-valid placeholder with final: false; time remains, so retry',
    scenarios: ['nonfinal-only'],
    schema: 'openai-strict',
    tags: ['nonfinal', 'fail-closed'],
    expect: () => ({ verdict: 'retry' }),
  },
  {
    slug: 'nonfinal-then-final',
    description: 'a non-final answer, then the retry with the final-answer paragraph returns the final POV',
    scenarios: ['nonfinal-only', 'final'],
    schema: 'openai-strict',
    tags: ['nonfinal', 'retry'],
    expect: () => ({ verdict: 'accepted', origin: 'last-message', value: DEFAULT_FINAL_PAYLOAD, attempt: 1 }),
  },
  {
    slug: 'nonfinal-twice',
    description: 'non-final on the first attempt and on the retry: dropped with the skip evidence line',
    scenarios: ['nonfinal-only', 'nonfinal-only'],
    schema: 'openai-strict',
    tags: ['nonfinal', 'fail-closed'],
    expect: () => ({ verdict: 'dropped-nonfinal', evidence: [NONFINAL_EVIDENCE], attempt: 1 }),
  },
  {
    slug: 'missing-final',
    description: 'the model omits the required final flag; Codex does not validate (exit 0), the answer is never accepted (fail closed)',
    scenarios: ['missing-final'],
    schema: 'openai-strict',
    tags: ['missing-final', 'fail-closed'],
    expect: () => ({ verdict: 'retry' }),
  },
  {
    slug: 'prose-only',
    description: 'the model answers prose; Codex exits 0 with it as the last agent message, which is not success',
    scenarios: ['prose-only'],
    schema: 'openai-strict',
    tags: ['prose-only'],
    expect: () => ({ verdict: 'dropped-unusable', evidence: [`peer skip evidence: ${PROSE_ONLY_TEXT}`] }),
  },
  {
    slug: 'fenced',
    description: 'the model answers the final POV inside a ```json fence in prose',
    scenarios: ['fenced'],
    schema: 'openai-strict',
    tags: ['fenced'],
    expect: () => ({ verdict: 'accepted', origin: 'last-message', value: DEFAULT_FINAL_PAYLOAD, evidence: ['(fenced)'] }),
  },
  {
    slug: 'api-400',
    description: 'the provider answers HTTP 400 invalid_request_error; Codex ends with turn.failed holding the raw body',
    scenarios: ['api-400'],
    schema: 'openai-strict',
    tags: ['api-error'],
    expect: () => ({ verdict: 'provider-error', evidence: ['api_error_status=400', 'routecert mock: invalid request (scenario api-400)'] }),
  },
  {
    slug: 'api-529',
    description: 'the provider answers HTTP 529; Codex ends with turn.failed "unexpected status 529 ..."',
    scenarios: ['api-529'],
    schema: 'openai-strict',
    tags: ['api-error'],
    expect: () => ({ verdict: 'provider-error', evidence: ['api_error_status=529'] }),
  },
  {
    slug: 'stall',
    description: 'the provider never finishes the stream; the probe kills the process group at its deadline',
    scenarios: ['stall'],
    schema: 'openai-strict',
    timeoutMs: 5_000,
    tags: ['timeout'],
    expect: () => ({ verdict: 'timeout' }),
  },
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
