/**
 * The rules engine of the schema lint: turns the provider profiles of ./profileData.ts (data: one
 * table per profile, each rule a `check` kind with its parameters and words) into
 * {@link Profile}s whose rules run. Each rule kind is one entry of {@link CHECKS}; which provider
 * takes what, and why, lives only in the data.
 *
 * Profiles (see profileData.ts for each one's sources):
 * - `claude-code`: Claude Code `--json-schema` (Ajv draft-07 strict, then the StructuredOutput tool);
 * - `qwen-code`: Qwen Code `--json-schema` (Ajv strict, draft-07 or 2020-12);
 * - `codex`: Codex `--output-schema` (OpenAI strict rules, through Codex);
 * - `openai-strict`: OpenAI Structured Outputs, strict mode;
 * - `anthropic`: Anthropic structured outputs and strict tool use;
 * - `gemini`: Gemini `responseJsonSchema`;
 * - `gemini-response-schema`: Gemini's legacy `responseSchema` (OpenAPI 3.0 subset);
 * - `xgrammar`: vLLM structured outputs with the xgrammar backend;
 * - `portable`: the strictest shared subset.
 */
import { ajvKnownKeywords } from '#src/schema/ajv.ts';
import { AJV_2020_URIS, PROFILE_SPECS, type ProfileSpec, type RuleSpec } from '#src/schema/profileData.ts';
import {
  additionalPropertiesFalseRule,
  documentRule,
  enumValuesRule,
  formatRule,
  isPrimitive,
  keywordRule,
  listedKeywordsRule,
  localRefRule,
  minItemsRule,
  nodeRule,
  objectOf,
  recursionRule,
  refSiblingsRule,
  requiredAllRule,
  rootKeywordsRule,
  rootObjectRule,
  schemaUriRule,
  sizeLimitRule,
  tupleItemsRule,
  typesOf,
  unsupportedRegexFeatures,
  type RuleMeta,
} from '#src/schema/rules.ts';
import type { LintContext, Profile, ProfileRule, RuleHit } from '#src/schema/types.ts';
import { getVocabulary, type DraftId } from '#src/schema/vocabularies.ts';
import type { SchemaNode } from '#src/schema/walk.ts';

/** Is `keyword` defined by `draft` (its meta-schema vocabulary)? */
function inDraft(keyword: string, draft: DraftId): boolean {
  return getVocabulary(draft).keywords.has(keyword);
}

function kindIn(keyword: string, draft: DraftId): string | undefined {
  return getVocabulary(draft).keywords.get(keyword)?.kind;
}

/** `template` with each `{name}` of `values` replaced (other braces stay). */
function fill(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? values[name]! : whole));
}

/**
 * Unknown-keyword rule for CLIs that compile the schema with Ajv in strict mode. A keyword under a
 * definition nothing references is only a warning: Ajv never compiles that definition (Ajv 8.20.0
 * probe: `{"definitions": {"x": {"_meta": 1}}}` compiles).
 */
function ajvUnknownKeywordRule(meta: RuleMeta, draftFor: (context: LintContext) => DraftId, cli: string): ProfileRule {
  return keywordRule(meta, (keyword, _schema, node: SchemaNode, context) => {
    const draft = draftFor(context);
    if (ajvKnownKeywords(draft).has(keyword)) return undefined;
    const ajvText = keyword === 'id' ? 'NOT SUPPORTED: keyword "id", use "$id" for schema ID' : `strict mode: unknown keyword: "${keyword}"`;
    if (context.unreferenced().has(node)) {
      return {
        keyword,
        severity: 'warning',
        message: `unknown keyword inside a definition nothing references; ${cli}'s Ajv does not compile it today, but refuses the schema (${ajvText}) as soon as it is referenced`,
      };
    }
    return `unknown keyword; ${cli} validates the schema with Ajv (${draft}, strict mode) and refuses it at startup (${ajvText})`;
  });
}

/** Qwen Code's Ajv class: Ajv2020 for a 2020-12 `$schema`, else draft-07. */
function qwenDraft(context: LintContext): DraftId {
  return context.schemaUri !== undefined && AJV_2020_URIS.includes(context.schemaUri) ? '2020-12' : 'draft-07';
}

/** Gemini rule: a required-only path from a $ref back to its target (direct recursion only). */
function requiredOnlyCycle(ref: SchemaNode, target: SchemaNode): boolean {
  let propertyHops = 0;
  for (let at: SchemaNode | null = ref; at !== null && at !== target; at = at.parent) {
    if (at.parent === null) return false; // target is not an ancestor: not a direct cycle
    if (at.parentKeyword === 'properties') {
      const holder = objectOf(at.parent);
      const required = holder !== undefined && Array.isArray(holder.required) ? holder.required : [];
      if (!required.includes(at.key)) return false;
      propertyHops++;
    }
  }
  return propertyHops > 0;
}

