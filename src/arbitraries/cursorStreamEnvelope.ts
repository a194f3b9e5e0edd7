/**
 * Envelopes of `cursor-agent --output-format stream-json` (route `cursor-agent/stream-json`,
 * documented shape, shared/research/cli-envelopes.md).
 */
import fc from 'fast-check';
import type { CursorStreamPlan, EnvelopeConstraints, GeneratedEnvelope } from './types.ts';
import { byOutcome, generatedFrom } from './_internals/generated.ts';
import { closeText, distribute, emptyText, material, pushAnswer, resolve, type Material, type Outcome, type Resolved } from './_internals/material.ts';

const FAILURES = ['prose', 'cli-error', 'no-output'] as const;

function cursorPlan(outcome: Outcome, m: Material, mode: (typeof FAILURES)[number], chunks: number, r: Resolved): CursorStreamPlan {
  const plan: CursorStreamPlan = { family: 'cursor-agent/stream-json', process: m.process, body: 'events', chunks, result: emptyText(), structured: null, failure: null };
  if (outcome === 'failing' && mode === 'no-output') {
    plan.body = 'no-output';
    return plan;
  }
  if (outcome === 'failing' && mode === 'cli-error') {
    plan.failure = { kind: 'cli-error', message: 'Error: model returned no output' };
    return plan;
  }
  for (const { answer, placement } of distribute(m, ['result'] as const, r, 'result')) pushAnswer(plan.result, answer, placement);
  closeText(plan.result, m);
  return plan;
}

/**
 * An arbitrary of `cursor-agent/stream-json` envelopes with their ground truth: a system line, the
 * answer text streamed in 0..3 assistant chunks (slices of the result text, split anywhere, so they
 * hold no answer the result line does not), and a result line whose `result` string holds the answers
 * in prose, fences or concatenations. Failing runs end with `is_error: true`, prose only, or no stdout.
 *
 * @param constraints - {@link EnvelopeConstraints} (`structured` is ignored: cursor-agent has no structured field)
 * @returns an arbitrary of {@link GeneratedEnvelope}
 *
 * @example
 * fc.sample(cursorStreamEnvelope({ outcome: 'failing' }), 1)[0].expected.verdict
 */
export function cursorStreamEnvelope(constraints: EnvelopeConstraints = {}): fc.Arbitrary<GeneratedEnvelope> {
  const r = resolve(constraints);
  return byOutcome(constraints.outcome, (outcome) =>
    fc
      .record({ m: material(outcome, r), mode: fc.constantFrom(...FAILURES), chunks: fc.nat({ max: 3 }) })
      .map(({ m, mode, chunks }) => generatedFrom(cursorPlan(outcome, m, mode, chunks, r))),
  );
}
