/**
 * Provider profiles as data: what each way of sending a schema accepts, one table per profile.
 * Nothing here runs: every rule names a `check` (a rule kind that src/schema/profiles.ts turns into
 * code), its parameters, and the words a finding prints. Every rule names its source; rules drawn
 * from inference rather than a document, a measurement or an observation say "inferred" in it.
 *
 * The research behind them is research/schema-vocabularies.md (§2 OpenAI, §3 Anthropic and Claude
 * Code, §4 Gemini, §5.3 vLLM/xgrammar, §8 conclusion table and portable subset) and
 * research/cli-envelopes.md (§2 Claude Code 2.1.332, §3 Codex 0.171.0, §5 Qwen Code 0.24.4).
 *
 * Templates: `{{name}}` is a profile variable (`vars`), filled when the profile is built, so two
 * profiles can share one table (`codex` reads `openai-strict`'s rules with its own words);
 * `{uri}`, `{type}`, `{draft}` are filled per finding (see each check in profiles.ts).
 *
 * Adding a rule is one entry; adding a rule kind is one entry in profiles.ts's `CHECKS`.
 */
import type { Severity } from '#src/schema/types.ts';

const SV = 'research/schema-vocabularies.md';
const CE = 'research/cli-envelopes.md';

/** Words every rule carries (see `ProfileRule` in types.ts). */
export interface RuleText {
  id: string;
  description: string;
  source: string;
  hint: string;
  /** Defaults to `error`. */
  severity?: Severity;
}

/** The measures a `size-limit` rule may bound (see `SchemaSizes` in rules.ts). */
export type SizeMeasure = 'properties' | 'enumValues' | 'stringChars' | 'objectDepth' | 'optionalProperties' | 'unions';

/**
 * One rule of a profile, by kind. `consequence`/`message` are the provider's answer in words;
 * keyword tables map each keyword to its evidence.
 */
export type RuleSpec = RuleText &
  (
    | { check: 'schema-uri'; accepted: readonly string[]; /** `{uri}`: the declared `$schema`, JSON-quoted. */ refusal: string }
    | { check: 'ajv-unknown-keyword'; cli: string; /** `draft-07`, or Ajv2020 for a 2020-12 `$schema` (Qwen Code). */ draft: 'draft-07' | 'draft-07-or-2020-12' }
    | { check: 'if-without-branches'; cli: string }
    | { check: 'root-keywords'; keywords: readonly string[]; consequence: string }
    | { check: 'root-has-type'; message: string }
    | { check: 'root-type-not-object'; /** `{type}`: the root's `type`, as JSON. */ message: string }
    | { check: 'root-object'; consequence: string }
    | { check: 'additional-properties-false'; consequence: string }
    | { check: 'required-all'; consequence: string }
    | { check: 'listed-keywords'; keywords: Readonly<Record<string, string>>; verb: string }
    | { check: 'unlisted-keyword'; allowed: readonly string[]; message: string; /** Extra evidence for some keywords, appended in parentheses. */ evidence?: Readonly<Record<string, string>> }
    | { check: 'tuple-items'; consequence: string }
    | { check: 'array-items'; message: string }
    | { check: 'format'; allowed: readonly string[]; consequence: string; onlyStrings?: boolean }
    | { check: 'format-by-type'; allowed: Readonly<Record<string, readonly string[]>>; consequence: string }
    | { check: 'size-limit'; measure: SizeMeasure; limit: number; what: string; keyword: string }
    | { check: 'min-items'; consequence: string }
    | { check: 'enum-values'; accept: 'primitive' | 'string-or-number' | 'string'; what: string; consequence: string }
    | { check: 'allof-with-ref'; consequence: string }
    | { check: 'local-ref'; consequence: string }
    | { check: 'recursion'; consequence: string }
    | { check: 'pattern-subset'; consequence: string }
    | { check: 'ignored-keyword'; honoured: readonly string[]; message: string }
    | { check: 'not-in-draft'; also: readonly string[]; /** `{draft}`: the declared draft. */ message: string }
    | { check: 'ref-siblings'; allow: 'dollar-prefixed' | 'none'; consequence: string }
    | { check: 'recursion-through-required'; message: string }
    | { check: 'keywords-on-type'; types: readonly string[]; keywords: readonly string[]; message: string }
    | { check: 'length-with-pattern'; message: string }
    | { check: 'property-names-conflict'; message: string }
    | { check: 'pattern-properties-limits'; message: string }
    | { check: 'outside-subset'; allowed: readonly string[]; excluded: Readonly<Record<string, string>>; prefix: string }
    | { check: 'annotation-outside-subset'; allowed: readonly string[]; excluded: Readonly<Record<string, string>> }
    | { check: 'type-null-union'; consequence: string }
    | {
        check: 'subschema-type';
        /** Where a subschema must carry `type`: the keyword that holds it (`properties`, `items`, ...). */
        positions: readonly string[];
        /** Keywords that stand in for `type` (`anyOf`, `$ref`). */
        unless: readonly string[];
        message: string;
      }
    | { check: 'single-type'; /** Type names, compared case-insensitively. */ types: readonly string[]; message: string }
  );

/**
 * A profile: `rules`, or `rulesOf` another profile's table read with this profile's `vars`.
 * `vars` fill `{{name}}` in every string of the rules.
 */
export interface ProfileSpec {
  name: string;
  title: string;
  source: string;
  /** The schema language the consumer reads when it is not JSON Schema (`openapi-3.0`: Gemini's legacy Schema message). */
  dialect?: 'openapi-3.0';
  vars?: Readonly<Record<string, string>>;
  rules?: readonly RuleSpec[];
  rulesOf?: string;
}

/** The `$schema` spellings Ajv's default (draft-07) class resolves: its meta-schema `$id`, with or without `#`. */
export const AJV_DRAFT07_URIS = ['http://json-schema.org/draft-07/schema#', 'http://json-schema.org/draft-07/schema'];
/** The spellings Ajv2020 resolves. */
export const AJV_2020_URIS = ['https://json-schema.org/draft/2020-12/schema', 'https://json-schema.org/draft/2020-12/schema#'];

// ---------------------------------------------------------------------------------------------
// claude-code

