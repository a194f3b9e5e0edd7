/**
 * From plan to generated envelope, and the outcome switch every builder shares.
 */
import fc from 'fast-check';
import type { EnvelopeConstraints, EnvelopePlan, GeneratedEnvelope } from '../types.ts';
import type { Outcome } from './material.ts';
import { renderPlan } from './render.ts';
import { expectedOf } from './truth.ts';

/** A plan with its rendered envelope and its ground truth. */
export function generatedFrom(plan: EnvelopePlan): GeneratedEnvelope {
  return { route: plan.family, plan, envelope: renderPlan(plan), expected: expectedOf(plan) };
}

/** One builder per outcome; `any` draws final (3), no-final (2) or failing (2). */
export function byOutcome(outcome: EnvelopeConstraints['outcome'], build: (o: Outcome) => fc.Arbitrary<GeneratedEnvelope>): fc.Arbitrary<GeneratedEnvelope> {
  if (outcome !== undefined && outcome !== 'any') return build(outcome);
  return fc.oneof({ weight: 3, arbitrary: build('final') }, { weight: 2, arbitrary: build('no-final') }, { weight: 2, arbitrary: build('failing') });
}
