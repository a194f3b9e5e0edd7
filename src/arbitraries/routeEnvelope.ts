/**
 * Envelopes of any route family, with their ground truth.
 */
import fc from 'fast-check';
import { claudeJsonEnvelope } from './claudeJsonEnvelope.ts';
import { claudeStreamEnvelope } from './claudeStreamEnvelope.ts';
import { cursorStreamEnvelope } from './cursorStreamEnvelope.ts';
import { freeTextEnvelope } from './freeTextEnvelope.ts';
import { grokJsonEnvelope } from './grokJsonEnvelope.ts';
import { ROUTE_FAMILIES, type EnvelopeConstraints, type GeneratedEnvelope, type RouteFamily } from './types.ts';

/** The families that have a structured field. */
export const STRUCTURED_FAMILIES: readonly RouteFamily[] = ['claude-code/json', 'claude-code/stream-json', 'grok/json'];

/** Constraints of {@link routeEnvelope}: {@link EnvelopeConstraints} plus the families to draw from. */
export interface RouteEnvelopeConstraints extends EnvelopeConstraints {
  /**
   * The route families to draw from. With `structured: 'always'`, families without a structured
   * field are left out.
   * @defaultValue every {@link ROUTE_FAMILIES} member
   */
  routes?: readonly RouteFamily[];
}

const BUILDERS: Record<RouteFamily, (c: EnvelopeConstraints) => fc.Arbitrary<GeneratedEnvelope>> = {
  'claude-code/json': claudeJsonEnvelope,
  'claude-code/stream-json': claudeStreamEnvelope,
  'grok/json': grokJsonEnvelope,
  'cursor-agent/stream-json': cursorStreamEnvelope,
  generic: freeTextEnvelope,
};

/**
 * An arbitrary of envelopes of the chosen route families (one family builder each, equally likely),
 * each with its plan and expected verdict.
 *
 * @param constraints - {@link RouteEnvelopeConstraints}
 * @returns an arbitrary of {@link GeneratedEnvelope}
 * @throws Error (at once) when no family is left to draw from.
 *
 * @example
 * fc.sample(routeEnvelope({ routes: ['grok/json'], outcome: 'final' }), 1)[0].route // 'grok/json'
 */
export function routeEnvelope(constraints: RouteEnvelopeConstraints = {}): fc.Arbitrary<GeneratedEnvelope> {
  let routes = constraints.routes ?? ROUTE_FAMILIES;
  if (constraints.structured === 'always') routes = routes.filter((r) => STRUCTURED_FAMILIES.includes(r));
  if (routes.length === 0) throw new Error('[routecert] routeEnvelope: no route family left to draw from');
  return fc.oneof(...routes.map((route) => BUILDERS[route](constraints)));
}
