/**
 * Envelopes of `claude -p --output-format json` (route `claude-code/json`).
 */
import fc from 'fast-check';
import type { ClaudeJsonPlan, EnvelopeConstraints, GeneratedEnvelope, TerminalFailure } from './types.ts';
import { byOutcome, generatedFrom } from './_internals/generated.ts';
import { closeText, distribute, emptyText, material, pushAnswer, resolve, slotFor, STARTUP_MESSAGES, type Material, type Outcome, type Resolved } from './_internals/material.ts';

/** How a failing Claude Code run ends (besides crashes, signals and timeouts, drawn with the process). */
const FAILURES = ['prose', 'provider-error', 'cli-error', 'startup', 'empty'] as const;

/** Provider errors as Claude Code reports them: `is_error: true`, `api_error_status`, `terminal_reason: "api_error"`. */
export const CLAUDE_PROVIDER_ERRORS: readonly TerminalFailure[] = [
  { kind: 'provider-error', status: 529, message: 'API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}' },
  { kind: 'provider-error', status: 400, message: 'API Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"tools.0.custom.input_schema: JSON schema is invalid"}}' },
  { kind: 'provider-error', status: 429, message: 'API Error: Request rejected (429) · rate limited' },
];

/** Build the plan from the material. */
function claudeJsonPlan(outcome: Outcome, m: Material, mode: (typeof FAILURES)[number], failureIndex: number, r: Resolved): ClaudeJsonPlan {
  const plan: ClaudeJsonPlan = {
    family: 'claude-code/json',
    process: m.process,
    body: 'result',
    structured: null,
    structuredFirst: m.structuredFirst,
    result: emptyText(),
    failure: null,
    deepNoise: m.deepNoise,
  };
  const failing = outcome === 'failing' && mode !== 'prose';
  if (failing && mode === 'startup') {
    const message = STARTUP_MESSAGES[failureIndex % STARTUP_MESSAGES.length]!;
    plan.body = 'startup-rejected';
    plan.process = { ...m.process, exitCode: 1, signal: null, timedOut: false, stderr: m.process.stderr.trim() === '' ? `${message}\n` : `${message}\n${m.process.stderr}` };
    return plan;
  }
  if (failing && mode === 'empty') {
    plan.body = 'empty';
    return plan;
  }
  if (failing) {
    plan.failure = mode === 'provider-error' ? CLAUDE_PROVIDER_ERRORS[failureIndex % CLAUDE_PROVIDER_ERRORS.length]! : { kind: 'cli-error', message: 'Failed to provide valid structured output after 5 attempts' };
    return plan;
  }
  for (const { answer, place, placement } of distribute(m, ['structured', 'result'] as const, r, 'result')) {
    if (place === 'structured') plan.structured = slotFor(answer, m, placement);
    else pushAnswer(plan.result, answer, placement);
  }
  // Claude Code mirrors the structured answer into `result` as its JSON text.
  if (plan.structured && m.mirror) plan.result.pieces.push({ sep: plan.result.pieces.length ? '\n' : '', piece: { kind: 'answer', answer: plan.structured.answer, style: { pretty: false, escapeUnicode: false, duplicateKeys: false, wrap: 'bare' } } });
  else closeText(plan.result, m);
  return plan;
}

/**
 * An arbitrary of `claude-code/json` envelopes with their ground truth: one result object whose answers
 * sit in the structured field (any spelling of `structured_output`, as an object or a JSON string) and/or
 * in the `result` string (bare, fenced, pretty, in prose, concatenated, nested in a JSON string), with
 * placeholders before or after the final, duplicate keys, escapes and deep noise; failing runs report
 * an API error (`is_error`, `api_error_status`), `error_max_structured_output_retries`, a startup
 * rejection on stderr, or nothing.
 *
 * @param constraints - {@link EnvelopeConstraints}
 * @returns an arbitrary of {@link GeneratedEnvelope}
 *
 * @example
 * fc.sample(claudeJsonEnvelope({ outcome: 'final' }), 1)[0].expected.verdict // 'accepted'
 */
export function claudeJsonEnvelope(constraints: EnvelopeConstraints = {}): fc.Arbitrary<GeneratedEnvelope> {
  const r = resolve(constraints);
  return byOutcome(constraints.outcome, (outcome) =>
    fc
      .record({ m: material(outcome, r), mode: fc.constantFrom(...FAILURES), failureIndex: fc.nat({ max: 9 }) })
      .map(({ m, mode, failureIndex }) => generatedFrom(claudeJsonPlan(outcome, m, mode, failureIndex, r))),
  );
}
