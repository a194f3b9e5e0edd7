/**
 * Rule builders shared by the provider profiles (src/schema/profiles.ts). Each builder returns a
 * {@link ProfileRule}: plain data (id, description, source, severity, hint) plus a `check`.
 * Builders never decide what a provider accepts; the profiles pass that in, with its source.
 */
import type { LintContext, ProfileRule, RuleHit, Severity } from '#src/schema/types.ts';
import type { SchemaNode } from '#src/schema/walk.ts';

type SchemaObject = Readonly<Record<string, unknown>>;

/** The node's schema when it is an object (boolean subschemas have no keywords). */
export function objectOf(node: SchemaNode): SchemaObject | undefined {
  return typeof node.schema === 'object' ? node.schema : undefined;
}

function isPlainObject(value: unknown): value is SchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The type names a schema declares (`type` as a string or an array of strings). */
export function typesOf(schema: SchemaObject): Set<string> {
  const type = schema.type;
  if (typeof type === 'string') return new Set([type]);
  if (Array.isArray(type)) return new Set(type.filter((t): t is string => typeof t === 'string'));
  return new Set();
}

/** An object schema: `type` names `object`, or there is no `type` and `properties` is present. */
export function isObjectSchema(schema: SchemaObject): boolean {
  const types = typesOf(schema);
  if (types.has('object')) return true;
  return schema.type === undefined && isPlainObject(schema.properties);
}

/** Common fields of every builder. */
export interface RuleMeta {
  id: string;
  description: string;
  source: string;
  hint: string;
  severity?: Severity;
}

function rule(meta: RuleMeta, scope: 'node' | 'document', check: ProfileRule['check']): ProfileRule {
  return {
    id: meta.id,
    description: meta.description,
    source: meta.source,
    severity: meta.severity ?? 'error',
    hint: meta.hint,
    scope,
    check,
  };
}

/**
 * A rule called once per subschema: `check(schemaObject, node, context)` returns its hits.
 * Boolean subschemas are skipped.
 */
export function nodeRule(
  meta: RuleMeta,
  check: (schema: SchemaObject, node: SchemaNode, context: LintContext) => RuleHit[],
): ProfileRule {
  return rule(meta, 'node', (node, context) => {
    const schema = objectOf(node);
    return schema === undefined ? [] : check(schema, node, context);
  });
}

/** A rule called once per document with the root node. */
export function documentRule(meta: RuleMeta, check: (root: SchemaNode, context: LintContext) => RuleHit[]): ProfileRule {
  return rule(meta, 'document', check);
}

/**
 * A per-keyword rule: `test(keyword, schema, node, context)` returns a message when the keyword is
 * a problem, else `undefined`. One hit per offending keyword of every subschema.
 */
export function keywordRule(
  meta: RuleMeta,
  test: (keyword: string, schema: SchemaObject, node: SchemaNode, context: LintContext) => string | RuleHit | undefined,
): ProfileRule {
  return nodeRule(meta, (schema, node, context) => {
    const hits: RuleHit[] = [];
    for (const keyword of Object.keys(schema)) {
      const out = test(keyword, schema, node, context);
      if (out === undefined) continue;
      hits.push(typeof out === 'string' ? { keyword, message: out } : out);
    }
    return hits;
  });
}

/** Hits for each keyword of `table` present in a subschema; the table value is the evidence. */
export function listedKeywordsRule(meta: RuleMeta, table: Readonly<Record<string, string>>, verb: string): ProfileRule {
  return keywordRule(meta, (keyword) => {
    const evidence = Object.hasOwn(table, keyword) ? table[keyword] : undefined;
    return evidence === undefined ? undefined : `${verb} (${evidence})`;
  });
}

/**
 * `$schema` acceptance: a root `$schema` that `accepted` refuses is a hit. An absent `$schema` is
 * always accepted (the provider's default draft applies).
 */
export function schemaUriRule(meta: RuleMeta, accepted: readonly string[], refusal: (uri: string) => string): ProfileRule {
  return documentRule(meta, (root) => {
    const schema = objectOf(root);
    if (schema === undefined || !Object.hasOwn(schema, '$schema')) return [];
    const uri = schema.$schema;
    if (typeof uri === 'string' && accepted.includes(uri)) return [];
    const shown = typeof uri === 'string' ? uri : JSON.stringify(uri);
    return [{ keyword: '$schema', message: refusal(shown) }];
  });
}

/** The root must declare `type: "object"`. */
export function rootObjectRule(meta: RuleMeta, consequence: string): ProfileRule {
  return documentRule(meta, (root) => {
    const schema = objectOf(root);
    if (schema === undefined) return [{ keyword: '', message: `the root schema is the boolean ${String(root.schema)}; ${consequence}` }];
    if (schema.type === 'object') return [];
    if (schema.type === undefined) return [{ keyword: 'type', message: `the root has no "type"; ${consequence}` }];
    return [{ keyword: 'type', message: `the root type is ${JSON.stringify(schema.type)}, not "object"; ${consequence}` }];
  });
}

