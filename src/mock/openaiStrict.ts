/**
 * OpenAI strict structured-output rules, as a checker: which places of a JSON Schema the OpenAI
 * service refuses when a request carries it with `strict: true` (Responses `text.format`
 * json_schema, Chat `response_format`, strict function tools), and the service's wording for each.
 *
 * The provider mock (./openaiResponses.ts) answers the first violation with HTTP 400
 * `invalid_json_schema`, so a CLI shows the rejection the way the real service makes it; the schema
 * lint can reuse {@link checkOpenAiStrict} to list every violation by JSON Pointer.
 *
 * What is refused, and why (research/schema-vocabularies.md §2 and §8):
 * - the root must be `type: "object"` and carry no `anyOf`/`oneOf`/`allOf`/`enum`/`not`
 *   (OpenAI guide "Structured model outputs"; errors seen through Codex: `schema must have a 'type'
 *   key`, `schema must be a JSON Schema of 'type: "object"', got 'type: "None"'`, `schema must have
 *   type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level. Found 'oneOf'.`);
 * - every object schema sets `additionalProperties: false` and lists every key of `properties` in
 *   `required` (guide; errors `'additionalProperties' is required to be supplied and to be false`,
 *   `'required' is required to be supplied and to be an array including every key in properties.
 *   Missing 'x'.`, e.g. vercel/ai#6484, moeru-ai/xsai#202);
 * - keywords the guide lists as unsupported: `allOf`, `not`, `dependentRequired`,
 *   `dependentSchemas`, `if`, `then`, `else`; and keywords measured refused: `oneOf`, `uniqueItems`,
 *   `minProperties`, `propertyNames`, `contains` (`In context=(...), 'uniqueItems' is not permitted.`,
 *   1jehuang/jcode#687, United-Codes/uc_ai, vercel-labs/json-render#180);
 * - `format` outside date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid
 *   (`'uri' is not a valid format`, measured);
 * - an array schema without `items` (`array schema missing items`, modelscope/ms-agent#610) or with
 *   the tuple form of `items` (`[...] is not of type 'object', 'boolean'`, measured);
 * - more than 10 levels of object nesting, 5,000 properties or 1,000 enum values (guide, newer copy).
 * - a nested schema with no `type` (and no `anyOf` or `$ref` standing in for it): `In context=('properties',
 *   'questions'), schema must have a 'type' key.` (SocialGouv/iterion#250 through Codex, can1357/oh-my-pi#211);
 *
 * Not refused, because the evidence conflicts or is missing: `default`, `examples`, `minLength`,
 * `maxLength` (refused in 2024-25 reports, accepted in 2026 measurements), and keywords nobody
 * measured (`$comment`, `x-*`, `patternProperties`, `prefixItems`). The mock reproduces documented
 * or measured rejections only; it never invents one.
 */

import { formatPointer, joinPointer } from '#src/pointer.ts';
import { OPENAI_STRICT_FACTS } from '#src/schema/profileData.ts';

/** Keywords OpenAI strict mode refuses wherever they appear (documented, then measured): the openai-strict profile's data. */
export const OPENAI_STRICT_REFUSED_KEYWORDS: readonly string[] = OPENAI_STRICT_FACTS.refusedKeywords;

/** The `format` values OpenAI strict mode supports (OpenAI guide "Structured model outputs"). */
export const OPENAI_STRICT_FORMATS: readonly string[] = OPENAI_STRICT_FACTS.formats;

/** Keywords refused at the root even though `anyOf`/`enum` are fine deeper down. */
const ROOT_REFUSED: readonly string[] = OPENAI_STRICT_FACTS.rootRefused;

/** Limits of the guide's newer copy: nesting levels, properties in total, enum values in total. */
export const OPENAI_STRICT_LIMITS = Object.freeze({ ...OPENAI_STRICT_FACTS.limits });

/**
 * Which rule a violation breaks:
 * `root-type` (no `type`, or not `object`, or a bare `$ref`), `root-union` (a union/enum/not at
 * the root), `type-key` (a nested schema with neither `type` nor `anyOf`/`$ref`), `additional-properties`, `required`, `refused-keyword`, `format`, `array-items`,
 * `tuple-items`, `nesting`, `properties-count`, `enum-count`.
 */
export type StrictRule =
  | 'root-type'
  | 'root-union'
  | 'type-key'
  | 'additional-properties'
  | 'required'
  | 'refused-keyword'
  | 'format'
  | 'array-items'
  | 'tuple-items'
  | 'nesting'
  | 'properties-count'
  | 'enum-count';