const claudeCode: ProfileSpec = {
  name: 'claude-code',
  title: 'Claude Code --json-schema (2.1.332): Ajv default (draft-07) class, strict mode, then the StructuredOutput tool input_schema',
  source: `${SV} §3.5 and §8; ${CE} §2 (Claude Code 2.1.332, observed); DESIGN.md "Observed by hand"`,
  rules: [
    {
      id: 'schema-uri',
      check: 'schema-uri',
      description: 'Only no $schema or the draft-07 URI (http, as Ajv spells its $id) is accepted; 2020-12, 2019-09, draft-06 and the https spelling of draft-07 are refused at startup.',
      source: `${SV} §3.5 (anthropics/claude-code#80402, sendbird/cc-plugin-codex#73; Claude Code >= 2.1.205); the spelling without "#" is accepted by Ajv 8.20.0 (probe; inferred for the CLI)`,
      hint: 'Drop "$schema" or set it to "http://json-schema.org/draft-07/schema#", and keep to draft-07 keywords.',
      accepted: AJV_DRAFT07_URIS,
      refusal: "$schema {uri} is refused: Claude Code compiles --json-schema with Ajv's default (draft-07) class, which answers: no schema with key or ref {uri}",
    },
    {
      id: 'unknown-keyword',
      check: 'ajv-unknown-keyword',
      description: "Any keyword Ajv's draft-07 class does not know (`_meta`, `x-*`, 2019-09/2020-12 keywords such as prefixItems, $anchor, dependentRequired) makes the CLI exit 1 before any request.",
      source: `Observed for _meta and x-meta (Claude Code 2.1.211, research/ce-plugin.md §4; DESIGN.md); known set = Ajv 8.20.0 draft-07 RULES.keywords (other keywords inferred, ${SV} §3.5)`,
      hint: 'Remove the keyword (move its content into "description" or out of the transported schema), or use its draft-07 equivalent.',
      cli: 'Claude Code',
      draft: 'draft-07',
    },
    {
      id: 'if-without-branches',
      check: 'if-without-branches',
      description: '"if" without "then"/"else" is a strict-mode error in Ajv.',
      source: `${SV} §1.4 (Ajv 8.20.0 probe) and §3.5 (inferred for the CLI)`,
      hint: 'Add "then" and/or "else", or remove "if".',
      cli: 'Claude Code',
    },
    {
      id: 'root-union',
      check: 'root-keywords',
      description: 'The schema becomes a tool input_schema; the Anthropic API refuses oneOf/anyOf/allOf at its top level (HTTP 400), even next to type "object".',
      source: `${SV} §3.5 (probe recorded in a public design note: "input_schema does not support oneOf, allOf, or anyOf at the top level")`,
      hint: 'Put the union under a property of a root object.',
      keywords: ['anyOf', 'oneOf', 'allOf'],
      consequence: 'the API answers 400 "input_schema does not support oneOf, allOf, or anyOf at the top level"',
    },
    {
      id: 'root-type',
      check: 'root-has-type',
      description: 'A root without "type" (e.g. a bare root $ref) is refused by the API: tools.N.custom.input_schema.type: Field required.',
      source: `${SV} §3.5 (probe recorded in a public design note)`,
      hint: 'Give the root "type": "object".',
      message: 'the root has no "type"; the API answers 400 "tools.N.custom.input_schema.type: Field required"',
    },
    {
      id: 'root-object',
      check: 'root-type-not-object',
      description: 'A non-object root passes the CLI and is sent verbatim as the tool input_schema; the API most likely refuses it.',
      source: `${CE} §2 (observed: CLI accepts a non-object root; API refusal inferred)`,
      severity: 'warning',
      hint: 'Wrap the value in a root object property.',
      message: 'the root type is {type}; Claude Code sends it verbatim as a tool input_schema, which must be an object (inferred)',
    },
  ],
};

// ---------------------------------------------------------------------------------------------
// qwen-code

const QWEN_SOURCE =
  'QwenLM/qwen-code packages/core/src/utils/schemaValidator.ts SchemaValidator.compileStrict (strictSchema: true, validateFormats: false, allowUnionTypes: true; draft-07 Ajv unless $schema is 2020-12), stored snapshot; that 0.24.4 ships it is inferred';

const qwenCode: ProfileSpec = {
  name: 'qwen-code',
  title: 'Qwen Code --json-schema (0.24.4): Ajv strict, draft-07 (or Ajv2020 for a 2020-12 $schema), then the structured_output function tool',
  source: `${QWEN_SOURCE}; ${CE} §5 (startup refusal exits 52, observed)`,
  rules: [
    {
      id: 'schema-uri',
      check: 'schema-uri',
      description: 'No $schema, draft-07, or 2020-12 (with or without "#"); any other $schema falls through to the draft-07 Ajv class, which does not know that meta-schema.',
      source: `${QWEN_SOURCE}; refusal of other URIs: Ajv 8.20.0 probe (inferred for the CLI)`,
      hint: 'Drop "$schema", or use "http://json-schema.org/draft-07/schema#" or "https://json-schema.org/draft/2020-12/schema".',
      accepted: [...AJV_DRAFT07_URIS, ...AJV_2020_URIS],
      refusal: "$schema {uri} is refused: Qwen Code compiles it with Ajv's draft-07 class, which answers: no schema with key or ref {uri}",
    },
    {
      id: 'unknown-keyword',
      check: 'ajv-unknown-keyword',
      description: 'Ajv strictSchema: any keyword the chosen Ajv class does not know is refused at startup (exit 52).',
      source: `${QWEN_SOURCE}; known set = Ajv 8.20.0 RULES.keywords of that class`,
      hint: 'Remove the keyword or use one the declared draft defines.',
      cli: 'Qwen Code',
      draft: 'draft-07-or-2020-12',
    },
    {
      id: 'if-without-branches',
      check: 'if-without-branches',
      description: '"if" without "then"/"else" is a strictSchema error in Ajv.',
      source: `${QWEN_SOURCE}; Ajv behaviour: ${SV} §1.4 and §7.1`,
      hint: 'Add "then" and/or "else", or remove "if".',
      cli: 'Qwen Code',
    },
  ],
};

// ---------------------------------------------------------------------------------------------
// openai-strict and codex (one table, two profiles)

const OPENAI_DOC = 'https://developers.openai.com/api/docs/guides/structured-outputs';
/** The guide's "Supported schemas" section, as quoted (a copy read via the code index). */
const OPENAI_DOC_TYPES =
  `${OPENAI_DOC} "Supported schemas": "The following types are supported for Structured Outputs: String, Number, Boolean, Integer, Object, Array, Enum, anyOf" and "In addition to specifying the type of a property, you can specify a selection of additional constraints" (copy of the guide read at robobenjie/battlebuddy .cursor/rules/OpenAIDoc.md)`;
const OPENAI_FORMATS = ['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid'];

/** Documented as unsupported ("composition"): §2.4. */
const OPENAI_DOC_UNSUPPORTED: Readonly<Record<string, string>> = {
  allOf: 'docs; measured "\'allOf\' is not permitted"',
  not: 'docs; measured "Unsupported keywords (\'not\',)"',
  dependentRequired: 'docs',
  dependentSchemas: 'docs',
  if: 'docs; measured "\'if\' is not permitted"',
  then: 'docs',
  else: 'docs',
};

/** Measured rejections beyond the docs: §2.4/§2.6. */
const OPENAI_MEASURED: Readonly<Record<string, string>> = {
  oneOf: 'measured (United-Codes/uc_ai; root oneOf also refused through the Codex CLI); rewrite to anyOf',
  uniqueItems: 'measured "\'uniqueItems\' is not permitted" (1jehuang/jcode#687)',
  minProperties: 'measured "\'minProperties\' is not permitted" (United-Codes/uc_ai)',
  propertyNames: 'measured (vercel-labs/json-render#180)',
  contains: 'measured "\'contains\' is not permitted"',
};

/** Conflicting measurements: §2.3/§2.4. */
const OPENAI_CONFLICTING: Readonly<Record<string, string>> = {
  default: '400 "\'default\' is not permitted" in 2024-25 (dottxt-ai/outlines#1254), 200 in a 2026 measurement',
  examples: '200 in a 2026 measurement, earlier unknown',
  minLength: 'not in the documented list; "\'maxLength\' is not permitted" reported in 2025, 200 in 2026',
  maxLength: 'not in the documented list; "\'maxLength\' is not permitted" reported in 2025 (jina-ai/node-DeepResearch#79), 200 in 2026',
};

/** The documented supported subset (§2.3) plus keywords measured accepted ($schema, title, description). */
const OPENAI_SUPPORTED = [
  'type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf', '$defs', '$ref',
  'pattern', 'format', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'minItems', 'maxItems',
  'description', 'title', '$schema',
];

/**
 * The OpenAI strict-mode facts the provider mock (src/mock/openaiStrict.ts) enforces too, so the
 * lint profile and the mock that stands in for the service cannot drift apart.
 */