/** None of `keywords` may sit at the root. */
export function rootKeywordsRule(meta: RuleMeta, keywords: readonly string[], consequence: string): ProfileRule {
  return documentRule(meta, (root) => {
    const schema = objectOf(root);
    if (schema === undefined) return [];
    return keywords
      .filter((keyword) => Object.hasOwn(schema, keyword))
      .map((keyword) => ({ keyword, message: `"${keyword}" at the top level; ${consequence}` }));
  });
}

/** Every object schema must say `additionalProperties: false`. */
export function additionalPropertiesFalseRule(meta: RuleMeta, consequence: string): ProfileRule {
  return nodeRule(meta, (schema) => {
    if (!isObjectSchema(schema)) return [];
    if (schema.additionalProperties === false) return [];
    if (!Object.hasOwn(schema, 'additionalProperties')) {
      return [{ keyword: 'additionalProperties', message: `object schema without "additionalProperties": false; ${consequence}` }];
    }
    return [{ keyword: 'additionalProperties', message: `"additionalProperties" is ${JSON.stringify(schema.additionalProperties)}, not false; ${consequence}` }];
  });
}

/** Every key of `properties` must be listed in `required`. */
export function requiredAllRule(meta: RuleMeta, consequence: string): ProfileRule {
  return nodeRule(meta, (schema) => {
    if (!isPlainObject(schema.properties)) return [];
    const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : []);
    const missing = Object.keys(schema.properties).filter((key) => !required.has(key));
    if (missing.length === 0) return [];
    return [{ keyword: 'required', message: `"required" does not list ${missing.map((m) => JSON.stringify(m)).join(', ')}; ${consequence}` }];
  });
}

/** `items` must be one schema, not an array (tuple form). */
export function tupleItemsRule(meta: RuleMeta, consequence: string): ProfileRule {
  return nodeRule(meta, (schema) =>
    Array.isArray(schema.items) ? [{ keyword: 'items', message: `"items" is an array (tuple form); ${consequence}` }] : [],
  );
}

/** `format` must be one of `allowed` (optionally only where `type` names `string`). */
export function formatRule(meta: RuleMeta, allowed: readonly string[], consequence: string, onlyStrings = false): ProfileRule {
  return nodeRule(meta, (schema) => {
    if (!Object.hasOwn(schema, 'format')) return [];
    if (onlyStrings && !typesOf(schema).has('string')) return [];
    if (typeof schema.format === 'string' && allowed.includes(schema.format)) return [];
    return [{ keyword: 'format', message: `format ${JSON.stringify(schema.format)} is not one of ${allowed.join(', ')}; ${consequence}` }];
  });
}

/** `minItems` may only be 0 or 1. */
export function minItemsRule(meta: RuleMeta, consequence: string): ProfileRule {
  return nodeRule(meta, (schema) => {
    if (!Object.hasOwn(schema, 'minItems') || schema.minItems === 0 || schema.minItems === 1) return [];
    return [{ keyword: 'minItems', message: `"minItems" is ${JSON.stringify(schema.minItems)}; only 0 or 1 are supported; ${consequence}` }];
  });
}

/** `enum` values must pass `accept` (e.g. primitives only). */
export function enumValuesRule(meta: RuleMeta, accept: (value: unknown) => boolean, what: string, consequence: string): ProfileRule {
  return nodeRule(meta, (schema) => {
    if (!Array.isArray(schema.enum)) return [];
    const bad = schema.enum.filter((value) => !accept(value));
    if (bad.length === 0) return [];
    return [{ keyword: 'enum', message: `"enum" holds ${bad.length} value(s) that are not ${what} (first: ${JSON.stringify(bad[0])}); ${consequence}` }];
  });
}