/** vLLM treats a propertyNames subschema as a string schema even without "type". */
function stringTyped(schema: Readonly<Record<string, unknown>>, node: SchemaNode): boolean {
  if (typesOf(schema).has('string')) return true;
  if (node.parentKeyword !== 'propertyNames' || node.parent === null) return false;
  const holder = objectOf(node.parent);
  return holder !== undefined && typesOf(holder).has('object');
}

/** Keywords outside the portable subset that are harmless to validation but unverified on the wire. */
function portableWarningReason(keyword: string, context: LintContext): string | undefined {
  if (keyword === 'definitions') return 'OpenAI and Gemini document "$defs" only; use "$defs" (inferred)';
  const kind = kindIn(keyword, context.draft) ?? kindIn(keyword, '2020-12');
  if (kind === 'annotation' || keyword === '$id' || keyword === '$comment') {
    return 'annotation outside the portable subset; acceptance unverified by OpenAI and Anthropic, strip it before transport';
  }
  return undefined;
}

const ENUM_ACCEPT: Readonly<Record<Extract<RuleSpec, { check: 'enum-values' }>['accept'], (value: unknown) => boolean>> = {
  primitive: isPrimitive,
  'string-or-number': (value) => typeof value === 'string' || typeof value === 'number',
  string: (value) => typeof value === 'string',
};

type Spec<K extends RuleSpec['check']> = Extract<RuleSpec, { check: K }>;