export const OPENAI_STRICT_FACTS = {
  /** Refused wherever they appear: the guide's list, then the measured ones. */
  refusedKeywords: [...Object.keys(OPENAI_DOC_UNSUPPORTED), ...Object.keys(OPENAI_MEASURED)],
  formats: OPENAI_FORMATS,
  /** Refused at the root even where they are fine deeper down. */
  rootRefused: ['anyOf', 'oneOf', 'allOf', 'enum', 'not'],
  /** The guide's newer copy: nesting levels, properties in total, enum values in total. */
  limits: { nestingLevels: 10, properties: 5000, enumValues: 1000 },
} as const;

const openAiStrict: ProfileSpec = {
  name: 'openai-strict',
  title: 'OpenAI Structured Outputs, strict mode (Responses text.format, Chat response_format, strict tools)',
  source: `${OPENAI_DOC}; ${SV} §2 and §8`,
  vars: { refused: 'OpenAI strict mode answers 400 invalid_json_schema', via: '' },
  rules: [
    {
      id: 'root-object',
      check: 'root-object',
      description: 'The root must be an object schema ("type": "object").',
      source: `${OPENAI_DOC} (${SV} §2.2); Codex CLI errors "schema must have a 'type' key", "schema must be a JSON Schema of 'type: \\"object\\"'" (${SV} §2.6){{via}}`,
      hint: 'Make the root { "type": "object", ... } and put other shapes under a property.',
      consequence: '{{refused}}',
    },
    {
      id: 'root-union',
      check: 'root-keywords',
      description: 'The root may not carry anyOf/oneOf/allOf/enum/not.',
      source: `${OPENAI_DOC} ("root must not be anyOf"); Codex-observed error "must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level" (${SV} §2.6){{via}}`,
      hint: 'Move the union under a property of a root object.',
      keywords: OPENAI_STRICT_FACTS.rootRefused,
      consequence: '{{refused}}',
    },
    {
      id: 'property-type',
      check: 'subschema-type',
      description: 'Every property, array item, anyOf branch and definition names its "type"; only an anyOf or a $ref stands in for it.',
      source: `${OPENAI_DOC_TYPES}; measured through Codex 0.154.0: HTTP 400 invalid_json_schema "In context=('properties', 'ok'), schema must have a 'type' key." for a const-only property (public probe report, 2026-09-19){{via}}`,
      hint: 'Give the subschema a "type" (["T", "null"] for an optional value); for "any value" list the types it may take.',
      positions: ['properties', 'items', 'anyOf', '$defs', 'definitions'],
      unless: ['anyOf', '$ref'],
      message: 'subschema without "type"; {{refused}} ("schema must have a \'type\' key")',
    },
    {
      id: 'additional-properties-false',
      check: 'additional-properties-false',
      description: 'Every object schema must set "additionalProperties": false.',
      source: `${OPENAI_DOC} (${SV} §2.2); error "'additionalProperties' is required to be supplied and to be false" (${SV} §2.6){{via}}`,
      hint: 'Add "additionalProperties": false to this object.',
      consequence: '{{refused}}',
    },
    {
      id: 'required-all',
      check: 'required-all',
      description: 'Every key of "properties" must be listed in "required"; optional fields are ["T", "null"] unions.',
      source: `${OPENAI_DOC} (${SV} §2.2); error "'required' is required to be supplied and to be an array including every key in properties" (${SV} §2.6){{via}}`,
      hint: 'List every property in "required"; make an optional one nullable ("type": ["string", "null"]).',
      consequence: '{{refused}}',
    },
    {
      id: 'unsupported-keyword',
      check: 'listed-keywords',
      description: 'Keywords the OpenAI guide lists as unsupported: allOf, not, dependentRequired, dependentSchemas, if, then, else.',
      source: `${OPENAI_DOC} (${SV} §2.4){{via}}`,
      hint: 'Remove it; express the constraint with anyOf, enum or a description.',
      keywords: OPENAI_DOC_UNSUPPORTED,
      verb: 'not supported by OpenAI strict mode; {{refused}}',
    },
    {
      id: 'rejected-keyword',
      check: 'listed-keywords',
      description: 'Keywords measured to be refused: oneOf, uniqueItems, minProperties, propertyNames, contains.',
      source: `${SV} §2.4 and §2.6 (measured: United-Codes/uc_ai, 1jehuang/jcode#687, vercel-labs/json-render#180){{via}}`,
      hint: 'Remove it (oneOf: use anyOf); state the constraint in "description".',
      keywords: OPENAI_MEASURED,
      verb: 'refused by OpenAI strict mode; {{refused}}',
    },
    {
      id: 'disputed-keyword',
      check: 'listed-keywords',
      description: 'Keywords with conflicting measurements: default, examples, minLength, maxLength.',
      source: `${SV} §2.3, §2.4 and §8 (conflicting measurements){{via}}`,
      severity: 'warning',
      hint: 'Strip it before transport, or state the constraint in "description".',
      keywords: OPENAI_CONFLICTING,
      verb: 'acceptance by OpenAI strict mode is disputed',
    },
    {
      id: 'unlisted-keyword',
      check: 'unlisted-keyword',
      description: 'Keywords outside the documented subset and not measured either way (x-*, _meta, $comment, $id, patternProperties, prefixItems, ...).',
      source: `${SV} §2.3, §2.4 and §8 (inferred: not in the documented supported list; unverified){{via}}`,
      severity: 'warning',
      hint: 'Remove it from the transported schema unless a live call shows it is accepted.',
      allowed: [...OPENAI_SUPPORTED, ...Object.keys(OPENAI_DOC_UNSUPPORTED), ...Object.keys(OPENAI_MEASURED), ...Object.keys(OPENAI_CONFLICTING)],
      message: "not in OpenAI's documented strict-mode subset; acceptance unverified (inferred risky)",
    },
    {
      id: 'tuple-items',
      check: 'tuple-items',
      description: '"items" must be a single schema; the tuple (array) form is refused.',
      source: `${SV} §2.4 (measured "[...] is not of type 'object', 'boolean'"){{via}}`,
      hint: 'Use one "items" schema (an anyOf of the element shapes if needed).',
      consequence: '{{refused}}',
    },
    {
      id: 'array-items',
      check: 'array-items',
      description: 'An array schema must have "items".',
      source: `${SV} §2.6 (measured "array schema missing items", modelscope/ms-agent#610){{via}}`,
      hint: 'Add an "items" schema.',
      message: 'array schema without "items"; {{refused}} ("array schema missing items")',
    },
    {
      id: 'format',
      check: 'format',
      description: `Only these formats: ${OPENAI_FORMATS.join(', ')}.`,
      source: `${OPENAI_DOC} (${SV} §2.3); measured "'uri' is not a valid format" (${SV} §2.4){{via}}`,
      hint: 'Drop "format" (describe it in "description") or use a supported one.',
      allowed: OPENAI_STRICT_FACTS.formats,
      consequence: '{{refused}}',
    },
    {
      id: 'max-nesting',
      check: 'size-limit',
      description: 'At most 10 levels of nesting.',
      source: `${OPENAI_DOC}, newer copy (${SV} §2.5); counting one level per object schema on a path is inferred{{via}}`,
      hint: 'Flatten the schema.',
      measure: 'objectDepth',
      limit: OPENAI_STRICT_FACTS.limits.nestingLevels,
      what: 'levels of object nesting',
      keyword: '',
    },
    {
      id: 'max-properties',
      check: 'size-limit',
      description: 'At most 5,000 object properties in total.',
      source: `${OPENAI_DOC} (${SV} §2.5){{via}}`,
      hint: 'Split the schema.',
      measure: 'properties',
      limit: OPENAI_STRICT_FACTS.limits.properties,
      what: 'object properties in total',
      keyword: 'properties',
    },
    {
      id: 'max-enum-values',
      check: 'size-limit',
      description: 'At most 1,000 enum values across the schema.',
      source: `${OPENAI_DOC} (${SV} §2.5){{via}}`,
      hint: 'Shorten the enums.',
      measure: 'enumValues',
      limit: OPENAI_STRICT_FACTS.limits.enumValues,
      what: 'enum values in total',
      keyword: 'enum',
    },
    {
      id: 'max-string-length',
      check: 'size-limit',
      description: 'At most 120,000 characters of property names, definition names, enum values and const values.',
      source: `${OPENAI_DOC} (${SV} §2.5){{via}}`,
      hint: 'Shorten names and enum values.',
      measure: 'stringChars',
      limit: 120_000,
      what: 'characters of names, enum values and const values',
      keyword: '',
    },
  ],
};

