/**
 * The probe plan: which hermetic probes of a real CLI routecert runs and records, what the mock
 * model does on each attempt, and the verdict the pov contract must reach. The expectations are the
 * contract's rules applied to the scripted behaviour (DESIGN.md "Contracts in the mission" item 1),
 * written down independently of the engine, so a decoder or contract regression fails them.
 *
 * The plans themselves live with their CLI (src/routes/<cli>/plan.ts); {@link PROBE_PLANS} is
 * derived from the route definitions (src/routes/index.ts).
 */
import { readFileSync } from 'node:fs';
import { projectPath } from '#src/paths.ts';
import { ROUTE_DEFINITIONS } from '#src/routes/index.ts';
import type { PlannedProbe, SchemaVariant } from '#src/routes/plan.ts';

export type { PlannedProbe, SchemaVariant } from '#src/routes/plan.ts';

/** The schema a variant sends, built from the production schema (`openai-strict` is read from its file). */
export function schemaFor(variant: SchemaVariant, production: Record<string, unknown>): Record<string, unknown> {
  if (variant === 'meta-root') return { ...production, _meta: { owner: 'routecert', note: 'custom member' } };
  if (variant === 'openai-strict') return JSON.parse(readFileSync(projectPath('schemas/contracts/pov.openai-strict.schema.json'), 'utf8')) as Record<string, unknown>;
  return production;
}

/**
 * The probe plan of each CLI with a probe, by its routecert name, derived from the route
 * definitions (src/routes/<cli>/route.ts `probe.plan`). A CLI without a plan is listed by
 * `routecert probe --list` but not probed by `routecert run`.
 */
export const PROBE_PLANS: Readonly<Record<string, readonly PlannedProbe[]>> = Object.freeze(
  Object.fromEntries(ROUTE_DEFINITIONS.flatMap((d) => (d.probe ? [[d.cli, d.probe.plan]] : []))),
);

/** The plan of `cli`, or `[]`. */
export function planFor(cli: string): readonly PlannedProbe[] {
  return PROBE_PLANS[cli] ?? [];
}