/**
 * One place of a schema that OpenAI strict mode refuses.
 *
 * - `pointer`: RFC 6901 JSON Pointer of the offending keyword inside the schema (`/required`,
 *   `/properties/ids/uniqueItems`); where a required keyword is missing, the pointer of where it
 *   belongs (`/properties/a/additionalProperties`); `""` for the root itself.
 * - `context`: the path of the schema node, as the service prints it in `In context=(...)`.
 * - `keyword`: the keyword concerned.
 * - `message`: the service's sentence for it (without the `Invalid schema for response_format
 *   '<name>': ` prefix; see {@link openAiSchemaErrorMessage}).
 * - `missing`: for `required`, every property key not listed (the service names the first only).
 */
export interface StrictViolation {
  rule: StrictRule;
  pointer: string;
  context: (string | number)[];
  keyword: string;
  message: string;
  missing?: string[];
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}



/** A path as a Python tuple, the way the service prints it: `()`, `('properties',)`, `('properties', 'a', 'anyOf', 0)`. */
export function pythonTuple(path: readonly (string | number)[]): string {
  const items = path.map((t) => (typeof t === 'number' ? String(t) : `'${t.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`));
  if (items.length === 1) return `(${items[0]},)`;
  return `(${items.join(', ')})`;
}

function typesOf(schema: Json): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((t): t is string => typeof t === 'string');
  return [];
}

function isObjectSchema(schema: Json): boolean {
  return typesOf(schema).includes('object') || (schema.type === undefined && isObject(schema.properties));
}

function typeRepr(type: unknown): string {
  if (type === undefined || type === null) return 'None';
  if (typeof type === 'string') return type;
  return JSON.stringify(type);
}

/**
 * Every place of `schema` that OpenAI strict mode refuses, in document order (pre-order walk of
 * `properties`, `items`, `anyOf`, `$defs`, `definitions` and schema-valued `additionalProperties`),
 * root-shape violations first. `[]` means the service would accept the schema's shape.
 * Never throws; a non-object `schema` gives one `root-type` violation.
 *
 * @example
 * checkOpenAiStrict({ type: 'object', properties: { a: { type: 'string' } } }).map((v) => v.pointer)
 * // => ['/additionalProperties', '/required']
 */
export function checkOpenAiStrict(schema: unknown): StrictViolation[] {
  const out: StrictViolation[] = [];
  if (!isObject(schema)) {
    out.push({ rule: 'root-type', pointer: '', context: [], keyword: 'type', message: "schema must be a JSON Schema of 'type: \"object\"', got 'type: \"None\"'." });
    return out;
  }
  // Root shape.
  const rootUnions = ROOT_REFUSED.filter((k) => Object.hasOwn(schema, k));
  for (const k of rootUnions) {
    out.push({
      rule: 'root-union',
      pointer: `/${k}`,
      context: [],
      keyword: k,
      message: `schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level. Found '${k}'.`,
    });
  }
  if (schema.type === undefined && rootUnions.length === 0) {
    if (typeof schema.$ref === 'string') {
      out.push({ rule: 'root-type', pointer: '/$ref', context: [], keyword: '$ref', message: "schema must be a JSON Schema of 'type: \"object\"', got 'type: \"None\"'." });
    } else {
      out.push({ rule: 'root-type', pointer: '/type', context: [], keyword: 'type', message: "schema must have a 'type' key." });
    }
  } else if (schema.type !== undefined && schema.type !== 'object') {
    out.push({ rule: 'root-type', pointer: '/type', context: [], keyword: 'type', message: `schema must be a JSON Schema of 'type: "object"', got 'type: "${typeRepr(schema.type)}"'.` });
  }

  const counts = { properties: 0, enumValues: 0, deepest: 0 };
  walk(schema, [], 0, true, new Set(rootUnions), out, counts);
  if (counts.deepest > OPENAI_STRICT_LIMITS.nestingLevels) {
    out.push({ rule: 'nesting', pointer: '', context: [], keyword: 'properties', message: `${counts.deepest} levels of nesting exceeds limit of ${OPENAI_STRICT_LIMITS.nestingLevels}.` });
  }
  if (counts.properties > OPENAI_STRICT_LIMITS.properties) {
    out.push({ rule: 'properties-count', pointer: '', context: [], keyword: 'properties', message: `${counts.properties} parameters exceeds limit of ${OPENAI_STRICT_LIMITS.properties}.` });
  }
  if (counts.enumValues > OPENAI_STRICT_LIMITS.enumValues) {
    out.push({ rule: 'enum-count', pointer: '', context: [], keyword: 'enum', message: `${counts.enumValues} enum values exceeds limit of ${OPENAI_STRICT_LIMITS.enumValues}.` });
  }
  return out;
}