const codex: ProfileSpec = {
  name: 'codex',
  title: 'Codex --output-schema (0.171.0): sent verbatim as OpenAI Responses text.format, strict: true',
  source: `${CE} §3 (observed); OpenAI strict rules: ${OPENAI_DOC}, ${SV} §2 and §8`,
  vars: {
    refused: 'Codex sends the schema verbatim to OpenAI strict mode, which answers 400 invalid_json_schema',
    via: `; Codex 0.171.0 passes --output-schema verbatim as Responses text.format strict (${CE} §3, observed)`,
  },
  rulesOf: 'openai-strict',
};

// ---------------------------------------------------------------------------------------------
// anthropic

const ANTHROPIC_DOC = 'https://platform.claude.com/docs/en/build-with-claude/structured-outputs';
const ANTHROPIC_FORMATS = ['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid'];
const ANTHROPIC_REFUSED = 'Anthropic strict mode answers 400';

const ANTHROPIC_DOC_UNSUPPORTED: Readonly<Record<string, string>> = {
  minimum: 'docs: numeric constraints; measured "For \'integer\' type, property \'minimum\' is not supported"',
  maximum: 'docs: numeric constraints',
  multipleOf: 'docs: numeric constraints',
  minLength: 'docs: string length (one 2026 measurement says accepted)',
  maxLength: 'docs: string length (one 2026 measurement says accepted)',
  maxItems: 'docs: array constraints beyond minItems 0/1; measured "For \'array\' type, property \'maxItems\' is not supported"',
  uniqueItems: 'docs: array constraints; measured "property \'uniqueItems\' is not supported"',
};

const ANTHROPIC_MEASURED: Readonly<Record<string, string>> = {
  exclusiveMinimum: 'measured',
  exclusiveMaximum: 'measured',
  not: 'measured "Schema keyword \'not\' is not supported"',
  contains: 'measured "For \'array\' type, property \'contains\' is not supported"',
  if: 'measured "For \'object\' type, property \'if\' is not supported"',
  propertyNames: 'measured "For \'object\' type, property \'propertyNames\' is not supported"',
  minProperties: 'measured "For \'object\' type, property \'minProperties\' is not supported"',
};

/** Documented supported keywords (§3.2) plus those measured accepted (title, $schema, examples). */
const ANTHROPIC_SUPPORTED = [
  'type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf', 'allOf', '$ref', '$defs',
  'definitions', 'default', 'format', 'minItems', 'pattern', 'description', 'title', '$schema', 'examples',
];

const anthropic: ProfileSpec = {
  name: 'anthropic',
  title: 'Anthropic structured outputs (output_config.format) and strict tool use',
  source: `${ANTHROPIC_DOC}; ${SV} §3.1-3.4 and §8`,
  rules: [
    {
      id: 'root-object',
      check: 'root-object',
      description: 'The root must be an object schema (tool input_schema).',
      source: `${ANTHROPIC_DOC}; ${SV} §8 ("root object (tools)") and §3.4 ("input_schema.type: Field required")`,
      hint: 'Make the root { "type": "object", ... }.',
      consequence: ANTHROPIC_REFUSED,
    },
    {
      id: 'root-union',
      check: 'root-keywords',
      description: 'No oneOf/anyOf/allOf at the top level.',
      source: `${SV} §3.4 (measured "input_schema does not support oneOf, allOf, or anyOf at the top level")`,
      hint: 'Put the union under a property of a root object.',
      keywords: ['anyOf', 'oneOf', 'allOf'],
      consequence: ANTHROPIC_REFUSED,
    },
    {
      id: 'additional-properties-false',
      check: 'additional-properties-false',
      description: 'Objects must set "additionalProperties": false.',
      source: `${ANTHROPIC_DOC} (${SV} §3.2); measured "'additionalProperties' must be explicitly set to false" (${SV} §3.4)`,
      hint: 'Add "additionalProperties": false to this object.',
      consequence: ANTHROPIC_REFUSED,
    },
    {
      id: 'unsupported-keyword',
      check: 'listed-keywords',
      description: 'Documented unsupported: minimum, maximum, multipleOf, minLength, maxLength, maxItems, uniqueItems.',
      source: `${ANTHROPIC_DOC} (${SV} §3.2); errors in ${SV} §3.4 (agentjido/req_llm#302, earendil-works/pi#9953, maximhq/bifrost#4691)`,
      hint: 'Remove it and state the constraint in "description" (the SDKs do the same).',
      keywords: ANTHROPIC_DOC_UNSUPPORTED,
      verb: `not supported by Anthropic strict mode; ${ANTHROPIC_REFUSED}`,
    },
    {
      id: 'rejected-keyword',
      check: 'listed-keywords',
      description: 'Measured refused: exclusiveMinimum, exclusiveMaximum, not, contains, if, propertyNames, minProperties.',
      source: `${SV} §3.2 and §3.4 (measured, United-Codes/uc_ai test/test_uc_ai_structured_output.pkb)`,
      hint: 'Remove it; state the constraint in "description".',
      keywords: ANTHROPIC_MEASURED,
      verb: `refused by Anthropic strict mode; ${ANTHROPIC_REFUSED}`,
    },
    {
      id: 'unlisted-keyword',
      check: 'unlisted-keyword',
      description: 'Keywords outside the documented subset and not measured (oneOf, then/else, patternProperties, prefixItems, x-*, $comment, ...).',
      source: `${SV} §3.2 and §8 (inferred: not listed; unverified)`,
      severity: 'warning',
      hint: 'Remove it from the transported schema unless a live call shows it is accepted.',
      allowed: [...ANTHROPIC_SUPPORTED, ...Object.keys(ANTHROPIC_DOC_UNSUPPORTED), ...Object.keys(ANTHROPIC_MEASURED)],
      message: "not in Anthropic's documented structured-output subset; acceptance unverified (inferred)",
    },
    {
      id: 'min-items',
      check: 'min-items',
      description: '"minItems" may only be 0 or 1.',
      source: `${ANTHROPIC_DOC} (${SV} §3.2); measured "'minItems' values other than 0 or 1 are not supported"`,
      hint: 'Use 0 or 1 and state the real minimum in "description".',
      consequence: ANTHROPIC_REFUSED,
    },
    {
      id: 'tuple-items',
      check: 'tuple-items',
      description: '"items" must be a single schema.',
      source: `${SV} §3.2 and §3.4 (measured "Array types must be specified with a single object schema for 'items'")`,
      hint: 'Use one "items" schema.',
      consequence: ANTHROPIC_REFUSED,
    },
    {
      id: 'format',
      check: 'format',
      description: `Only these formats: ${ANTHROPIC_FORMATS.join(', ')}.`,
      source: `${ANTHROPIC_DOC} (${SV} §3.2); measured "format 'phone' is not supported"`,
      hint: 'Drop "format" or use a supported one.',
      allowed: ANTHROPIC_FORMATS,
      consequence: ANTHROPIC_REFUSED,
    },
    {
      id: 'enum-primitive',
      check: 'enum-values',
      description: '"enum" values must be primitives (no objects or arrays).',
      source: `${ANTHROPIC_DOC} (${SV} §3.2: "complex types in enums" unsupported)`,
      hint: 'Use primitive enum values, or anyOf of const objects.',
      accept: 'primitive',
      what: 'primitives',
      consequence: ANTHROPIC_REFUSED,
    },
    {
      id: 'allof-with-ref',
      check: 'allof-with-ref',
      description: '"allOf" is supported, but not combined with "$ref".',
      source: `${ANTHROPIC_DOC} (${SV} §3.2: "allOf (not combined with $ref)")`,
      hint: 'Inline the referenced schema into the allOf branch.',
      consequence: ANTHROPIC_REFUSED,
    },
    {
      id: 'external-ref',
      check: 'local-ref',
      description: 'Only local $ref (#/...) is supported.',
      source: `${ANTHROPIC_DOC} (${SV} §3.2: external $ref unsupported)`,
      hint: 'Bundle the referenced schema into $defs and point at it with "#/$defs/...".',
      consequence: ANTHROPIC_REFUSED,
    },
    {
      id: 'recursive-ref',
      check: 'recursion',
      description: 'Recursive schemas are not supported.',
      source: `${ANTHROPIC_DOC} (${SV} §3.2)`,
      hint: 'Unroll the recursion to a fixed depth.',
      consequence: ANTHROPIC_REFUSED,
    },
    {
      id: 'pattern-subset',
      check: 'pattern-subset',
      description: '"pattern" is a regex subset: no backreferences, no lookaround, no \\b or \\B.',
      source: `${ANTHROPIC_DOC} (${SV} §3.2)`,
      hint: 'Rewrite the pattern without those features, or drop it and describe the format.',
      consequence: ANTHROPIC_REFUSED,
    },
    {
      id: 'optional-budget',
      check: 'size-limit',
      description: 'At most 24 optional properties across all strict schemas of a request.',
      source: `${ANTHROPIC_DOC} (${SV} §3.3)`,
      hint: 'Make properties required (nullable if needed) or split the schema.',
      measure: 'optionalProperties',
      limit: 24,
      what: 'optional properties (not in "required")',
      keyword: 'required',
    },
    {
      id: 'union-budget',
      check: 'size-limit',
      description: 'At most 16 parameters using anyOf or type arrays (including ["T", "null"]) across all strict schemas of a request.',
      source: `${ANTHROPIC_DOC} (${SV} §3.3)`,
      hint: 'Use fewer anyOf / nullable type arrays.',
      measure: 'unions',
      limit: 16,
      what: 'subschemas using anyOf or a type array',
      keyword: 'anyOf',
    },
  ],
};