/** True for JSON primitives (string, number, boolean, null). */
export function isPrimitive(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/** A `$ref` must be a same-document pointer (`#` or `#/...`). */
export function localRefRule(meta: RuleMeta, consequence: string): ProfileRule {
  return nodeRule(meta, (schema) => {
    if (!Object.hasOwn(schema, '$ref')) return [];
    const ref = schema.$ref;
    if (typeof ref === 'string' && (ref === '#' || ref.startsWith('#/'))) return [];
    return [{ keyword: '$ref', message: `"$ref" ${JSON.stringify(ref)} is not a local JSON Pointer reference; ${consequence}` }];
  });
}

/** A `$ref` may not have sibling keywords, except those `allowSibling` lets through. */
export function refSiblingsRule(meta: RuleMeta, allowSibling: (keyword: string) => boolean, consequence: string): ProfileRule {
  return nodeRule(meta, (schema) => {
    if (!Object.hasOwn(schema, '$ref')) return [];
    const siblings = Object.keys(schema).filter((key) => key !== '$ref' && !allowSibling(key));
    return siblings.map((keyword) => ({ keyword, message: `sibling of "$ref"; ${consequence}` }));
  });
}

/** No recursion: no `$ref` may lead back to a schema that contains it. */
export function recursionRule(meta: RuleMeta, consequence: string): ProfileRule {
  return documentRule(meta, (_root, context) =>
    context.recursiveRefs().map((node) => ({
      pointer: node.pointer,
      keyword: '$ref',
      message: `"$ref" ${JSON.stringify(objectOf(node)?.$ref)} makes the schema recursive; ${consequence}`,
    })),
  );
}

/**
 * Regex features a constrained-decoding engine may not take: backreferences (`\1`, `\k<name>`),
 * lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`) and word boundaries (`\b`, `\B` outside a class).
 * Returns the features found, by name.
 */
export function unsupportedRegexFeatures(pattern: string): string[] {
  const found = new Set<string>();
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (!inClass && /[1-9]/.test(next)) found.add('backreference');
      if (!inClass && next === 'k' && pattern[i + 2] === '<') found.add('backreference');
      if (!inClass && (next === 'b' || next === 'B')) found.add('word boundary');
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(' && pattern[i + 1] === '?') {
      const rest = pattern.slice(i + 2, i + 4);
      if (rest.startsWith('=') || rest.startsWith('!') || rest === '<=' || rest === '<!') found.add('lookaround');
    }
  }
  return [...found];
}

/** Counts used by the size-limit rules, over every walked subschema. */
export interface SchemaSizes {
  properties: number;
  enumValues: number;
  /** Characters of property names, definition names, enum string values and const string values. */
  stringChars: number;
  /** Deepest count of object schemas on one path (root object = 1), and where it is first reached. */
  objectDepth: number;
  deepest: SchemaNode | undefined;
  /** Properties not listed in `required`. */
  optionalProperties: number;
  /** Subschemas with `anyOf` or a multi-entry `type` array. */
  unions: number;
}

const sizeCache = new WeakMap<LintContext, SchemaSizes>();

/** Measures a document once per lint context (see {@link SchemaSizes}). */
export function schemaSizes(context: LintContext): SchemaSizes {
  const cached = sizeCache.get(context);
  if (cached !== undefined) return cached;
  const nodes = context.index.nodes;
  const depth = new Uint32Array(nodes.length);
  const sizes: SchemaSizes = { properties: 0, enumValues: 0, stringChars: 0, objectDepth: 0, deepest: undefined, optionalProperties: 0, unions: 0 };
  for (const node of nodes) {
    const schema = objectOf(node);
    const parentDepth = node.parent === null ? 0 : (depth[node.parent.index] ?? 0);
    const here = parentDepth + (schema !== undefined && isObjectSchema(schema) ? 1 : 0);
    depth[node.index] = here;
    if (here > sizes.objectDepth) {
      sizes.objectDepth = here;
      sizes.deepest = node;
    }
    if (schema === undefined) continue;
    if (isPlainObject(schema.properties)) {
      const keys = Object.keys(schema.properties);
      sizes.properties += keys.length;
      for (const key of keys) sizes.stringChars += key.length;
      const required = new Set(Array.isArray(schema.required) ? schema.required : []);
      sizes.optionalProperties += keys.filter((key) => !required.has(key)).length;
    }
    for (const defs of ['$defs', 'definitions'] as const) {
      if (isPlainObject(schema[defs])) for (const key of Object.keys(schema[defs])) sizes.stringChars += key.length;
    }
    if (Array.isArray(schema.enum)) {
      sizes.enumValues += schema.enum.length;
      for (const value of schema.enum) if (typeof value === 'string') sizes.stringChars += value.length;
    }
    if (typeof schema.const === 'string') sizes.stringChars += schema.const.length;
    if (Array.isArray(schema.anyOf) || (Array.isArray(schema.type) && schema.type.length > 1)) sizes.unions++;
  }
  sizeCache.set(context, sizes);
  return sizes;
}

/** A document-level limit on one of {@link SchemaSizes}. */
export function sizeLimitRule(
  meta: RuleMeta,
  measure: keyof Pick<SchemaSizes, 'properties' | 'enumValues' | 'stringChars' | 'objectDepth' | 'optionalProperties' | 'unions'>,
  limit: number,
  what: string,
  keyword: string,
): ProfileRule {
  return documentRule(meta, (_root, context) => {
    const sizes = schemaSizes(context);
    const value = sizes[measure];
    if (value <= limit) return [];
    const hit: RuleHit = { keyword, message: `${value} ${what} exceeds the limit of ${limit}` };
    if (measure === 'objectDepth' && sizes.deepest !== undefined) hit.pointer = sizes.deepest.pointer;
    return [hit];
  });
}