/** One builder per rule kind: the code behind each `check` named in the data. */
const CHECKS: { readonly [K in RuleSpec['check']]: (spec: Spec<K>) => ProfileRule } = {
  'schema-uri': (s) => schemaUriRule(s, s.accepted, (uri) => fill(s.refusal, { uri: JSON.stringify(uri) })),
  'ajv-unknown-keyword': (s) => ajvUnknownKeywordRule(s, s.draft === 'draft-07' ? () => 'draft-07' : qwenDraft, s.cli),
  'if-without-branches': (s) =>
    nodeRule(s, (schema) =>
      Object.hasOwn(schema, 'if') && !Object.hasOwn(schema, 'then') && !Object.hasOwn(schema, 'else')
        ? [{ keyword: 'if', message: `"if" without "then" or "else"; ${s.cli}'s Ajv strict mode refuses it: strict mode: "if" without "then" and "else" is ignored` }]
        : [],
    ),
  'root-keywords': (s) => rootKeywordsRule(s, s.keywords, s.consequence),
  'root-has-type': (s) =>
    documentRule(s, (root) => {
      const schema = objectOf(root);
      if (schema !== undefined && Object.hasOwn(schema, 'type')) return [];
      return [{ keyword: schema === undefined ? '' : 'type', message: s.message }];
    }),
  'root-type-not-object': (s) =>
    documentRule(s, (root) => {
      const schema = objectOf(root);
      if (schema === undefined || schema.type === undefined || schema.type === 'object') return [];
      return [{ keyword: 'type', message: fill(s.message, { type: JSON.stringify(schema.type) }) }];
    }),
  'root-object': (s) => rootObjectRule(s, s.consequence),
  'additional-properties-false': (s) => additionalPropertiesFalseRule(s, s.consequence),
  'required-all': (s) => requiredAllRule(s, s.consequence),
  'listed-keywords': (s) => listedKeywordsRule(s, s.keywords, s.verb),
  'unlisted-keyword': (s) => {
    const allowed = new Set(s.allowed);
    const evidence = s.evidence ?? {};
    return keywordRule(s, (keyword) => {
      if (allowed.has(keyword)) return undefined;
      return Object.hasOwn(evidence, keyword) ? `${s.message} (${evidence[keyword]})` : s.message;
    });
  },
  'tuple-items': (s) => tupleItemsRule(s, s.consequence),
  'array-items': (s) =>
    nodeRule(s, (schema) => (typesOf(schema).has('array') && !Object.hasOwn(schema, 'items') ? [{ keyword: 'type', message: s.message }] : [])),
  format: (s) => formatRule(s, s.allowed, s.consequence, s.onlyStrings ?? false),
  'format-by-type': (s) =>
    nodeRule(s, (schema) => {
      if (!Object.hasOwn(schema, 'format')) return [];
      const types = [...typesOf(schema)].map((t) => t.toLowerCase());
      const allowed = types.flatMap((t) => (Object.hasOwn(s.allowed, t) ? s.allowed[t]! : []));
      if (typeof schema.format === 'string' && allowed.includes(schema.format)) return [];
      const shown = allowed.length > 0 ? `not one of ${allowed.join(', ')}` : `not documented for type ${JSON.stringify(schema.type)}`;
      return [{ keyword: 'format', message: `format ${JSON.stringify(schema.format)} is ${shown}; ${s.consequence}` }];
    }),
  'size-limit': (s) => sizeLimitRule(s, s.measure, s.limit, s.what, s.keyword),
  'min-items': (s) => minItemsRule(s, s.consequence),
  'enum-values': (s) => enumValuesRule(s, ENUM_ACCEPT[s.accept], s.what, s.consequence),
  'allof-with-ref': (s) =>
    nodeRule(s, (schema) => {
      if (!Array.isArray(schema.allOf)) return [];
      const refInside = schema.allOf.some((branch) => typeof branch === 'object' && branch !== null && Object.hasOwn(branch, '$ref'));
      return refInside || Object.hasOwn(schema, '$ref') ? [{ keyword: 'allOf', message: `"allOf" combined with "$ref"; ${s.consequence}` }] : [];
    }),
  'local-ref': (s) => localRefRule(s, s.consequence),
  recursion: (s) => recursionRule(s, s.consequence),
  'pattern-subset': (s) =>
    nodeRule(s, (schema) => {
      if (typeof schema.pattern !== 'string') return [];
      const features = unsupportedRegexFeatures(schema.pattern);
      return features.length === 0 ? [] : [{ keyword: 'pattern', message: `pattern uses ${features.join(', ')}; ${s.consequence}` }];
    }),
  'ignored-keyword': (s) => {
    const honoured = new Set(s.honoured);
    return keywordRule(s, (keyword, _schema, _node, context) => {
      if (honoured.has(keyword)) return undefined;
      const kind = kindIn(keyword, context.draft);
      return kind === 'validation' || kind === 'applicator' ? s.message : undefined;
    });
  },
  'not-in-draft': (s) => {
    const also = new Set(s.also);
    return keywordRule(s, (keyword, _schema, _node, context) =>
      also.has(keyword) || inDraft(keyword, context.draft) ? undefined : fill(s.message, { draft: context.draft }),
    );
  },
  'ref-siblings': (s) => refSiblingsRule(s, s.allow === 'dollar-prefixed' ? (keyword) => keyword.startsWith('$') : () => false, s.consequence),
  'recursion-through-required': (s) =>
    documentRule(s, (_root, context) => {
      const hits: RuleHit[] = [];
      for (const node of context.recursiveRefs()) {
        const target = context.index.refTarget(node);
        if (target !== undefined && requiredOnlyCycle(node, target)) hits.push({ pointer: node.pointer, keyword: '$ref', message: s.message });
      }
      return hits;
    }),
  'keywords-on-type': (s) =>
    nodeRule(s, (schema) => {
      const types = typesOf(schema);
      if (!s.types.some((t) => types.has(t))) return [];
      return s.keywords.filter((keyword) => Object.hasOwn(schema, keyword)).map((keyword) => ({ keyword, message: s.message }));
    }),
  'length-with-pattern': (s) =>
    nodeRule(s, (schema, node) => {
      if (!stringTyped(schema, node)) return [];
      if (!Object.hasOwn(schema, 'pattern') && !Object.hasOwn(schema, 'format')) return [];
      return ['minLength', 'maxLength'].filter((keyword) => Object.hasOwn(schema, keyword)).map((keyword) => ({ keyword, message: s.message }));
    }),
  'property-names-conflict': (s) =>
    nodeRule(s, (schema) => {
      if (!typesOf(schema).has('object') || !Object.hasOwn(schema, 'propertyNames')) return [];
      const ap = schema.additionalProperties;
      const conflict =
        Object.hasOwn(schema, 'properties') ||
        Object.hasOwn(schema, 'patternProperties') ||
        (typeof ap === 'object' && ap !== null && !Array.isArray(ap)) ||
        (Object.hasOwn(schema, 'unevaluatedProperties') && schema.unevaluatedProperties !== true);
      return conflict ? [{ keyword: 'propertyNames', message: s.message }] : [];
    }),
  'pattern-properties-limits': (s) =>
    nodeRule(s, (schema) => {
      const pp = schema.patternProperties;
      if (!typesOf(schema).has('object') || typeof pp !== 'object' || pp === null || Array.isArray(pp)) return [];
      return Object.hasOwn(schema, 'properties') || Object.keys(pp).length > 1 ? [{ keyword: 'patternProperties', message: s.message }] : [];
    }),
  'outside-subset': (s) => {
    const allowed = new Set(s.allowed);
    return keywordRule(s, (keyword, _schema, _node, context) => {
      if (allowed.has(keyword)) return undefined;
      if (Object.hasOwn(s.excluded, keyword)) return `${s.prefix}: ${s.excluded[keyword]}`;
      if (portableWarningReason(keyword, context) !== undefined) return undefined;
      if (!inDraft(keyword, context.draft) && !inDraft(keyword, '2020-12')) {
        return `${s.prefix}: not a JSON Schema keyword; Claude Code's Ajv rejects unknown keywords (observed for _meta, x-meta)`;
      }
      return `${s.prefix}: not in every provider's subset`;
    });
  },
  'annotation-outside-subset': (s) => {
    const allowed = new Set(s.allowed);
    return keywordRule(s, (keyword, _schema, _node, context) =>
      allowed.has(keyword) || Object.hasOwn(s.excluded, keyword) ? undefined : portableWarningReason(keyword, context),
    );
  },
  'type-null-union': (s) =>
    nodeRule(s, (schema) => {
      const type = schema.type;
      if (!Array.isArray(type)) return [];
      if (type.length === 2 && type.includes('null') && type.some((t) => t !== 'null')) return [];
      return [{ keyword: 'type', message: `type array ${JSON.stringify(type)} is not ["T", "null"]; ${s.consequence}` }];
    }),
  'subschema-type': (s) => {
    const positions = new Set(s.positions);
    return nodeRule(s, (schema, node) => {
      if (!positions.has(node.parentKeyword ?? '')) return [];
      if (Object.hasOwn(schema, 'type') || s.unless.some((keyword) => Object.hasOwn(schema, keyword))) return [];
      return [{ keyword: '', message: s.message }];
    });
  },
  'single-type': (s) => {
    const names = new Set(s.types);
    return nodeRule(s, (schema) => {
      if (!Object.hasOwn(schema, 'type')) return [];
      const type = schema.type;
      if (typeof type === 'string' && names.has(type.toLowerCase())) return [];
      return [{ keyword: 'type', message: `"type" is ${JSON.stringify(type)}; ${s.message}` }];
    });
  },
};

