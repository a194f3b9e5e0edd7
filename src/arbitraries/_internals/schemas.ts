/**
 * The production schemas (schemas/contracts/<name>.schema.json), read once, and their ajv validators.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { compileValidator, type Validator } from '#src/contract/validator.ts';
import { isPlainObject } from '#src/envelope/keys.ts';
import { projectPath } from '#src/paths.ts';

const SUFFIX = '.schema.json';
const schemas = new Map<string, Record<string, unknown>>();
const validators = new WeakMap<object, Validator>();

/** The names of the production schemas in schemas/contracts, sorted (`pov`, `event`, ...). */
export function productionSchemaNames(): string[] {
  return readdirSync(projectPath('schemas/contracts'))
    .filter((f) => f.endsWith(SUFFIX))
    .map((f) => f.slice(0, -SUFFIX.length))
    .sort();
}

/**
 * The production schema `name`, parsed (cached; do not mutate).
 *
 * @throws Error naming the known schemas when there is no such file.
 */
export function productionSchema(name: string): Record<string, unknown> {
  let schema = schemas.get(name);
  if (!schema) {
    const known = productionSchemaNames();
    if (!known.includes(name)) throw new Error(`[routecert] unknown production schema "${name}". Known: ${known.join(', ')}.`);
    schema = JSON.parse(readFileSync(projectPath('schemas/contracts', `${name}${SUFFIX}`), 'utf8')) as Record<string, unknown>;
    schemas.set(name, schema);
  }
  return schema;
}

/** The ajv validator of `schema` (compiled once per schema object). */
export function validatorOf(schema: Record<string, unknown>): Validator {
  let validate = validators.get(schema);
  if (!validate) {
    validate = compileValidator(schema);
    validators.set(schema, validate);
  }
  return validate;
}

let povShaped: Validator | undefined;

/**
 * The pov schema with `final` optional and untyped: valid under it = "shaped" (score >= 1). The same
 * rule as the pov contract's (src/contract/pov.ts `withoutFinality`).
 */
export function povShapedValidator(): Validator {
  if (!povShaped) {
    const copy = structuredClone(productionSchema('pov'));
    if (Array.isArray(copy.required)) copy.required = copy.required.filter((k) => k !== 'final');
    if (isPlainObject(copy.properties)) copy.properties = { ...copy.properties, final: true };
    povShaped = compileValidator(copy);
  }
  return povShaped;
}
