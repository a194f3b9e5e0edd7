/**
 * JSON Schema validation for contracts: a compiled schema as a function that returns the problems
 * (empty = valid), each as `<JSON Pointer> <message>` (ajv's `instancePath` + `message`).
 */
import { createRequire } from 'node:module';
import type { AnySchema, ValidateFunction } from 'ajv';

const require = createRequire(import.meta.url);
// ajv and ajv-formats are CommonJS; their default export is the class/function.
const Ajv = require('ajv') as typeof import('ajv').default;
const Ajv2019 = require('ajv/dist/2019') as typeof import('ajv/dist/2019.js').default;
const Ajv2020 = require('ajv/dist/2020') as typeof import('ajv/dist/2020.js').default;
const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;

/** Validates a value; returns `[]` when valid, otherwise up to 20 `<pointer> <message>` lines. */
export type Validator = (value: unknown) => string[];

/**
 * Compile `schema` with the ajv class its `$schema` names (draft-07 by default; 2019-09 and
 * 2020-12 supported), ajv-formats on, `allErrors` on, strict mode off (the lint reports portability).
 *
 * @throws Error with ajv's message when the schema does not compile.
 */
export function compileValidator(schema: Record<string, unknown>): Validator {
  const uri = typeof schema.$schema === 'string' ? schema.$schema : '';
  const options = { allErrors: true, strict: false } as const;
  const ajv = uri.includes('2020-12') ? new Ajv2020(options) : uri.includes('2019-09') ? new Ajv2019(options) : new Ajv(options);
  addFormats(ajv);
  const validate: ValidateFunction = ajv.compile(schema as AnySchema);
  return (value) => {
    if (validate(value)) return [];
    // An enum's message names its values (a case file's misspelt verdict said only "must be equal to one of the allowed values").
    return (validate.errors ?? []).slice(0, 20).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}${enumValues(e.params)}`);
  };
}

/** `: "a", "b", ...` for an enum error's allowed values (at most 12, then `...`), else ''. */
function enumValues(params: Record<string, unknown> | undefined): string {
  const allowed = params?.allowedValues;
  if (!Array.isArray(allowed) || allowed.length === 0) return '';
  const shown = allowed.slice(0, 12).map((v) => JSON.stringify(v)?.slice(0, 40));
  return `: ${shown.join(', ')}${allowed.length > 12 ? ', ...' : ''}`;
}
