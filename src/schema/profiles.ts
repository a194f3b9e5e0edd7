/**
 * Provider profiles: what each way of sending a schema accepts, as data. Every rule names its
 * source; rules drawn from inference rather than a document, a measurement or an observation say
 * "inferred" in their `source`. The research behind them is research/schema-vocabularies.md
 * (§2 OpenAI, §3 Anthropic and Claude Code, §4 Gemini, §5.3 vLLM/xgrammar, §8 conclusion table and
 * portable subset) and research/cli-envelopes.md (§2 Claude Code 2.1.332, §3 Codex 0.171.0,
 * §5 Qwen Code 0.24.4).
 *
 * Profiles:
 * - `claude-code`: Claude Code `--json-schema` (2.1.332): Ajv's default draft-07 class in strict mode
 *   at startup, then the schema becomes the `StructuredOutput` tool's `input_schema`.
 * - `qwen-code`: Qwen Code `--json-schema` (0.24.4): Ajv strict (`strictSchema: true`), draft-07, or
 *   Ajv2020 when `$schema` is 2020-12; then a chat-completions function tool.
 * - `codex`: Codex `--output-schema` (0.171.0): the file goes verbatim into OpenAI Responses
 *   `text.format` with `strict: true`, so the OpenAI strict rules apply.
 * - `openai-strict`: OpenAI Structured Outputs, strict mode (Responses `text.format`, Chat
 *   `response_format`, strict function tools).
 * - `anthropic`: Anthropic structured outputs (`output_config.format`) and strict tool use.
 * - `gemini`: Gemini `responseJsonSchema`.
 * - `xgrammar`: vLLM structured outputs with the xgrammar backend.
 * - `portable`: the strictest shared subset (§8 "Portable subset"): what all of the above accept.
 */
import { ajvKnownKeywords } from '#src/schema/ajv.ts';
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

const SV = 'research/schema-vocabularies.md';
const CE = 'research/cli-envelopes.md';

/** The `$schema` spellings Ajv's default (draft-07) class resolves: its meta-schema `$id`, with or without `#`. */
const AJV_DRAFT07_URIS = ['http://json-schema.org/draft-07/schema#', 'http://json-schema.org/draft-07/schema'];
/** The spellings Ajv2020 resolves. */
const AJV_2020_URIS = ['https://json-schema.org/draft/2020-12/schema', 'https://json-schema.org/draft/2020-12/schema#'];

/** Is `keyword` defined by `draft` (its meta-schema vocabulary)? */
function inDraft(keyword: string, draft: DraftId): boolean {
  return getVocabulary(draft).keywords.has(keyword);
}

