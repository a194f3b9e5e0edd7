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

/** The first of `answers` whose canonical JSON differs from `value`'s, or `null`. */
export function distinctAnswer(answers: readonly Record<string, unknown>[], value: unknown): Record<string, unknown> | null {
  const own = canonicalJson(value);
  return answers.find((a) => canonicalJson(a) !== own) ?? null;
}