// ---------------------------------------------------------------------------------------------
// gemini (responseJsonSchema)

const GEMINI_DOC = 'https://ai.google.dev/gemini-api/docs/structured-output';
/** The keywords the API definition says responseJsonSchema honours (§4.1). */
const GEMINI_HONOURED = [
  '$id', '$defs', '$ref', '$anchor', 'type', 'format', 'title', 'description', 'enum', 'items', 'prefixItems', 'minItems',
  'maxItems', 'minimum', 'maximum', 'anyOf', 'oneOf', 'properties', 'additionalProperties', 'required', 'propertyOrdering',
];
const GEMINI_FORMATS = ['date-time', 'date', 'time'];

const gemini: ProfileSpec = {
  name: 'gemini',
  title: 'Gemini responseJsonSchema (Gemini 2.5+)',
  source: `${GEMINI_DOC}; googleapis/googleapis google/ai/generativelanguage/v1beta/generative_service.proto (response_json_schema); ${SV} §4 and §8`,
  rules: [
    {
      id: 'ignored-keyword',
      check: 'ignored-keyword',
      description: 'Validation and applicator keywords outside the honoured list (minLength, pattern, const, allOf, not, uniqueItems, ...) are accepted but silently not enforced.',
      source: `googleapis generative_service.proto response_json_schema comment and ${GEMINI_DOC} (${SV} §4.1: "the model ignores unsupported properties"); per-keyword effect inferred`,
      severity: 'warning',
      hint: 'Do not rely on it: state the constraint in "description" and check the answer after decoding.',
      honoured: GEMINI_HONOURED,
      message: 'not in the keywords responseJsonSchema honours; Gemini accepts it but does not enforce it',
    },
    {
      id: 'unknown-keyword',
      check: 'not-in-draft',
      description: "Keywords the declared draft does not define are ignored (Gemini's own propertyOrdering excepted).",
      source: `${GEMINI_DOC} (${SV} §4.1 and §8: unknown x-* ignored per docs)`,
      severity: 'warning',
      hint: 'Remove it, or fix its spelling if it was meant as a JSON Schema keyword.',
      also: GEMINI_HONOURED,
      message: 'not a {draft} keyword; Gemini ignores it',
    },
    {
      id: 'ref-siblings',
      check: 'ref-siblings',
      description: 'A subschema with $ref may carry no sibling keywords except $-prefixed ones.',
      source: `${GEMINI_DOC} (${SV} §4.1)`,
      hint: 'Move the sibling keywords into the referenced definition, or wrap: { "anyOf": [{ "$ref": ... }] }.',
      allow: 'dollar-prefixed',
      consequence: 'Gemini responseJsonSchema does not allow non-$ siblings of $ref',
    },
    {
      id: 'enum-values',
      check: 'enum-values',
      description: '"enum" takes strings and numbers.',
      source: `googleapis generative_service.proto response_json_schema comment (${SV} §4.1); outcome for other values inferred`,
      severity: 'warning',
      hint: 'Use string or number enum values.',
      accept: 'string-or-number',
      what: 'strings or numbers',
      consequence: 'responseJsonSchema documents string and number enums only',
    },
    {
      id: 'format',
      check: 'format',
      description: 'Only date-time, date and time are documented formats.',
      source: `${GEMINI_DOC} (${SV} §4.1); other formats unverified (inferred)`,
      severity: 'warning',
      hint: 'Use date-time, date or time, or describe the format in "description".',
      allowed: GEMINI_FORMATS,
      consequence: 'other formats are not documented for responseJsonSchema',
    },
    {
      id: 'recursive-required',
      check: 'recursion-through-required',
      description: 'Cyclic references may only appear under non-required properties (checked for direct recursion).',
      source: `${GEMINI_DOC} (${SV} §4.1: "cycles only under non-required props"; a nullable property is not enough)`,
      hint: 'Make a property on the recursive path optional (leave it out of "required").',
      message: 'recursion through required properties only; Gemini allows cycles only under non-required properties',
    },
  ],
};

// ---------------------------------------------------------------------------------------------
// gemini-response-schema (the legacy responseSchema field: an OpenAPI 3.0 Schema object subset)

const GEMINI_SCHEMA_PROTO =
  'googleapis/googleapis google/ai/generativelanguage/v1beta/content.proto message Schema ("Represents a select subset of an OpenAPI 3.0 schema object"; "Type type = 1 [(google.api.field_behavior) = REQUIRED]")';
const GEMINI_SCHEMA_REF = 'https://ai.google.dev/api/caching#Schema';
/**
 * The fields of the v1beta `Schema` message (API reference, newest copy), in their JSON spellings.
 * The proto parser refuses any other name with "Unknown name ... Cannot find field".
 */