function walk(
  node: unknown,
  path: (string | number)[],
  objectDepth: number,
  isRoot: boolean,
  skipAtRoot: Set<string>,
  out: StrictViolation[],
  counts: { properties: number; enumValues: number; deepest: number },
): void {
  if (!isObject(node)) return;
  const inContext = `In context=${pythonTuple(path)}, `;
  const here = formatPointer(path);

  for (const keyword of OPENAI_STRICT_REFUSED_KEYWORDS) {
    if (!Object.hasOwn(node, keyword) || (isRoot && skipAtRoot.has(keyword))) continue;
    out.push({ rule: 'refused-keyword', pointer: joinPointer(here, keyword), context: [...path], keyword, message: `${inContext}'${keyword}' is not permitted.` });
  }
  if (!isRoot && !['type', 'anyOf', '$ref'].some((k) => Object.hasOwn(node, k))) {
    // Measured: "In context=('properties', 'questions'), schema must have a 'type' key." (SocialGouv/iterion#250, through Codex;
    // can1357/oh-my-pi#211 for an empty items schema).
    out.push({ rule: 'type-key', pointer: here, context: [...path], keyword: 'type', message: `${inContext}schema must have a 'type' key.` });
  }
  if (typeof node.format === 'string' && !OPENAI_STRICT_FORMATS.includes(node.format)) {
    out.push({ rule: 'format', pointer: `${here}/format`, context: [...path], keyword: 'format', message: `${inContext}'${node.format}' is not a valid format.` });
  }
  if (Array.isArray(node.enum)) counts.enumValues += node.enum.length;

  let depth = objectDepth;
  if (isObjectSchema(node)) {
    depth += 1;
    counts.deepest = Math.max(counts.deepest, depth);
    if (node.additionalProperties !== false) {
      out.push({
        rule: 'additional-properties',
        pointer: `${here}/additionalProperties`,
        context: [...path],
        keyword: 'additionalProperties',
        message: `${inContext}'additionalProperties' is required to be supplied and to be false.`,
      });
    }
    const keys = isObject(node.properties) ? Object.keys(node.properties) : [];
    counts.properties += keys.length;
    const required = Array.isArray(node.required) ? node.required : null;
    const missing = keys.filter((k) => required === null || !required.includes(k));
    if (missing.length > 0) {
      out.push({
        rule: 'required',
        pointer: `${here}/required`,
        context: [...path],
        keyword: 'required',
        message: `${inContext}'required' is required to be supplied and to be an array including every key in properties. Missing '${missing[0]!}'.`,
        missing,
      });
    }
  }
  if (typesOf(node).includes('array')) {
    if (!Object.hasOwn(node, 'items')) {
      out.push({ rule: 'array-items', pointer: `${here}/items`, context: [...path], keyword: 'items', message: `${inContext}array schema missing items.` });
    } else if (Array.isArray(node.items)) {
      out.push({ rule: 'tuple-items', pointer: `${here}/items`, context: [...path], keyword: 'items', message: `${inContext}${JSON.stringify(node.items)} is not of type 'object', 'boolean'.` });
    }
  }

  if (isObject(node.properties)) {
    for (const [k, v] of Object.entries(node.properties)) walk(v, [...path, 'properties', k], depth, false, skipAtRoot, out, counts);
  }
  if (isObject(node.items)) walk(node.items, [...path, 'items'], depth, false, skipAtRoot, out, counts);
  if (isObject(node.additionalProperties)) walk(node.additionalProperties, [...path, 'additionalProperties'], depth, false, skipAtRoot, out, counts);
  if (Array.isArray(node.anyOf)) node.anyOf.forEach((v, i) => walk(v, [...path, 'anyOf', i], depth, false, skipAtRoot, out, counts));
  for (const defs of ['$defs', 'definitions'] as const) {
    const container = node[defs];
    if (isObject(container)) for (const [k, v] of Object.entries(container)) walk(v, [...path, defs, k], 0, false, skipAtRoot, out, counts);
  }
}

/**
 * The service's error message for a violation of the schema sent as `name`, with the violation's
 * JSON Pointer appended in parentheses (the real service prints only the `context` tuple; the
 * pointer is the mock's addition, so a reader can find the place).
 *
 * @example
 * openAiSchemaErrorMessage('codex_output_schema', checkOpenAiStrict(povSchema)[0]!)
 * // => "Invalid schema for response_format 'codex_output_schema': In context=(), 'required' is required to be
 * //     supplied and to be an array including every key in properties. Missing 'cross_model_route'. (JSON Pointer: \"/required\")"
 */
export function openAiSchemaErrorMessage(name: string, violation: StrictViolation): string {
  return `Invalid schema for response_format '${name}': ${violation.message} (JSON Pointer: "${violation.pointer}")`;
}

/**
 * OpenAI's error body for a refused schema: `{"error":{"message","type":"invalid_request_error",
 * "param":<param>,"code":"invalid_json_schema"}}`. `param` is `text.format.schema` for the
 * Responses API (research/schema-vocabularies.md §2.1).
 */
export function openAiSchemaErrorBody(
  name: string,
  violation: StrictViolation,
  param = 'text.format.schema',
): { error: { message: string; type: 'invalid_request_error'; param: string; code: 'invalid_json_schema' } } {
  return { error: { message: openAiSchemaErrorMessage(name, violation), type: 'invalid_request_error', param, code: 'invalid_json_schema' } };
}
