/**
 * Envelopes of xAI grok with `--json-schema` (route `grok/json`, documented shape: grok 1.0.4,
 * EveryInc/compound-engineering-plugin PR #1325).
 */
import fc from 'fast-check';
import type { EnvelopeConstraints, GeneratedEnvelope, GrokJsonPlan } from './types.ts';
import { byOutcome, generatedFrom } from './_internals/generated.ts';
import { closeText, distribute, emptyText, material, pushAnswer, resolve, slotFor, type Material, type Outcome, type Resolved } from './_internals/material.ts';

const FAILURES = ['prose', 'provider-error', 'cli-error', 'empty'] as const;
const TEXT_KEYS = ['text', 'text', 'result', 'response'] as const;

function grokPlan(outcome: Outcome, m: Material, mode: (typeof FAILURES)[number], textKey: string, pretty: boolean, r: Resolved): GrokJsonPlan {
  const plan: GrokJsonPlan = { family: 'grok/json', process: m.process, body: 'object', textKey, text: emptyText(), structured: null, failure: null, pretty };
  if (outcome === 'failing' && mode === 'empty') {
    plan.body = 'empty';
    return plan;
  }
  if (outcome === 'failing' && mode === 'provider-error') {
    plan.failure = { kind: 'provider-error', status: 402, message: 'You have run out of credits for this billing period.' };
    return plan;
  }
  if (outcome === 'failing' && mode === 'cli-error') plan.failure = { kind: 'cli-error', message: 'model did not produce structured output' };
  const places = plan.failure ? (['text'] as const) : (['structured', 'text'] as const);
  for (const { answer, place, placement } of distribute(m, places, r, 'text')) {
    if (place === 'structured') plan.structured = slotFor(answer, m, placement);
    else pushAnswer(plan.text, answer, placement);
  }
  closeText(plan.text, m);
  return plan;
}

/**
 * An arbitrary of `grok/json` envelopes with their ground truth: one JSON object (compact or pretty)
 * with the answer text in `text` (or `result` / `response`) holding answers concatenated with or
 * without whitespace, in prose or fences, and camelCase `structuredOutput` (or another spelling);
 * failing runs carry `structuredOutputError`, an HTTP error body (`{"error":{"code":402,...}}`), prose
 * only, or no stdout.
 *
 * @param constraints - {@link EnvelopeConstraints}
 * @returns an arbitrary of {@link GeneratedEnvelope}
 *
 * @example
 * fc.sample(grokJsonEnvelope({ structured: 'always', outcome: 'final' }), 1)[0].plan
 */
export function grokJsonEnvelope(constraints: EnvelopeConstraints = {}): fc.Arbitrary<GeneratedEnvelope> {
  const r = resolve(constraints);
  return byOutcome(constraints.outcome, (outcome) =>
    fc
      .record({ m: material(outcome, r), mode: fc.constantFrom(...FAILURES), textKey: fc.constantFrom(...TEXT_KEYS), pretty: fc.boolean() })
      .map(({ m, mode, textKey, pretty }) => generatedFrom(grokPlan(outcome, m, mode, textKey, pretty, r))),
  );
}