const GEMINI_SCHEMA_FIELDS = [
  'type', 'format', 'title', 'description', 'nullable', 'enum', 'maxItems', 'minItems', 'properties', 'required',
  'minProperties', 'maxProperties', 'minLength', 'maxLength', 'pattern', 'example', 'anyOf', 'propertyOrdering',
  'default', 'items', 'minimum', 'maximum',
];
const GEMINI_SCHEMA_REFUSED = 'the API answers 400 INVALID_ARGUMENT';

const geminiResponseSchema: ProfileSpec = {
  name: 'gemini-response-schema',
  dialect: 'openapi-3.0',
  title: 'Gemini legacy responseSchema (generationConfig.response_schema): the v1beta Schema message, an OpenAPI 3.0 subset',
  source: `${GEMINI_SCHEMA_PROTO}; field list: ${GEMINI_SCHEMA_REF}; ${SV} §4.2`,
  rules: [
    {
      id: 'unknown-field',
      check: 'unlisted-keyword',
      description: 'Only the fields of the Schema message are accepted: no additionalProperties, $schema, $ref, $defs, oneOf, allOf, const, ... ; any other name fails the request.',
      source: `${GEMINI_SCHEMA_REF} (fields) and ${GEMINI_SCHEMA_PROTO}; errors: prism-php/prism#974 ('Unknown name "additionalProperties" at \\'generation_config.response_schema.properties[0].value.items\\': Cannot find field.'), router-for-me/CLIProxyAPI#97 ("$schema"), ${SV} §4.2`,
      hint: 'Remove it (for additionalProperties: false, leave it out; for $ref, inline the definition), or send the schema as responseJsonSchema instead.',
      allowed: GEMINI_SCHEMA_FIELDS,
      evidence: {
        additionalProperties: 'prism-php/prism#974',
        $schema: 'router-for-me/CLIProxyAPI#97; the SDK answers "Unknown field for Schema: $schema" (sherifkozman/the-llm-council#9)',
      },
      message: `not a field of the responseSchema Schema message; ${GEMINI_SCHEMA_REFUSED} 'Invalid JSON payload received. Unknown name ... Cannot find field.'`,
    },
    {
      id: 'type-required',
      check: 'subschema-type',
      description: 'Every schema names its "type" (a required field of the Schema message); an anyOf stands in for it only on models that take anyOf.',
      source: `${GEMINI_SCHEMA_PROTO}; measured with gemini-1.5-flash: "GenerateContentRequest.generation_config.response_schema.properties[child].type: must be specified" (vercel/ai#2974)`,
      hint: 'Give the schema a "type" (OBJECT, ARRAY, STRING, NUMBER, INTEGER, BOOLEAN).',
      positions: ['', 'properties', 'items', 'anyOf'],
      unless: ['anyOf'],
      message: `schema without "type"; ${GEMINI_SCHEMA_REFUSED} "type: must be specified"`,
    },
    {
      id: 'single-type',
      check: 'single-type',
      description: '"type" is one name of the OpenAPI Type enum (STRING, NUMBER, INTEGER, BOOLEAN, ARRAY, OBJECT, NULL), never an array; optionality is "nullable": true.',
      source: `${GEMINI_SCHEMA_PROTO} (enum Type; "Type type = 1", not repeated); the same enum in googleapis/js-genai (@google/genai) src/types.ts "export enum Type"; measured: 'Unknown name "type" at ...: Proto field is not repeating, cannot start list.' (prism-php/prism#974)`,
      hint: 'Use one type and "nullable": true instead of ["T", "null"].',
      types: ['string', 'number', 'integer', 'boolean', 'array', 'object', 'null'],
      message: `"type" must be one OpenAPI type name; ${GEMINI_SCHEMA_REFUSED} ("Proto field is not repeating, cannot start list" for an array)`,
    },
    {
      id: 'any-of-newer-models',
      check: 'listed-keywords',
      description: '"anyOf" is a field of the Schema message only in later API revisions; older models (gemini-1.5) refuse a union.',
      source: `${GEMINI_SCHEMA_PROTO} ("repeated Schema any_of = 18"); gemini-1.5-flash answered "type: must be specified" for a union (vercel/ai#2974); feature request for anyOf on Gemini 1.5 (google-gemini/.github#15, 2024-11)`,
      severity: 'warning',
      hint: 'Check the model takes anyOf, or use one object with nullable properties instead of a union.',
      keywords: { anyOf: 'vercel/ai#2974, google-gemini/.github#15' },
      verb: 'taken only by newer Gemini models on responseSchema',
    },
    {
      id: 'enum-strings',
      check: 'enum-values',
      description: '"enum" is a list of strings (for a STRING schema) in the Schema message.',
      source: `${GEMINI_SCHEMA_PROTO} ("repeated string enum = 5", "Possible values of the element of Type.STRING with enum format"); the outcome for other values is inferred`,
      severity: 'warning',
      hint: 'Use string enum values on a "type": "string" schema.',
      accept: 'string',
      what: 'strings',
      consequence: 'the Schema message holds string enum values only',
    },
    {
      id: 'format',
      check: 'format-by-type',
      description: 'Documented formats: float and double for NUMBER, int32 and int64 for INTEGER, enum and date-time for STRING.',
      source: `${GEMINI_SCHEMA_PROTO} (format: "Supported formats: for NUMBER type: float, double; for INTEGER type: int32, int64; for STRING type: enum, date-time"); other values unverified (inferred)`,
      severity: 'warning',
      hint: 'Drop "format" or use a documented one; describe other formats in "description".',
      allowed: { number: ['float', 'double'], integer: ['int32', 'int64'], string: ['enum', 'date-time'] },
      consequence: 'responseSchema documents no other format for this type',
    },
  ],
};

// ---------------------------------------------------------------------------------------------
// xgrammar

const VLLM_SOURCE = 'vllm-project/vllm vllm/v1/structured_output/backend_xgrammar.py has_xgrammar_unsupported_json_features';
const XGRAMMAR_REFUSED = 'vLLM answers 400 "The provided JSON schema contains features not supported by xgrammar."';
const XGRAMMAR_FORMATS = [
  'email', 'date', 'time', 'date-time', 'duration', 'ipv4', 'ipv6', 'hostname', 'uuid', 'uri', 'uri-reference', 'uri-template',
  'json-pointer', 'relative-json-pointer',
];

