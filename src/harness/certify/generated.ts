/**
 * Answers generated from the contract's schema, for the checks whose input the team's corpus lacks
 * (issue 19 point 8: a check's inputs come from the contract and the route; cases are generated
 * from the contract's schema when the corpus has none of that kind).
 */
import { generate } from 'json-schema-faker';
import { canonicalJson } from '#src/envelope/candidates.ts';
import { compileValidator } from '#src/contract/validator.ts';

/** Seeds tried, in order; fixed so every certification derives the same answers. */
const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

/**
 * Up to `count` distinct answers valid for `schema` (json-schema-faker, fixed seeds, every array
 * with one or two items so an array anchor is populated; each checked with Ajv). Empty when the
 * generator yields nothing valid (an unsatisfiable or unsupported schema); never throws.
 */
export async function generatedAnswers(schema: Record<string, unknown>, count = 4): Promise<Record<string, unknown>[]> {
  const out = new Map<string, Record<string, unknown>>();
  let validate: (v: unknown) => unknown[];
  try {
    validate = compileValidator(schema);
  } catch {
    return [];
  }
  for (const seed of SEEDS) {
    if (out.size >= count) break;
    try {
      const value = await generate(schema as Parameters<typeof generate>[0], { seed, minItems: 1, maxItems: 2, optionalsProbability: 0.5 });
      if (typeof value !== 'object' || value === null || Array.isArray(value) || validate(value).length !== 0) continue;
      out.set(canonicalJson(value), value as Record<string, unknown>);
    } catch {
      // a seed the generator cannot serve: try the next
    }
  }
  return [...out.values()];
}

/** True when `value` holds something at `anchor` (not absent, null, '', [] or {}). */
export function anchorPopulated(value: unknown, anchor: string): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const a = (value as Record<string, unknown>)[anchor];
  if (a === undefined || a === null || a === '') return false;
  if (Array.isArray(a)) return a.length > 0;
  if (typeof a === 'object') return Object.keys(a).length > 0;
  return true;
}

const validators = new WeakMap<object, ((v: unknown) => unknown[]) | null>();

/** Whether `value` is valid for `schema` (Ajv, compiled once per schema object); true when the schema does not compile. */
export function validFor(schema: Record<string, unknown>, value: unknown): boolean {
  let validate = validators.get(schema);
  if (validate === undefined) {
    try {
      validate = compileValidator(schema);
    } catch {
      validate = null;
    }
    validators.set(schema, validate);
  }
  return validate === null || validate(value).length === 0;
}

/**
 * A copy of `value` with another `anchor` value where it can have one, valid for `schema`, with `overrides`
 * applied (e.g. the finality key set): the one rule for the "other answer" the selection checks put
 * beside the case's answer (tie-to-later's earlier answer, last-shaped-wins's draft,
 * structured-beside-text's placeholder). Tried in order, the first valid one wins: each of
 * `tries` (the caller's own variations, e.g. the anchor string with a suffix); another value of the
 * anchor's `enum` in the schema's `properties`; the anchor value of each of `generated` (answers
 * generated from the schema); each of `generated` whole (a `const` anchor keeps its value, the answer
 * differs elsewhere). Never `value` itself (with `overrides`). A variation the schema refuses is never
 * used: an enum anchor with a suffix (`"high (an earlier settled answer)"`) was no candidate at
 * all, so the check passed a worker that picks the earlier of two answers (a new-user trial, an
 * enum anchor from `init`). `null` when none is valid.
 */
export function anchorVariant(
  value: Record<string, unknown>,
  anchor: string,
  schema: Record<string, unknown>,
  options: { tries?: readonly Record<string, unknown>[]; generated?: readonly Record<string, unknown>[]; overrides?: Record<string, unknown> } = {},
): Record<string, unknown> | null {
  const overrides = options.overrides ?? {};
  const same = canonicalJson({ ...value, ...overrides });
  const generated = options.generated ?? [];
  const property = isRecord(schema.properties) ? schema.properties[anchor] : undefined;
  const enumValues = isRecord(property) && Array.isArray(property.enum) ? property.enum : [];
  const candidates: Record<string, unknown>[] = [
    ...(options.tries ?? []),
    ...enumValues.map((v: unknown) => ({ ...value, [anchor]: v })),
    ...generated.map((g) => ({ ...value, [anchor]: g[anchor] })),
    ...generated,
  ];
  for (const candidate of candidates) {
    const v = { ...candidate, ...overrides };
    if (v[anchor] === undefined || canonicalJson(v) === same) continue;
    if (validFor(schema, v)) return v;
  }
  return null;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