/** The rule a spec describes, its words filled with `vars`. */
function buildRule(spec: RuleSpec, vars: Readonly<Record<string, string>>): ProfileRule {
  const filled = Object.fromEntries(
    Object.entries(spec).map(([key, value]) => [key, typeof value === 'string' ? value.replace(/\{\{(\w+)\}\}/g, (_, name: string) => vars[name] ?? '') : value]),
  ) as RuleSpec;
  const build = CHECKS[filled.check] as (s: RuleSpec) => ProfileRule;
  return build(filled);
}

/**
 * Builds a profile from its data; `rulesOf` reads another spec's table with this spec's `vars`.
 *
 * @throws {Error} when `rulesOf` names no spec, or a spec has no rules (a bug in profileData.ts).
 */
function buildProfile(spec: ProfileSpec, specs: readonly ProfileSpec[]): Profile {
  const table = spec.rulesOf === undefined ? spec.rules : specs.find((other) => other.name === spec.rulesOf)?.rules;
  if (table === undefined) throw new Error(`[routecert] profile ${spec.name} has no rules (rulesOf: ${spec.rulesOf ?? 'none'})`);
  const vars = spec.vars ?? {};
  return { name: spec.name, title: spec.title, source: spec.source, ...(spec.dialect ? { dialect: spec.dialect } : {}), rules: table.map((rule) => buildRule(rule, vars)) };
}

/** Every profile, in the order reports list them. */
export const PROFILES: readonly Profile[] = PROFILE_SPECS.map((spec) => buildProfile(spec, PROFILE_SPECS));

/** The profile names, in {@link PROFILES} order. */
export const PROFILE_NAMES: readonly string[] = PROFILES.map((profile) => profile.name);

/**
 * Thrown for a profile name routecert does not know; the message lists the valid ones.
 * `code` is `ROUTECERT_UNKNOWN_PROFILE`.
 */
export class UnknownProfileError extends Error {
  readonly code = 'ROUTECERT_UNKNOWN_PROFILE';
  readonly profile: string;
  constructor(profile: string) {
    super(`[routecert] unknown profile "${profile}". Valid profiles: ${PROFILE_NAMES.join(', ')}`);
    this.name = 'UnknownProfileError';
    this.profile = profile;
  }
}

/**
 * The profile with that name.
 *
 * @throws {UnknownProfileError} for an unknown name.
 * @example
 * getProfile('claude-code').rules.map((r) => r.id);
 */
export function getProfile(name: string): Profile {
  const profile = PROFILES.find((each) => each.name === name);
  if (profile === undefined) throw new UnknownProfileError(name);
  return profile;
}