const xgrammar: ProfileSpec = {
  name: 'xgrammar',
  title: 'vLLM structured outputs, xgrammar backend',
  source: `${VLLM_SOURCE} (${SV} §5.3)`,
  rules: [
    {
      id: 'multiple-of',
      check: 'keywords-on-type',
      description: '"multipleOf" on an integer/number schema is refused.',
      source: `${VLLM_SOURCE} (${SV} §5.3)`,
      hint: 'Remove "multipleOf".',
      types: ['integer', 'number'],
      keywords: ['multipleOf'],
      message: XGRAMMAR_REFUSED,
    },
    {
      id: 'array-keyword',
      check: 'keywords-on-type',
      description: 'uniqueItems, contains, minContains, maxContains on an array schema are refused.',
      source: `${VLLM_SOURCE} (${SV} §5.3)`,
      hint: 'Remove the keyword and check the constraint after decoding.',
      types: ['array'],
      keywords: ['uniqueItems', 'contains', 'minContains', 'maxContains'],
      message: XGRAMMAR_REFUSED,
    },
    {
      id: 'format',
      check: 'format',
      description: `Only these string formats: ${XGRAMMAR_FORMATS.join(', ')}.`,
      source: `${VLLM_SOURCE} STRING_SUPPORTED_FORMATS (${SV} §5.3)`,
      hint: 'Drop "format" or use a supported one.',
      allowed: XGRAMMAR_FORMATS,
      consequence: XGRAMMAR_REFUSED,
      onlyStrings: true,
    },
    {
      id: 'length-with-pattern',
      check: 'length-with-pattern',
      description: '"pattern" or "format" together with "minLength"/"maxLength" on a string is refused (xgrammar would drop the length).',
      source: `${VLLM_SOURCE} (${SV} §5.3)`,
      hint: 'Keep either the pattern/format or the length bounds (a pattern can encode the length).',
      message: `length bound next to "pattern"/"format"; ${XGRAMMAR_REFUSED}`,
    },
    {
      id: 'property-names-conflict',
      check: 'property-names-conflict',
      description: '"propertyNames" next to properties, patternProperties, a schema-valued additionalProperties or unevaluatedProperties is refused.',
      source: `${VLLM_SOURCE} (${SV} §5.3; mlc-ai/xgrammar#826)`,
      hint: 'Drop "propertyNames" or the other property keywords.',
      message: XGRAMMAR_REFUSED,
    },
    {
      id: 'pattern-properties',
      check: 'pattern-properties-limits',
      description: 'More than one patternProperties entry, or patternProperties next to properties, is refused.',
      source: `${VLLM_SOURCE} (${SV} §5.3)`,
      hint: 'Keep one pattern and no "properties" beside it.',
      message: XGRAMMAR_REFUSED,
    },
    {
      id: 'unenforced-keyword',
      check: 'listed-keywords',
      description: 'not, if/then/else and dependentRequired are passed to xgrammar unchecked; whether they are enforced is not established.',
      source: `${SV} §5.3 (inferred "ignored")`,
      severity: 'warning',
      hint: 'Check the constraint after decoding.',
      keywords: { not: 'inferred', if: 'inferred', then: 'inferred', else: 'inferred', dependentRequired: 'inferred' },
      verb: 'probably not enforced by xgrammar',
    },
    {
      id: 'unknown-keyword',
      check: 'not-in-draft',
      description: 'Keywords the declared draft does not define are not flagged by vLLM and most likely ignored.',
      source: `${SV} §5.3 and §8 (inferred "ignored")`,
      severity: 'warning',
      hint: 'Remove it, or fix its spelling if it was meant as a JSON Schema keyword.',
      also: [],
      message: 'not a {draft} keyword; xgrammar most likely ignores it',
    },
  ],
};

// ---------------------------------------------------------------------------------------------
// portable

const PORTABLE_SOURCE = `${SV} §8 (Portable subset)`;
const PORTABLE_REFUSED = 'outside the portable subset';
/** The keywords of the portable subset (§8). */
const PORTABLE_ALLOWED = [
  '$schema', 'type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf', 'description', 'title',
  '$defs', '$ref', 'format', 'minItems',
];
/** Why each excluded keyword is excluded (§8 "Exclude" and the conclusion table). */
const PORTABLE_EXCLUDED: Readonly<Record<string, string>> = {
  oneOf: 'OpenAI strict refuses it (measured); rewrite to anyOf',
  allOf: 'OpenAI strict refuses it (docs)',
  not: 'OpenAI and Anthropic refuse it',
  if: 'OpenAI and Anthropic refuse it',
  then: 'OpenAI refuses it (docs)',
  else: 'OpenAI refuses it (docs)',
  dependentRequired: "OpenAI refuses it (docs); Claude Code's draft-07 Ajv does not know it",
  dependentSchemas: "OpenAI refuses it (docs); Claude Code's draft-07 Ajv does not know it",
  dependencies: "not in any provider's documented subset",
  patternProperties: 'Anthropic requires additionalProperties false; xgrammar limits it',
  propertyNames: 'OpenAI and Anthropic refuse it (measured)',
  unevaluatedItems: "not in any provider's subset; Claude Code's draft-07 Ajv does not know it",
  unevaluatedProperties: "not in any provider's subset; Claude Code's draft-07 Ajv does not know it",
  uniqueItems: 'OpenAI and Anthropic refuse it (measured), vLLM/xgrammar refuses it',
  minProperties: 'OpenAI and Anthropic refuse it (measured)',
  maxProperties: "not in OpenAI's or Anthropic's subset",
  multipleOf: 'Anthropic refuses it (docs), vLLM/xgrammar refuses it',
  minimum: 'Anthropic refuses it (docs)',
  maximum: 'Anthropic refuses it (docs)',
  exclusiveMinimum: 'Anthropic refuses it (measured)',
  exclusiveMaximum: 'Anthropic refuses it (measured)',
  minLength: 'Anthropic docs list it as unsupported; OpenAI evidence conflicts',
  maxLength: 'Anthropic docs list it as unsupported; OpenAI evidence conflicts',
  maxItems: 'Anthropic refuses it (docs)',
  pattern: 'Anthropic takes only a regex subset and Gemini ignores it',
  prefixItems: 'OpenAI, Anthropic and Claude Code do not take it',
  additionalItems: 'tuple arrays are not portable',
  contains: 'OpenAI and Anthropic refuse it (measured)',
  minContains: 'not portable; vLLM/xgrammar refuses it',
  maxContains: 'not portable; vLLM/xgrammar refuses it',
  default: 'OpenAI answered 400 "\'default\' is not permitted" in 2024-25; strip it before transport',
  examples: 'OpenAI acceptance unknown before 2026; strip it before transport',
  propertyOrdering: 'Gemini-only; Claude Code rejects it as an unknown keyword',
  nullable: 'OpenAPI-only; use "type": ["T", "null"]',
  $anchor: "Claude Code's Ajv rejects it",
  $dynamicRef: "Claude Code's Ajv rejects it",
  $dynamicAnchor: "Claude Code's Ajv rejects it",
  $recursiveRef: "Claude Code's Ajv rejects it",
  $recursiveAnchor: "Claude Code's Ajv rejects it",
  id: 'draft-04; Ajv refuses it',
};