function kindIn(keyword: string, draft: DraftId): string | undefined {
  return getVocabulary(draft).keywords.get(keyword)?.kind;
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

function ifWithoutBranchesRule(meta: RuleMeta, cli: string): ProfileRule {
  return nodeRule(meta, (schema) =>
    Object.hasOwn(schema, 'if') && !Object.hasOwn(schema, 'then') && !Object.hasOwn(schema, 'else')
      ? [{ keyword: 'if', message: `"if" without "then" or "else"; ${cli}'s Ajv strict mode refuses it: strict mode: "if" without "then" and "else" is ignored` }]
      : [],
  );
}

// ---------------------------------------------------------------------------------------------
// claude-code

const CLAUDE = 'Claude Code';

const claudeCode: Profile = {
  name: 'claude-code',
  title: 'Claude Code --json-schema (2.1.332): Ajv default (draft-07) class, strict mode, then the StructuredOutput tool input_schema',
  source: `${SV} §3.5 and §8; ${CE} §2 (Claude Code 2.1.332, observed); DESIGN.md "Observed by hand"`,
  rules: [
    schemaUriRule(
      {
        id: 'schema-uri',
        description: 'Only no $schema or the draft-07 URI (http, as Ajv spells its $id) is accepted; 2020-12, 2019-09, draft-06 and the https spelling of draft-07 are refused at startup.',
        source: `${SV} §3.5 (anthropics/claude-code#80402, sendbird/cc-plugin-codex#73; Claude Code >= 2.1.205); the spelling without "#" is accepted by Ajv 8.20.0 (probe; inferred for the CLI)`,
        hint: 'Drop "$schema" or set it to "http://json-schema.org/draft-07/schema#", and keep to draft-07 keywords.',
      },
      AJV_DRAFT07_URIS,
      (uri) => `$schema ${JSON.stringify(uri)} is refused: Claude Code compiles --json-schema with Ajv's default (draft-07) class, which answers: no schema with key or ref "${uri}"`,
    ),
    ajvUnknownKeywordRule(
      {
        id: 'unknown-keyword',
        description: 'Any keyword Ajv\'s draft-07 class does not know (`_meta`, `x-*`, 2019-09/2020-12 keywords such as prefixItems, $anchor, dependentRequired) makes the CLI exit 1 before any request.',
        source: `Observed for _meta and x-meta (Claude Code 2.1.211, research/ce-plugin.md §4; DESIGN.md); known set = Ajv 8.20.0 draft-07 RULES.keywords (other keywords inferred, ${SV} §3.5)`,
        hint: 'Remove the keyword (move its content into "description" or out of the transported schema), or use its draft-07 equivalent.',
      },
      () => 'draft-07',
      CLAUDE,
    ),
    ifWithoutBranchesRule(
      {
        id: 'if-without-branches',
        description: '"if" without "then"/"else" is a strict-mode error in Ajv.',
        source: `${SV} §1.4 (Ajv 8.20.0 probe) and §3.5 (inferred for the CLI)`,
        hint: 'Add "then" and/or "else", or remove "if".',
      },
      CLAUDE,
    ),
    rootKeywordsRule(
      {
        id: 'root-union',
        description: 'The schema becomes a tool input_schema; the Anthropic API refuses oneOf/anyOf/allOf at its top level (HTTP 400), even next to type "object".',
        source: `${SV} §3.5 (probe recorded in a public design note: "input_schema does not support oneOf, allOf, or anyOf at the top level")`,
        hint: 'Put the union under a property of a root object.',
      },
      ['anyOf', 'oneOf', 'allOf'],
      'the API answers 400 "input_schema does not support oneOf, allOf, or anyOf at the top level"',
    ),
    documentRule(
      {
        id: 'root-type',
        description: 'A root without "type" (e.g. a bare root $ref) is refused by the API: tools.N.custom.input_schema.type: Field required.',
        source: `${SV} §3.5 (probe recorded in a public design note)`,
        hint: 'Give the root "type": "object".',
      },
      (root) => {
        const schema = objectOf(root);
        if (schema !== undefined && Object.hasOwn(schema, 'type')) return [];
        return [{ keyword: schema === undefined ? '' : 'type', message: 'the root has no "type"; the API answers 400 "tools.N.custom.input_schema.type: Field required"' }];
      },
    ),
    documentRule(
      {
        id: 'root-object',
        description: 'A non-object root passes the CLI and is sent verbatim as the tool input_schema; the API most likely refuses it.',
        source: `${CE} §2 (observed: CLI accepts a non-object root; API refusal inferred)`,
        severity: 'warning',
        hint: 'Wrap the value in a root object property.',
      },
      (root) => {
        const schema = objectOf(root);
        if (schema === undefined || schema.type === undefined || schema.type === 'object') return [];
        return [{ keyword: 'type', message: `the root type is ${JSON.stringify(schema.type)}; Claude Code sends it verbatim as a tool input_schema, which must be an object (inferred)` }];
      },
    ),
  ],
};

// ---------------------------------------------------------------------------------------------
// qwen-code

const QWEN = 'Qwen Code';
const QWEN_SOURCE = 'QwenLM/qwen-code packages/core/src/utils/schemaValidator.ts SchemaValidator.compileStrict (strictSchema: true, validateFormats: false, allowUnionTypes: true; draft-07 Ajv unless $schema is 2020-12), stored snapshot; that 0.24.4 ships it is inferred';

function qwenDraft(context: LintContext): DraftId {
  return context.schemaUri !== undefined && AJV_2020_URIS.includes(context.schemaUri) ? '2020-12' : 'draft-07';
}

const qwenCode: Profile = {
  name: 'qwen-code',
  title: 'Qwen Code --json-schema (0.24.4): Ajv strict, draft-07 (or Ajv2020 for a 2020-12 $schema), then the structured_output function tool',
  source: `${QWEN_SOURCE}; ${CE} §5 (startup refusal exits 52, observed)`,
  rules: [
    schemaUriRule(
      {
        id: 'schema-uri',
        description: 'No $schema, draft-07, or 2020-12 (with or without "#"); any other $schema falls through to the draft-07 Ajv class, which does not know that meta-schema.',
        source: `${QWEN_SOURCE}; refusal of other URIs: Ajv 8.20.0 probe (inferred for the CLI)`,
        hint: 'Drop "$schema", or use "http://json-schema.org/draft-07/schema#" or "https://json-schema.org/draft/2020-12/schema".',
      },
      [...AJV_DRAFT07_URIS, ...AJV_2020_URIS],
      (uri) => `$schema ${JSON.stringify(uri)} is refused: Qwen Code compiles it with Ajv's draft-07 class, which answers: no schema with key or ref "${uri}"`,
    ),
    ajvUnknownKeywordRule(
      {
        id: 'unknown-keyword',
        description: 'Ajv strictSchema: any keyword the chosen Ajv class does not know is refused at startup (exit 52).',
        source: `${QWEN_SOURCE}; known set = Ajv 8.20.0 RULES.keywords of that class`,
        hint: 'Remove the keyword or use one the declared draft defines.',
      },
      qwenDraft,
      QWEN,
    ),
    ifWithoutBranchesRule(
      {
        id: 'if-without-branches',
        description: '"if" without "then"/"else" is a strictSchema error in Ajv.',
        source: `${QWEN_SOURCE}; Ajv behaviour: ${SV} §1.4 and §7.1`,
        hint: 'Add "then" and/or "else", or remove "if".',
      },
      QWEN,
    ),
  ],
};

// ---------------------------------------------------------------------------------------------
// openai-strict and codex

const OPENAI_DOC = 'https://developers.openai.com/api/docs/guides/structured-outputs';
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
const OPENAI_SUPPORTED: ReadonlySet<string> = new Set([
  'type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf', '$defs', '$ref',
  'pattern', 'format', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'minItems', 'maxItems',
  'description', 'title', '$schema',
]);

function openAiRules(via: string): ProfileRule[] {
  const refused = via === 'codex' ? 'Codex sends the schema verbatim to OpenAI strict mode, which answers 400 invalid_json_schema' : 'OpenAI strict mode answers 400 invalid_json_schema';
  const viaSource = via === 'codex' ? `; Codex 0.171.0 passes --output-schema verbatim as Responses text.format strict (${CE} §3, observed)` : '';
  return [
    rootObjectRule(
      {
        id: 'root-object',
        description: 'The root must be an object schema ("type": "object").',
        source: `${OPENAI_DOC} (${SV} §2.2); Codex CLI errors "schema must have a 'type' key", "schema must be a JSON Schema of 'type: \\"object\\"'" (${SV} §2.6)${viaSource}`,
        hint: 'Make the root { "type": "object", ... } and put other shapes under a property.',
      },
      refused,
    ),
    rootKeywordsRule(
      {
        id: 'root-union',
        description: 'The root may not carry anyOf/oneOf/allOf/enum/not.',
        source: `${OPENAI_DOC} ("root must not be anyOf"); Codex-observed error "must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level" (${SV} §2.6)${viaSource}`,
        hint: 'Move the union under a property of a root object.',
      },
      ['anyOf', 'oneOf', 'allOf', 'enum', 'not'],
      refused,
    ),
    additionalPropertiesFalseRule(
      {
        id: 'additional-properties-false',
        description: 'Every object schema must set "additionalProperties": false.',
        source: `${OPENAI_DOC} (${SV} §2.2); error "'additionalProperties' is required to be supplied and to be false" (${SV} §2.6)${viaSource}`,
        hint: 'Add "additionalProperties": false to this object.',
      },
      refused,
    ),
    requiredAllRule(
      {
        id: 'required-all',
        description: 'Every key of "properties" must be listed in "required"; optional fields are ["T", "null"] unions.',
        source: `${OPENAI_DOC} (${SV} §2.2); error "'required' is required to be supplied and to be an array including every key in properties" (${SV} §2.6)${viaSource}`,
        hint: 'List every property in "required"; make an optional one nullable ("type": ["string", "null"]).',
      },
      refused,
    ),
    listedKeywordsRule(
      {
        id: 'unsupported-keyword',
        description: 'Keywords the OpenAI guide lists as unsupported: allOf, not, dependentRequired, dependentSchemas, if, then, else.',
        source: `${OPENAI_DOC} (${SV} §2.4)${viaSource}`,
        hint: 'Remove it; express the constraint with anyOf, enum or a description.',
      },
      OPENAI_DOC_UNSUPPORTED,
      `not supported by OpenAI strict mode; ${refused}`,
    ),
    listedKeywordsRule(
      {
        id: 'rejected-keyword',
        description: 'Keywords measured to be refused: oneOf, uniqueItems, minProperties, propertyNames, contains.',
        source: `${SV} §2.4 and §2.6 (measured: United-Codes/uc_ai, 1jehuang/jcode#687, vercel-labs/json-render#180)${viaSource}`,
        hint: 'Remove it (oneOf: use anyOf); state the constraint in "description".',
      },
      OPENAI_MEASURED,
      `refused by OpenAI strict mode; ${refused}`,
    ),
    listedKeywordsRule(
      {
        id: 'disputed-keyword',
        description: 'Keywords with conflicting measurements: default, examples, minLength, maxLength.',
        source: `${SV} §2.3, §2.4 and §8 (conflicting measurements)${viaSource}`,
        severity: 'warning',
        hint: 'Strip it before transport, or state the constraint in "description".',
      },
      OPENAI_CONFLICTING,
      'acceptance by OpenAI strict mode is disputed',
    ),
    keywordRule(
      {
        id: 'unlisted-keyword',
        description: 'Keywords outside the documented subset and not measured either way (x-*, _meta, $comment, $id, patternProperties, prefixItems, ...).',
        source: `${SV} §2.3, §2.4 and §8 (inferred: not in the documented supported list; unverified)${viaSource}`,
        severity: 'warning',
        hint: 'Remove it from the transported schema unless a live call shows it is accepted.',
      },
      (keyword) => {
        if (OPENAI_SUPPORTED.has(keyword)) return undefined;
        if ([OPENAI_DOC_UNSUPPORTED, OPENAI_MEASURED, OPENAI_CONFLICTING].some((table) => Object.hasOwn(table, keyword))) return undefined;
        return 'not in OpenAI\'s documented strict-mode subset; acceptance unverified (inferred risky)';
      },
    ),
    tupleItemsRule(
      {
        id: 'tuple-items',
        description: '"items" must be a single schema; the tuple (array) form is refused.',
        source: `${SV} §2.4 (measured "[...] is not of type 'object', 'boolean'")${viaSource}`,
        hint: 'Use one "items" schema (an anyOf of the element shapes if needed).',
      },
      refused,
    ),
    nodeRule(
      {
        id: 'array-items',
        description: 'An array schema must have "items".',
        source: `${SV} §2.6 (measured "array schema missing items", modelscope/ms-agent#610)${viaSource}`,
        hint: 'Add an "items" schema.',
      },
      (schema) =>
        typesOf(schema).has('array') && !Object.hasOwn(schema, 'items')
          ? [{ keyword: 'type', message: `array schema without "items"; ${refused} ("array schema missing items")` }]
          : [],
    ),
    formatRule(
      {
        id: 'format',
        description: `Only these formats: ${OPENAI_FORMATS.join(', ')}.`,
        source: `${OPENAI_DOC} (${SV} §2.3); measured "'uri' is not a valid format" (${SV} §2.4)${viaSource}`,
        hint: 'Drop "format" (describe it in "description") or use a supported one.',
      },
      OPENAI_FORMATS,
      refused,
    ),
    sizeLimitRule(
      {
        id: 'max-nesting',
        description: 'At most 10 levels of nesting.',
        source: `${OPENAI_DOC}, newer copy (${SV} §2.5); counting one level per object schema on a path is inferred${viaSource}`,
        hint: 'Flatten the schema.',
      },
      'objectDepth',
      10,
      'levels of object nesting',
      '',
    ),
    sizeLimitRule(
      {
        id: 'max-properties',
        description: 'At most 5,000 object properties in total.',
        source: `${OPENAI_DOC} (${SV} §2.5)${viaSource}`,
        hint: 'Split the schema.',
      },
      'properties',
      5000,
      'object properties in total',
      'properties',
    ),
    sizeLimitRule(
      {
        id: 'max-enum-values',
        description: 'At most 1,000 enum values across the schema.',
        source: `${OPENAI_DOC} (${SV} §2.5)${viaSource}`,
        hint: 'Shorten the enums.',
      },
      'enumValues',
      1000,
      'enum values in total',
      'enum',
    ),
    sizeLimitRule(
      {
        id: 'max-string-length',
        description: 'At most 120,000 characters of property names, definition names, enum values and const values.',
        source: `${OPENAI_DOC} (${SV} §2.5)${viaSource}`,
        hint: 'Shorten names and enum values.',
      },
      'stringChars',
      120_000,
      'characters of names, enum values and const values',
      '',
    ),
  ];
}

const openAiStrict: Profile = {
  name: 'openai-strict',
  title: 'OpenAI Structured Outputs, strict mode (Responses text.format, Chat response_format, strict tools)',
  source: `${OPENAI_DOC}; ${SV} §2 and §8`,
  rules: openAiRules('openai-strict'),
};

const codex: Profile = {
  name: 'codex',
  title: 'Codex --output-schema (0.171.0): sent verbatim as OpenAI Responses text.format, strict: true',
  source: `${CE} §3 (observed); OpenAI strict rules: ${OPENAI_DOC}, ${SV} §2 and §8`,
  rules: openAiRules('codex'),
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
const ANTHROPIC_SUPPORTED: ReadonlySet<string> = new Set([
  'type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf', 'allOf', '$ref', '$defs',
  'definitions', 'default', 'format', 'minItems', 'pattern', 'description', 'title', '$schema', 'examples',
]);

const anthropic: Profile = {
  name: 'anthropic',
  title: 'Anthropic structured outputs (output_config.format) and strict tool use',
  source: `${ANTHROPIC_DOC}; ${SV} §3.1-3.4 and §8`,
  rules: [
    rootObjectRule(
      {
        id: 'root-object',
        description: 'The root must be an object schema (tool input_schema).',
        source: `${ANTHROPIC_DOC}; ${SV} §8 ("root object (tools)") and §3.4 ("input_schema.type: Field required")`,
        hint: 'Make the root { "type": "object", ... }.',
      },
      ANTHROPIC_REFUSED,
    ),
    rootKeywordsRule(
      {
        id: 'root-union',
        description: 'No oneOf/anyOf/allOf at the top level.',
        source: `${SV} §3.4 (measured "input_schema does not support oneOf, allOf, or anyOf at the top level")`,
        hint: 'Put the union under a property of a root object.',
      },
      ['anyOf', 'oneOf', 'allOf'],
      ANTHROPIC_REFUSED,
    ),
    additionalPropertiesFalseRule(
      {
        id: 'additional-properties-false',
        description: 'Objects must set "additionalProperties": false.',
        source: `${ANTHROPIC_DOC} (${SV} §3.2); measured "'additionalProperties' must be explicitly set to false" (${SV} §3.4)`,
        hint: 'Add "additionalProperties": false to this object.',
      },
      ANTHROPIC_REFUSED,
    ),
    listedKeywordsRule(
      {
        id: 'unsupported-keyword',
        description: 'Documented unsupported: minimum, maximum, multipleOf, minLength, maxLength, maxItems, uniqueItems.',
        source: `${ANTHROPIC_DOC} (${SV} §3.2); errors in ${SV} §3.4 (agentjido/req_llm#302, earendil-works/pi#9953, maximhq/bifrost#4691)`,
        hint: 'Remove it and state the constraint in "description" (the SDKs do the same).',
      },
      ANTHROPIC_DOC_UNSUPPORTED,
      `not supported by Anthropic strict mode; ${ANTHROPIC_REFUSED}`,
    ),
    listedKeywordsRule(
      {
        id: 'rejected-keyword',
        description: 'Measured refused: exclusiveMinimum, exclusiveMaximum, not, contains, if, propertyNames, minProperties.',
        source: `${SV} §3.2 and §3.4 (measured, United-Codes/uc_ai test/test_uc_ai_structured_output.pkb)`,
        hint: 'Remove it; state the constraint in "description".',
      },
      ANTHROPIC_MEASURED,
      `refused by Anthropic strict mode; ${ANTHROPIC_REFUSED}`,
    ),
    keywordRule(
      {
        id: 'unlisted-keyword',
        description: 'Keywords outside the documented subset and not measured (oneOf, then/else, patternProperties, prefixItems, x-*, $comment, ...).',
        source: `${SV} §3.2 and §8 (inferred: not listed; unverified)`,
        severity: 'warning',
        hint: 'Remove it from the transported schema unless a live call shows it is accepted.',
      },
      (keyword) => {
        if (ANTHROPIC_SUPPORTED.has(keyword)) return undefined;
        if (Object.hasOwn(ANTHROPIC_DOC_UNSUPPORTED, keyword) || Object.hasOwn(ANTHROPIC_MEASURED, keyword)) return undefined;
        return 'not in Anthropic\'s documented structured-output subset; acceptance unverified (inferred)';
      },
    ),
    minItemsRule(
      {
        id: 'min-items',
        description: '"minItems" may only be 0 or 1.',
        source: `${ANTHROPIC_DOC} (${SV} §3.2); measured "'minItems' values other than 0 or 1 are not supported"`,
        hint: 'Use 0 or 1 and state the real minimum in "description".',
      },
      ANTHROPIC_REFUSED,
    ),
    tupleItemsRule(
      {
        id: 'tuple-items',
        description: '"items" must be a single schema.',
        source: `${SV} §3.2 and §3.4 (measured "Array types must be specified with a single object schema for 'items'")`,
        hint: 'Use one "items" schema.',
      },
      ANTHROPIC_REFUSED,
    ),
    formatRule(
      {
        id: 'format',
        description: `Only these formats: ${ANTHROPIC_FORMATS.join(', ')}.`,
        source: `${ANTHROPIC_DOC} (${SV} §3.2); measured "format 'phone' is not supported"`,
        hint: 'Drop "format" or use a supported one.',
      },
      ANTHROPIC_FORMATS,
      ANTHROPIC_REFUSED,
    ),
    enumValuesRule(
      {
        id: 'enum-primitive',
        description: '"enum" values must be primitives (no objects or arrays).',
        source: `${ANTHROPIC_DOC} (${SV} §3.2: "complex types in enums" unsupported)`,
        hint: 'Use primitive enum values, or anyOf of const objects.',
      },
      isPrimitive,
      'primitives',
      ANTHROPIC_REFUSED,
    ),
    nodeRule(
      {
        id: 'allof-with-ref',
        description: '"allOf" is supported, but not combined with "$ref".',
        source: `${ANTHROPIC_DOC} (${SV} §3.2: "allOf (not combined with $ref)")`,
        hint: 'Inline the referenced schema into the allOf branch.',
      },
      (schema) => {
        if (!Array.isArray(schema.allOf)) return [];
        const refInside = schema.allOf.some((branch) => typeof branch === 'object' && branch !== null && Object.hasOwn(branch, '$ref'));
        return refInside || Object.hasOwn(schema, '$ref')
          ? [{ keyword: 'allOf', message: `"allOf" combined with "$ref"; ${ANTHROPIC_REFUSED}` }]
          : [];
      },
    ),
    localRefRule(
      {
        id: 'external-ref',
        description: 'Only local $ref (#/...) is supported.',
        source: `${ANTHROPIC_DOC} (${SV} §3.2: external $ref unsupported)`,
        hint: 'Bundle the referenced schema into $defs and point at it with "#/$defs/...".',
      },
      ANTHROPIC_REFUSED,
    ),
    recursionRule(
      {
        id: 'recursive-ref',
        description: 'Recursive schemas are not supported.',
        source: `${ANTHROPIC_DOC} (${SV} §3.2)`,
        hint: 'Unroll the recursion to a fixed depth.',
      },
      ANTHROPIC_REFUSED,
    ),
    nodeRule(
      {
        id: 'pattern-subset',
        description: '"pattern" is a regex subset: no backreferences, no lookaround, no \\b or \\B.',
        source: `${ANTHROPIC_DOC} (${SV} §3.2)`,
        hint: 'Rewrite the pattern without those features, or drop it and describe the format.',
      },
      (schema) => {
        if (typeof schema.pattern !== 'string') return [];
        const features = unsupportedRegexFeatures(schema.pattern);
        return features.length === 0 ? [] : [{ keyword: 'pattern', message: `pattern uses ${features.join(', ')}; ${ANTHROPIC_REFUSED}` }];
      },
    ),
    sizeLimitRule(
      {
        id: 'optional-budget',
        description: 'At most 24 optional properties across all strict schemas of a request.',
        source: `${ANTHROPIC_DOC} (${SV} §3.3)`,
        hint: 'Make properties required (nullable if needed) or split the schema.',
      },
      'optionalProperties',
      24,
      'optional properties (not in "required")',
      'required',
    ),
    sizeLimitRule(
      {
        id: 'union-budget',
        description: 'At most 16 parameters using anyOf or type arrays (including ["T", "null"]) across all strict schemas of a request.',
        source: `${ANTHROPIC_DOC} (${SV} §3.3)`,
        hint: 'Use fewer anyOf / nullable type arrays.',
      },
      'unions',
      16,
      'subschemas using anyOf or a type array',
      'anyOf',
    ),
  ],
};

// ---------------------------------------------------------------------------------------------
// gemini

const GEMINI_DOC = 'https://ai.google.dev/gemini-api/docs/structured-output';
/** The keywords the API definition says responseJsonSchema honours (§4.1). */
const GEMINI_HONOURED: ReadonlySet<string> = new Set([
  '$id', '$defs', '$ref', '$anchor', 'type', 'format', 'title', 'description', 'enum', 'items', 'prefixItems', 'minItems',
  'maxItems', 'minimum', 'maximum', 'anyOf', 'oneOf', 'properties', 'additionalProperties', 'required', 'propertyOrdering',
]);
const GEMINI_FORMATS = ['date-time', 'date', 'time'];

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

const gemini: Profile = {
  name: 'gemini',
  title: 'Gemini responseJsonSchema (Gemini 2.5+)',
  source: `${GEMINI_DOC}; googleapis/googleapis google/ai/generativelanguage/v1beta/generative_service.proto (response_json_schema); ${SV} §4 and §8`,
  rules: [
    keywordRule(
      {
        id: 'ignored-keyword',
        description: 'Validation and applicator keywords outside the honoured list (minLength, pattern, const, allOf, not, uniqueItems, ...) are accepted but silently not enforced.',
        source: `googleapis generative_service.proto response_json_schema comment and ${GEMINI_DOC} (${SV} §4.1: "the model ignores unsupported properties"); per-keyword effect inferred`,
        severity: 'warning',
        hint: 'Do not rely on it: state the constraint in "description" and check the answer after decoding.',
      },
      (keyword, _schema, _node, context) => {
        if (GEMINI_HONOURED.has(keyword)) return undefined;
        const kind = kindIn(keyword, context.draft);
        if (kind !== 'validation' && kind !== 'applicator') return undefined;
        return 'not in the keywords responseJsonSchema honours; Gemini accepts it but does not enforce it';
      },
    ),
    keywordRule(
      {
        id: 'unknown-keyword',
        description: 'Keywords the declared draft does not define are ignored (Gemini\'s own propertyOrdering excepted).',
        source: `${GEMINI_DOC} (${SV} §4.1 and §8: unknown x-* ignored per docs)`,
        severity: 'warning',
        hint: 'Remove it, or fix its spelling if it was meant as a JSON Schema keyword.',
      },
      (keyword, _schema, _node, context) =>
        GEMINI_HONOURED.has(keyword) || inDraft(keyword, context.draft)
          ? undefined
          : `not a ${context.draft} keyword; Gemini ignores it`,
    ),
    refSiblingsRule(
      {
        id: 'ref-siblings',
        description: 'A subschema with $ref may carry no sibling keywords except $-prefixed ones.',
        source: `${GEMINI_DOC} (${SV} §4.1)`,
        hint: 'Move the sibling keywords into the referenced definition, or wrap: { "anyOf": [{ "$ref": ... }] }.',
      },
      (keyword) => keyword.startsWith('$'),
      'Gemini responseJsonSchema does not allow non-$ siblings of $ref',
    ),
    enumValuesRule(
      {
        id: 'enum-values',
        description: '"enum" takes strings and numbers.',
        source: `googleapis generative_service.proto response_json_schema comment (${SV} §4.1); outcome for other values inferred`,
        severity: 'warning',
        hint: 'Use string or number enum values.',
      },
      (value) => typeof value === 'string' || typeof value === 'number',
      'strings or numbers',
      'responseJsonSchema documents string and number enums only',
    ),
    formatRule(
      {
        id: 'format',
        description: 'Only date-time, date and time are documented formats.',
        source: `${GEMINI_DOC} (${SV} §4.1); other formats unverified (inferred)`,
        severity: 'warning',
        hint: 'Use date-time, date or time, or describe the format in "description".',
      },
      GEMINI_FORMATS,
      'other formats are not documented for responseJsonSchema',
    ),
    documentRule(
      {
        id: 'recursive-required',
        description: 'Cyclic references may only appear under non-required properties (checked for direct recursion).',
        source: `${GEMINI_DOC} (${SV} §4.1: "cycles only under non-required props"; a nullable property is not enough)`,
        hint: 'Make a property on the recursive path optional (leave it out of "required").',
      },
      (_root, context) => {
        const hits: RuleHit[] = [];
        for (const node of context.recursiveRefs()) {
          const target = context.index.refTarget(node);
          if (target !== undefined && requiredOnlyCycle(node, target)) {
            hits.push({ pointer: node.pointer, keyword: '$ref', message: 'recursion through required properties only; Gemini allows cycles only under non-required properties' });
          }
        }
        return hits;
      },
    ),
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

/** vLLM treats a propertyNames subschema as a string schema even without "type". */
function stringTyped(schema: Readonly<Record<string, unknown>>, node: SchemaNode): boolean {
  if (typesOf(schema).has('string')) return true;
  if (node.parentKeyword !== 'propertyNames' || node.parent === null) return false;
  const holder = objectOf(node.parent);
  return holder !== undefined && typesOf(holder).has('object');
}

const xgrammar: Profile = {
  name: 'xgrammar',
  title: 'vLLM structured outputs, xgrammar backend',
  source: `${VLLM_SOURCE} (${SV} §5.3)`,
  rules: [
    nodeRule(
      {
        id: 'multiple-of',
        description: '"multipleOf" on an integer/number schema is refused.',
        source: `${VLLM_SOURCE} (${SV} §5.3)`,
        hint: 'Remove "multipleOf".',
      },
      (schema) =>
        Object.hasOwn(schema, 'multipleOf') && (typesOf(schema).has('integer') || typesOf(schema).has('number'))
          ? [{ keyword: 'multipleOf', message: XGRAMMAR_REFUSED }]
          : [],
    ),
    nodeRule(
      {
        id: 'array-keyword',
        description: 'uniqueItems, contains, minContains, maxContains on an array schema are refused.',
        source: `${VLLM_SOURCE} (${SV} §5.3)`,
        hint: 'Remove the keyword and check the constraint after decoding.',
      },
      (schema) =>
        typesOf(schema).has('array')
          ? ['uniqueItems', 'contains', 'minContains', 'maxContains']
              .filter((keyword) => Object.hasOwn(schema, keyword))
              .map((keyword) => ({ keyword, message: XGRAMMAR_REFUSED }))
          : [],
    ),
    formatRule(
      {
        id: 'format',
        description: `Only these string formats: ${XGRAMMAR_FORMATS.join(', ')}.`,
        source: `${VLLM_SOURCE} STRING_SUPPORTED_FORMATS (${SV} §5.3)`,
        hint: 'Drop "format" or use a supported one.',
      },
      XGRAMMAR_FORMATS,
      XGRAMMAR_REFUSED,
      true,
    ),
    nodeRule(
      {
        id: 'length-with-pattern',
        description: '"pattern" or "format" together with "minLength"/"maxLength" on a string is refused (xgrammar would drop the length).',
        source: `${VLLM_SOURCE} (${SV} §5.3)`,
        hint: 'Keep either the pattern/format or the length bounds (a pattern can encode the length).',
      },
      (schema, node) => {
        if (!stringTyped(schema, node)) return [];
        if (!Object.hasOwn(schema, 'pattern') && !Object.hasOwn(schema, 'format')) return [];
        return ['minLength', 'maxLength']
          .filter((keyword) => Object.hasOwn(schema, keyword))
          .map((keyword) => ({ keyword, message: `length bound next to "pattern"/"format"; ${XGRAMMAR_REFUSED}` }));
      },
    ),
    nodeRule(
      {
        id: 'property-names-conflict',
        description: '"propertyNames" next to properties, patternProperties, a schema-valued additionalProperties or unevaluatedProperties is refused.',
        source: `${VLLM_SOURCE} (${SV} §5.3; mlc-ai/xgrammar#826)`,
        hint: 'Drop "propertyNames" or the other property keywords.',
      },
      (schema) => {
        if (!typesOf(schema).has('object') || !Object.hasOwn(schema, 'propertyNames')) return [];
        const ap = schema.additionalProperties;
        const conflict =
          Object.hasOwn(schema, 'properties') ||
          Object.hasOwn(schema, 'patternProperties') ||
          (typeof ap === 'object' && ap !== null && !Array.isArray(ap)) ||
          (Object.hasOwn(schema, 'unevaluatedProperties') && schema.unevaluatedProperties !== true);
        return conflict ? [{ keyword: 'propertyNames', message: XGRAMMAR_REFUSED }] : [];
      },
    ),
    nodeRule(
      {
        id: 'pattern-properties',
        description: 'More than one patternProperties entry, or patternProperties next to properties, is refused.',
        source: `${VLLM_SOURCE} (${SV} §5.3)`,
        hint: 'Keep one pattern and no "properties" beside it.',
      },
      (schema) => {
        const pp = schema.patternProperties;
        if (!typesOf(schema).has('object') || typeof pp !== 'object' || pp === null || Array.isArray(pp)) return [];
        return Object.hasOwn(schema, 'properties') || Object.keys(pp).length > 1
          ? [{ keyword: 'patternProperties', message: XGRAMMAR_REFUSED }]
          : [];
      },
    ),
    listedKeywordsRule(
      {
        id: 'unenforced-keyword',
        description: 'not, if/then/else and dependentRequired are passed to xgrammar unchecked; whether they are enforced is not established.',
        source: `${SV} §5.3 (inferred "ignored")`,
        severity: 'warning',
        hint: 'Check the constraint after decoding.',
      },
      { not: 'inferred', if: 'inferred', then: 'inferred', else: 'inferred', dependentRequired: 'inferred' },
      'probably not enforced by xgrammar',
    ),
    keywordRule(
      {
        id: 'unknown-keyword',
        description: 'Keywords the declared draft does not define are not flagged by vLLM and most likely ignored.',
        source: `${SV} §5.3 and §8 (inferred "ignored")`,
        severity: 'warning',
        hint: 'Remove it, or fix its spelling if it was meant as a JSON Schema keyword.',
      },
      (keyword, _schema, _node, context) => (inDraft(keyword, context.draft) ? undefined : `not a ${context.draft} keyword; xgrammar most likely ignores it`),
    ),
  ],
};

// ---------------------------------------------------------------------------------------------
// portable

const PORTABLE_SOURCE = `${SV} §8 (Portable subset)`;
const PORTABLE_REFUSED = 'outside the portable subset';
/** The keywords of the portable subset (§8). */
const PORTABLE_ALLOWED: ReadonlySet<string> = new Set([
  '$schema', 'type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf', 'description', 'title',
  '$defs', '$ref', 'format', 'minItems',
]);
/** Why each excluded keyword is excluded (§8 "Exclude" and the conclusion table). */
const PORTABLE_EXCLUDED: Readonly<Record<string, string>> = {
  oneOf: 'OpenAI strict refuses it (measured); rewrite to anyOf',
  allOf: 'OpenAI strict refuses it (docs)',
  not: 'OpenAI and Anthropic refuse it',
  if: 'OpenAI and Anthropic refuse it',
  then: 'OpenAI refuses it (docs)',
  else: 'OpenAI refuses it (docs)',
  dependentRequired: 'OpenAI refuses it (docs); Claude Code\'s draft-07 Ajv does not know it',
  dependentSchemas: 'OpenAI refuses it (docs); Claude Code\'s draft-07 Ajv does not know it',
  dependencies: 'not in any provider\'s documented subset',
  patternProperties: 'Anthropic requires additionalProperties false; xgrammar limits it',
  propertyNames: 'OpenAI and Anthropic refuse it (measured)',
  unevaluatedItems: 'not in any provider\'s subset; Claude Code\'s draft-07 Ajv does not know it',
  unevaluatedProperties: 'not in any provider\'s subset; Claude Code\'s draft-07 Ajv does not know it',
  uniqueItems: 'OpenAI and Anthropic refuse it (measured), vLLM/xgrammar refuses it',
  minProperties: 'OpenAI and Anthropic refuse it (measured)',
  maxProperties: 'not in OpenAI\'s or Anthropic\'s subset',
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
  $anchor: 'Claude Code\'s Ajv rejects it',
  $dynamicRef: 'Claude Code\'s Ajv rejects it',
  $dynamicAnchor: 'Claude Code\'s Ajv rejects it',
  $recursiveRef: 'Claude Code\'s Ajv rejects it',
  $recursiveAnchor: 'Claude Code\'s Ajv rejects it',
  id: 'draft-04; Ajv refuses it',
};

/** Keywords outside the subset that are harmless to validation but unverified on the wire. */
function portableWarningReason(keyword: string, context: LintContext): string | undefined {
  if (keyword === 'definitions') return 'OpenAI and Gemini document "$defs" only; use "$defs" (inferred)';
  const kind = kindIn(keyword, context.draft) ?? kindIn(keyword, '2020-12');
  if (kind === 'annotation' || keyword === '$id' || keyword === '$comment') {
    return 'annotation outside the portable subset; acceptance unverified by OpenAI and Anthropic, strip it before transport';
  }
  return undefined;
}

const portable: Profile = {
  name: 'portable',
  title: 'The strictest shared subset: what claude-code, codex/openai-strict, anthropic, gemini and xgrammar all accept',
  source: PORTABLE_SOURCE,
  rules: [
    schemaUriRule(
      {
        id: 'schema-uri',
        description: 'No $schema, or exactly http://json-schema.org/draft-07/schema#.',
        source: `${PORTABLE_SOURCE}; Claude Code refuses other drafts (${SV} §3.5)`,
        hint: 'Drop "$schema" or set it to "http://json-schema.org/draft-07/schema#".',
      },
      ['http://json-schema.org/draft-07/schema#'],
      (uri) => `$schema ${JSON.stringify(uri)} is ${PORTABLE_REFUSED}: Claude Code accepts only draft-07 (and Gemini's legacy responseSchema rejects any $schema)`,
    ),
    rootObjectRule(
      {
        id: 'root-object',
        description: 'The root is { "type": "object" }.',
        source: `${PORTABLE_SOURCE}; OpenAI, Anthropic and Claude Code require it`,
        hint: 'Make the root { "type": "object", ... }.',
      },
      'OpenAI strict, Anthropic and Claude Code all need an object root',
    ),
    rootKeywordsRule(
      {
        id: 'root-composition',
        description: 'No anyOf/oneOf/allOf/$ref at the root.',
        source: `${PORTABLE_SOURCE}; OpenAI (docs, Codex-observed) and Anthropic/Claude Code (measured) refuse root unions`,
        hint: 'Put the union under a property of a root object; inline the root $ref.',
      },
      ['anyOf', 'oneOf', 'allOf', '$ref'],
      'OpenAI strict and the Anthropic API refuse a root union or a bare root $ref',
    ),
    additionalPropertiesFalseRule(
      {
        id: 'additional-properties-false',
        description: 'Every object sets "additionalProperties": false.',
        source: `${PORTABLE_SOURCE}; OpenAI strict and Anthropic require it`,
        hint: 'Add "additionalProperties": false to this object.',
      },
      'OpenAI strict and Anthropic require it',
    ),
    requiredAllRule(
      {
        id: 'required-all',
        description: 'Every property is required; optional fields are ["T", "null"].',
        source: `${PORTABLE_SOURCE}; OpenAI strict requires it`,
        hint: 'List every property in "required"; make an optional one nullable ("type": ["string", "null"]).',
      },
      'OpenAI strict requires every property in "required"',
    ),
    keywordRule(
      {
        id: 'outside-subset',
        description: 'Keywords outside the portable subset (oneOf, allOf, not, if/then/else, dependent*, patternProperties, propertyNames, unevaluated*, uniqueItems, min/maxProperties, multipleOf, minimum/maximum, minLength/maxLength, maxItems, pattern, prefixItems, default, examples, x-*, _*, ...).',
        source: PORTABLE_SOURCE,
        hint: 'Remove it; state the constraint in "description" and check it after decoding.',
      },
      (keyword, _schema, _node, context) => {
        if (PORTABLE_ALLOWED.has(keyword)) return undefined;
        const reason = Object.hasOwn(PORTABLE_EXCLUDED, keyword) ? PORTABLE_EXCLUDED[keyword] : undefined;
        if (reason !== undefined) return `${PORTABLE_REFUSED}: ${reason}`;
        if (portableWarningReason(keyword, context) !== undefined) return undefined;
        if (!inDraft(keyword, context.draft) && !inDraft(keyword, '2020-12')) {
          return `${PORTABLE_REFUSED}: not a JSON Schema keyword; Claude Code's Ajv rejects unknown keywords (observed for _meta, x-meta)`;
        }
        return `${PORTABLE_REFUSED}: not in every provider's subset`;
      },
    ),
    keywordRule(
      {
        id: 'annotation-outside-subset',
        description: 'Annotations outside the subset ($comment, $id, readOnly, writeOnly, deprecated, content*, definitions) are unverified on the wire.',
        source: `${PORTABLE_SOURCE} (annotation keywords can stay in the authoring schema and be stripped before transport); unverified for OpenAI and Anthropic`,
        severity: 'warning',
        hint: 'Strip it before transport ("definitions": rename to "$defs").',
      },
      (keyword, _schema, _node, context) => (PORTABLE_ALLOWED.has(keyword) || Object.hasOwn(PORTABLE_EXCLUDED, keyword) ? undefined : portableWarningReason(keyword, context)),
    ),
    tupleItemsRule(
      {
        id: 'items-single-schema',
        description: '"items" is a single schema.',
        source: `${PORTABLE_SOURCE}; OpenAI and Anthropic refuse tuple items (measured)`,
        hint: 'Use one "items" schema.',
      },
      'OpenAI strict and Anthropic refuse tuple items',
    ),
    minItemsRule(
      {
        id: 'min-items',
        description: '"minItems" only 0 or 1.',
        source: `${PORTABLE_SOURCE}; Anthropic (docs)`,
        hint: 'Use 0 or 1 and state the real minimum in "description".',
      },
      'Anthropic takes only 0 or 1',
    ),
    formatRule(
      {
        id: 'format',
        description: 'Only date-time, date, time (the intersection), as advisory.',
        source: PORTABLE_SOURCE,
        hint: 'Drop "format" or use date-time, date or time.',
      },
      GEMINI_FORMATS,
      'only date-time, date and time are accepted everywhere',
    ),
    enumValuesRule(
      {
        id: 'enum-primitive',
        description: '"enum" values are primitives.',
        source: `${PORTABLE_SOURCE}; Anthropic (docs), Gemini (strings and numbers)`,
        hint: 'Use primitive enum values.',
      },
      isPrimitive,
      'primitives',
      'Anthropic refuses complex enum values',
    ),
    nodeRule(
      {
        id: 'type-null-union',
        description: 'A type array is only ["T", "null"] (optionality).',
        source: `${PORTABLE_SOURCE} ("optionality only as [\\"T\\",\\"null\\"]")`,
        hint: 'Use anyOf for other unions, or a single type.',
      },
      (schema) => {
        const type = schema.type;
        if (!Array.isArray(type)) return [];
        if (type.length === 2 && type.includes('null') && type.some((t) => t !== 'null')) return [];
        return [{ keyword: 'type', message: `type array ${JSON.stringify(type)} is not ["T", "null"]; ${PORTABLE_REFUSED}` }];
      },
    ),
    localRefRule(
      {
        id: 'ref-local',
        description: '$ref is local (#/...).',
        source: `${PORTABLE_SOURCE}; Anthropic (docs)`,
        hint: 'Bundle the referenced schema into $defs.',
      },
      'Anthropic takes local references only',
    ),
    refSiblingsRule(
      {
        id: 'ref-siblings',
        description: '$ref has no sibling keywords.',
        source: `${PORTABLE_SOURCE}; Gemini (docs); draft-07 ignores $ref siblings`,
        hint: 'Move the sibling keywords into the referenced definition.',
      },
      () => false,
      'Gemini refuses non-$ siblings and draft-07 validators ignore them',
    ),
    recursionRule(
      {
        id: 'recursive-ref',
        description: 'No recursion.',
        source: `${PORTABLE_SOURCE}; Anthropic (docs)`,
        hint: 'Unroll the recursion to a fixed depth.',
      },
      'Anthropic refuses recursive schemas',
    ),
    sizeLimitRule(
      { id: 'union-budget', description: 'At most 16 anyOf / type-array subschemas (Anthropic).', source: `${PORTABLE_SOURCE}; ${SV} §3.3`, hint: 'Use fewer nullable fields and unions.' },
      'unions',
      16,
      'subschemas using anyOf or a type array',
      'anyOf',
    ),
    sizeLimitRule(
      { id: 'max-nesting', description: 'At most 10 levels of object nesting (OpenAI).', source: `${PORTABLE_SOURCE}; ${SV} §2.5 (counting inferred)`, hint: 'Flatten the schema.' },
      'objectDepth',
      10,
      'levels of object nesting',
      '',
    ),
    sizeLimitRule(
      { id: 'max-properties', description: 'At most 5,000 properties (OpenAI).', source: `${PORTABLE_SOURCE}; ${SV} §2.5`, hint: 'Split the schema.' },
      'properties',
      5000,
      'object properties in total',
      'properties',
    ),
    sizeLimitRule(
      { id: 'max-enum-values', description: 'At most 1,000 enum values (OpenAI).', source: `${PORTABLE_SOURCE}; ${SV} §2.5`, hint: 'Shorten the enums.' },
      'enumValues',
      1000,
      'enum values in total',
      'enum',
    ),
    sizeLimitRule(
      { id: 'max-string-length', description: 'At most 120,000 characters of names, enum and const values (OpenAI).', source: `${PORTABLE_SOURCE}; ${SV} §2.5`, hint: 'Shorten names and enum values.' },
      'stringChars',
      120_000,
      'characters of names, enum values and const values',
      '',
    ),
  ],
};

/** Every profile, in the order reports list them. */
export const PROFILES: readonly Profile[] = [claudeCode, qwenCode, codex, openAiStrict, anthropic, gemini, xgrammar, portable];

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
