/**
 * Free-text envelopes (route `generic`): a CLI that prints its answer among prose.
 */
import fc from 'fast-check';
import type { EnvelopeConstraints, FreeTextPlan, GeneratedEnvelope } from './types.ts';
import { byOutcome, generatedFrom } from './_internals/generated.ts';
import { closeText, distribute, emptyText, material, pushAnswer, resolve, type Material, type Resolved } from './_internals/material.ts';

function freeTextPlan(m: Material, r: Resolved): FreeTextPlan {
  const plan: FreeTextPlan = { family: 'generic', process: m.process, text: emptyText(), guardJsonLines: r.guardJsonLines };
  for (const { answer, placement } of distribute(m, ['text'] as const, r, 'text')) pushAnswer(plan.text, answer, placement);
  closeText(plan.text, m);
  return plan;
}

/**
 * An arbitrary of free-text envelopes with their ground truth: prose, answers bare, pretty, fenced or
 * nested in a JSON string, concatenated with or without whitespace, noise JSON and deep nesting, LF or
 * CRLF, a BOM; failing runs print prose only, exit non-zero, are killed or time out.
 *
 * @param constraints - {@link EnvelopeConstraints}; `guardJsonLines` (default true) keeps any line from
 *   being a lone JSON object (see {@link FreeTextPlan.guardJsonLines}).
 * @returns an arbitrary of {@link GeneratedEnvelope}
 *
 * @example
 * fc.sample(freeTextEnvelope({ outcome: 'final', text: 'ascii' }), 1)[0].envelope.stdout
 */
export function freeTextEnvelope(constraints: EnvelopeConstraints = {}): fc.Arbitrary<GeneratedEnvelope> {
  const r = resolve(constraints);
  return byOutcome(constraints.outcome, (outcome) => material(outcome, r).map((m) => generatedFrom(freeTextPlan(m, r))));
}