const portable: ProfileSpec = {
  name: 'portable',
  title: 'The strictest shared subset: what claude-code, codex/openai-strict, anthropic, gemini and xgrammar all accept',
  source: PORTABLE_SOURCE,
  rules: [
    {
      id: 'schema-uri',
      check: 'schema-uri',
      description: 'No $schema, or exactly http://json-schema.org/draft-07/schema#.',
      source: `${PORTABLE_SOURCE}; Claude Code refuses other drafts (${SV} §3.5)`,
      hint: 'Drop "$schema" or set it to "http://json-schema.org/draft-07/schema#".',
      accepted: ['http://json-schema.org/draft-07/schema#'],
      refusal: `$schema {uri} is ${PORTABLE_REFUSED}: Claude Code accepts only draft-07 (and Gemini's legacy responseSchema rejects any $schema)`,
    },
    {
      id: 'root-object',
      check: 'root-object',
      description: 'The root is { "type": "object" }.',
      source: `${PORTABLE_SOURCE}; OpenAI, Anthropic and Claude Code require it`,
      hint: 'Make the root { "type": "object", ... }.',
      consequence: 'OpenAI strict, Anthropic and Claude Code all need an object root',
    },
    {
      id: 'root-composition',
      check: 'root-keywords',
      description: 'No anyOf/oneOf/allOf/$ref at the root.',
      source: `${PORTABLE_SOURCE}; OpenAI (docs, Codex-observed) and Anthropic/Claude Code (measured) refuse root unions`,
      hint: 'Put the union under a property of a root object; inline the root $ref.',
      keywords: ['anyOf', 'oneOf', 'allOf', '$ref'],
      consequence: 'OpenAI strict and the Anthropic API refuse a root union or a bare root $ref',
    },
    {
      id: 'property-type',
      check: 'subschema-type',
      description: 'Every property, array item, anyOf branch and definition names its "type" (or is an anyOf or a $ref).',
      source: `${PORTABLE_SOURCE}; OpenAI strict refuses a subschema without "type" (${OPENAI_DOC_TYPES})`,
      hint: 'Give the subschema a "type" (["T", "null"] for an optional value).',
      positions: ['properties', 'items', 'anyOf', '$defs', 'definitions'],
      unless: ['anyOf', '$ref'],
      message: `subschema without "type"; ${PORTABLE_REFUSED}: OpenAI strict answers "schema must have a 'type' key"`,
    },
    {
      id: 'additional-properties-false',
      check: 'additional-properties-false',
      description: 'Every object sets "additionalProperties": false.',
      source: `${PORTABLE_SOURCE}; OpenAI strict and Anthropic require it`,
      hint: 'Add "additionalProperties": false to this object.',
      consequence: 'OpenAI strict and Anthropic require it',
    },
    {
      id: 'required-all',
      check: 'required-all',
      description: 'Every property is required; optional fields are ["T", "null"].',
      source: `${PORTABLE_SOURCE}; OpenAI strict requires it`,
      hint: 'List every property in "required"; make an optional one nullable ("type": ["string", "null"]).',
      consequence: 'OpenAI strict requires every property in "required"',
    },
    {
      id: 'outside-subset',
      check: 'outside-subset',
      description: 'Keywords outside the portable subset (oneOf, allOf, not, if/then/else, dependent*, patternProperties, propertyNames, unevaluated*, uniqueItems, min/maxProperties, multipleOf, minimum/maximum, minLength/maxLength, maxItems, pattern, prefixItems, default, examples, x-*, _*, ...).',
      source: PORTABLE_SOURCE,
      hint: 'Remove it; state the constraint in "description" and check it after decoding.',
      allowed: PORTABLE_ALLOWED,
      excluded: PORTABLE_EXCLUDED,
      prefix: PORTABLE_REFUSED,
    },
    {
      id: 'annotation-outside-subset',
      check: 'annotation-outside-subset',
      description: 'Annotations outside the subset ($comment, $id, readOnly, writeOnly, deprecated, content*, definitions) are unverified on the wire.',
      source: `${PORTABLE_SOURCE} (annotation keywords can stay in the authoring schema and be stripped before transport); unverified for OpenAI and Anthropic`,
      severity: 'warning',
      hint: 'Strip it before transport ("definitions": rename to "$defs").',
      allowed: PORTABLE_ALLOWED,
      excluded: PORTABLE_EXCLUDED,
    },
    {
      id: 'items-single-schema',
      check: 'tuple-items',
      description: '"items" is a single schema.',
      source: `${PORTABLE_SOURCE}; OpenAI and Anthropic refuse tuple items (measured)`,
      hint: 'Use one "items" schema.',
      consequence: 'OpenAI strict and Anthropic refuse tuple items',
    },
    {
      id: 'min-items',
      check: 'min-items',
      description: '"minItems" only 0 or 1.',
      source: `${PORTABLE_SOURCE}; Anthropic (docs)`,
      hint: 'Use 0 or 1 and state the real minimum in "description".',
      consequence: 'Anthropic takes only 0 or 1',
    },
    {
      id: 'format',
      check: 'format',
      description: 'Only date-time, date, time (the intersection), as advisory.',
      source: PORTABLE_SOURCE,
      hint: 'Drop "format" or use date-time, date or time.',
      allowed: GEMINI_FORMATS,
      consequence: 'only date-time, date and time are accepted everywhere',
    },
    {
      id: 'enum-primitive',
      check: 'enum-values',
      description: '"enum" values are primitives.',
      source: `${PORTABLE_SOURCE}; Anthropic (docs), Gemini (strings and numbers)`,
      hint: 'Use primitive enum values.',
      accept: 'primitive',
      what: 'primitives',
      consequence: 'Anthropic refuses complex enum values',
    },
    {
      id: 'type-null-union',
      check: 'type-null-union',
      description: 'A type array is only ["T", "null"] (optionality).',
      source: `${PORTABLE_SOURCE} ("optionality only as [\\"T\\",\\"null\\"]")`,
      hint: 'Use anyOf for other unions, or a single type.',
      consequence: PORTABLE_REFUSED,
    },
    {
      id: 'ref-local',
      check: 'local-ref',
      description: '$ref is local (#/...).',
      source: `${PORTABLE_SOURCE}; Anthropic (docs)`,
      hint: 'Bundle the referenced schema into $defs.',
      consequence: 'Anthropic takes local references only',
    },
    {
      id: 'ref-siblings',
      check: 'ref-siblings',
      description: '$ref has no sibling keywords.',
      source: `${PORTABLE_SOURCE}; Gemini (docs); draft-07 ignores $ref siblings`,
      hint: 'Move the sibling keywords into the referenced definition.',
      allow: 'none',
      consequence: 'Gemini refuses non-$ siblings and draft-07 validators ignore them',
    },
    {
      id: 'recursive-ref',
      check: 'recursion',
      description: 'No recursion.',
      source: `${PORTABLE_SOURCE}; Anthropic (docs)`,
      hint: 'Unroll the recursion to a fixed depth.',
      consequence: 'Anthropic refuses recursive schemas',
    },
    {
      id: 'union-budget',
      check: 'size-limit',
      description: 'At most 16 anyOf / type-array subschemas (Anthropic).',
      source: `${PORTABLE_SOURCE}; ${SV} §3.3`,
      hint: 'Use fewer nullable fields and unions.',
      measure: 'unions',
      limit: 16,
      what: 'subschemas using anyOf or a type array',
      keyword: 'anyOf',
    },
    {
      id: 'max-nesting',
      check: 'size-limit',
      description: 'At most 10 levels of object nesting (OpenAI).',
      source: `${PORTABLE_SOURCE}; ${SV} §2.5 (counting inferred)`,
      hint: 'Flatten the schema.',
      measure: 'objectDepth',
      limit: 10,
      what: 'levels of object nesting',
      keyword: '',
    },
    {
      id: 'max-properties',
      check: 'size-limit',
      description: 'At most 5,000 properties (OpenAI).',
      source: `${PORTABLE_SOURCE}; ${SV} §2.5`,
      hint: 'Split the schema.',
      measure: 'properties',
      limit: 5000,
      what: 'object properties in total',
      keyword: 'properties',
    },
    {
      id: 'max-enum-values',
      check: 'size-limit',
      description: 'At most 1,000 enum values (OpenAI).',
      source: `${PORTABLE_SOURCE}; ${SV} §2.5`,
      hint: 'Shorten the enums.',
      measure: 'enumValues',
      limit: 1000,
      what: 'enum values in total',
      keyword: 'enum',
    },
    {
      id: 'max-string-length',
      check: 'size-limit',
      description: 'At most 120,000 characters of names, enum and const values (OpenAI).',
      source: `${PORTABLE_SOURCE}; ${SV} §2.5`,
      hint: 'Shorten names and enum values.',
      measure: 'stringChars',
      limit: 120_000,
      what: 'characters of names, enum values and const values',
      keyword: '',
    },
  ],
};

/** Every profile, in the order reports list them. */
export const PROFILE_SPECS: readonly ProfileSpec[] = [claudeCode, qwenCode, codex, openAiStrict, anthropic, gemini, geminiResponseSchema, xgrammar, portable];
