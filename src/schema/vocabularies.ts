/**
 * JSON Schema keyword sets per draft, derived at load time from the meta-schemas that ajv ships
 * (`ajv/dist/refs/json-schema-draft-06.json`, `json-schema-draft-07.json`,
 * `json-schema-2019-09/**`, `json-schema-2020-12/**`), never typed by hand.
 *
 * Derivation, per draft:
 * - **keywords**: the `properties` keys of the draft's meta-schema. For 2019-09 and 2020-12 these are
 *   the vocabulary meta-schemas the top meta-schema lists in `allOf`, plus the top meta-schema's own
 *   `properties`, which hold keywords kept only to stop incompatible reuse (`definitions`,
 *   `dependencies`; in 2020-12 also `$recursiveRef`/`$recursiveAnchor`): those are marked `legacy`.
 * - **subschema positions**: read off each keyword's meta-schema value: a reference back to the
 *   meta-schema (`{"$ref": "#"}`, `{"$recursiveRef": "#"}`, `{"$dynamicRef": "#meta"}`) is one
 *   schema; a `schemaArray` is an array of schemas; an object whose `additionalProperties` is such
 *   a reference is a map of schemas; `anyOf` of a schema and a schema array is `items` before
 *   2020-12; a map whose values are a schema or a string array is `dependencies`.
 * - **kind**: 2019-09/2020-12 keywords take the kind of the vocabulary that defines them (its
 *   `$vocabulary` URI): core -> `core`; applicator, unevaluated -> `applicator`; validation ->
 *   `validation`; meta-data, content, format, format-annotation -> `annotation`. Draft-06/07
 *   keywords take the kind the same keyword has in the 2019-09 vocabularies; legacy keywords take
 *   their kind in the draft before. A short override table covers what the meta-schemas cannot
 *   say: `$comment` is `annotation` (it has no effect on validity, though 2019-09 files it under
 *   core); `definitions` is `core` (a container, like `$defs`); `format` is `validation` in
 *   draft-04/06/07, where it is an assertion keyword.
 * - **draft-04**: neither ajv 8 nor an installed `ajv-draft-04` ships its meta-schema, so draft-04
 *   is derived by a documented difference from draft-06 (see {@link DRAFT04_FROM_DRAFT06}).
 * - **spec text**: draft-07's `writeOnly` is defined by the draft-07 validation text but missing
 *   from its published meta-schema (research/schema-vocabularies.md §1.1 note); it is added and
 *   marked `from: 'spec-text'`.
 *
 * @see research/schema-vocabularies.md §1 (project research notes)
 */
import { createRequire } from 'node:module';
import { pushAll } from '#src/arrays.ts';

const require = createRequire(import.meta.url);

/** Draft ids, oldest first. */
export const DRAFTS = ['draft-04', 'draft-06', 'draft-07', '2019-09', '2020-12'] as const;

/** One of {@link DRAFTS}. */
export type DraftId = (typeof DRAFTS)[number];

/** The draft assumed for a schema that declares no `$schema` (what Ajv's default class and Claude Code use). */
export const DEFAULT_DRAFT: DraftId = 'draft-07';

/** Canonical `$schema` URI of each draft, spelled as its meta-schema's `$id`/`id`. */
export const SCHEMA_URIS: Readonly<Record<DraftId, string>> = {
  'draft-04': 'http://json-schema.org/draft-04/schema#',
  'draft-06': 'http://json-schema.org/draft-06/schema#',
  'draft-07': 'http://json-schema.org/draft-07/schema#',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
};

/**
 * What a keyword does:
 * - `core`: identifies, references or holds schemas without applying them (`$schema`, `$id`, `$ref`,
 *   `$defs`/`definitions`, `$anchor`, `$vocabulary`, ...);
 * - `applicator`: applies subschemas to the instance or its parts (`properties`, `items`, `allOf`, ...);
 * - `validation`: asserts on the instance itself (`type`, `enum`, `minLength`, ...);
 * - `annotation`: has no effect on validity (`title`, `description`, `default`, `examples`,
 *   `$comment`, `readOnly`, `writeOnly`, `deprecated`, `contentMediaType`, `contentEncoding`,
 *   `contentSchema`, and `format` from 2019-09 on).
 */
export type KeywordKind = 'core' | 'applicator' | 'validation' | 'annotation';

/**
 * How a keyword's value holds subschemas:
 * - `schema`: the value is one schema (object or boolean): `not`, `additionalProperties`, ...;
 * - `array`: an array of schemas: `allOf`, `anyOf`, `oneOf`, `prefixItems`;
 * - `map`: an object whose every value is a schema: `properties`, `$defs`, `dependentSchemas`, ...;
 * - `schema-or-array`: one schema or an array of schemas: `items` before 2020-12;
 * - `map-of-schema-or-strings`: an object whose values are a schema or a string array: `dependencies`.
 */
export type SubschemaShape = 'schema' | 'array' | 'map' | 'schema-or-array' | 'map-of-schema-or-strings';

/**
 * One keyword of one draft.
 *
 * - `vocabulary`: the 2019-09/2020-12 vocabulary name (`core`, `applicator`, `unevaluated`,
 *   `validation`, `meta-data`, `format`, `format-annotation`, `content`), `legacy` for keywords the
 *   top meta-schema keeps for compatibility, or the draft id for single-file meta-schemas.
 * - `subschema`: set when the keyword's value holds subschemas (see {@link SubschemaShape}).
 * - `from`: `meta-schema` when read off a shipped meta-schema, `spec-text` when added from the
 *   draft's text, `draft-06-difference` for draft-04 keywords.
 * - `source`: the meta-schema file (inside the `ajv` package) and JSON Pointer it was read from.
 */
export interface KeywordInfo {
  keyword: string;
  kind: KeywordKind;
  vocabulary: string;
  subschema?: SubschemaShape;
  legacy?: boolean;
  from: 'meta-schema' | 'spec-text' | 'draft-06-difference';
  source: string;
}

/**
 * Everything routecert knows about one draft.
 *
 * - `keywords`: every keyword of the draft, in meta-schema order.
 * - `positions`: the keywords whose values hold subschemas, with the shape (the walker's map).
 * - `derivation`: one sentence on how the set was obtained.
 */
export interface DraftVocabulary {
  draft: DraftId;
  schemaUri: string;
  keywords: ReadonlyMap<string, KeywordInfo>;
  positions: ReadonlyMap<string, SubschemaShape>;
  derivation: string;
}

/**
 * How draft-04 differs from draft-06, applied to the draft-06 meta-schema because no draft-04
 * meta-schema is installed (ajv 8 ships none; `ajv-draft-04` is not a dependency).
 *
 * Draft-04's own meta-schema (`http://json-schema.org/draft-04/schema#`, read from public copies)
 * lists `id` where draft-06 has `$id`, and lacks `const`, `contains`, `propertyNames`, `examples`
 * (added in 06); `exclusiveMaximum`/`exclusiveMinimum` exist in both (boolean modifiers in 04,
 * numbers from 06). `$ref` and `format` are not in draft-04's meta-schema `properties` but are
 * defined by its core (JSON Reference) and validation (§7) texts, so they stay.
 * Source: research/schema-vocabularies.md §1.1.
 */
export const DRAFT04_FROM_DRAFT06 = {
  remove: ['$id', 'const', 'contains', 'propertyNames', 'examples'],
  add: [{ keyword: 'id', kind: 'core' as KeywordKind, vocabulary: 'draft-04' }],
} as const;

const REFS = 'ajv/dist/refs';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function loadJson(path: string): JsonObject {
  const value: unknown = require(`${REFS}/${path}`);
  if (!isObject(value)) throw new TypeError(`[routecert] ${REFS}/${path} is not a JSON object`);
  return value;
}

/** A reference back to "a schema of this dialect". */
function isSelfRef(value: Json | undefined): boolean {
  if (!isObject(value)) return false;
  return value.$ref === '#' || value.$recursiveRef === '#' || value.$dynamicRef === '#meta';
}

function isSchemaArray(value: Json | undefined, defs: JsonObject): boolean {
  if (!isObject(value)) return false;
  if (typeof value.$ref === 'string') {
    const match = /^#\/(?:definitions|\$defs)\/([^/]+)$/.exec(value.$ref);
    const target = match?.[1] === undefined ? undefined : defs[match[1]];
    return target !== undefined && isSchemaArray(target, defs);
  }
  return value.type === 'array' && isSelfRef(value.items);
}

/** Reads a keyword's subschema shape off its meta-schema value. */
function shapeOf(value: Json | undefined, defs: JsonObject): SubschemaShape | undefined {
  if (!isObject(value)) return undefined;
  if (isSelfRef(value)) return 'schema';
  if (isSchemaArray(value, defs)) return 'array';
  const anyOf = value.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const self = anyOf.filter((branch) => isSelfRef(branch)).length;
    const arrays = anyOf.filter((branch) => isSchemaArray(branch, defs)).length;
    if (self === 1 && arrays === 1) return 'schema-or-array';
  }
  if (value.type === 'object' && isObject(value.additionalProperties)) {
    const each = value.additionalProperties;
    if (isSelfRef(each)) return 'map';
    if (Array.isArray(each.anyOf) && each.anyOf.some((branch) => isSelfRef(branch))) {
      return 'map-of-schema-or-strings';
    }
  }
  return undefined;
}

const VOCABULARY_KIND: Readonly<Record<string, KeywordKind>> = {
  core: 'core',
  applicator: 'applicator',
  unevaluated: 'applicator',
  validation: 'validation',
  'meta-data': 'annotation',
  content: 'annotation',
  format: 'annotation',
  'format-annotation': 'annotation',
};

/** What the meta-schemas cannot say (see the module comment). */
function overrideKind(keyword: string, draft: DraftId): KeywordKind | undefined {
  if (keyword === '$comment') return 'annotation';
  if (keyword === 'definitions') return 'core';
  if (keyword === 'format' && (draft === 'draft-04' || draft === 'draft-06' || draft === 'draft-07')) {
    return 'validation';
  }
  return undefined;
}

interface RawKeyword {
  keyword: string;
  vocabulary: string;
  subschema?: SubschemaShape;
  legacy: boolean;
  source: string;
}

function readProperties(file: string, meta: JsonObject, vocabulary: string, legacy: boolean): RawKeyword[] {
  const props = meta.properties;
  if (!isObject(props)) return [];
  const defs = isObject(meta.$defs) ? meta.$defs : isObject(meta.definitions) ? meta.definitions : {};
  return Object.keys(props).map((keyword) => {
    const raw: RawKeyword = {
      keyword,
      vocabulary,
      legacy,
      source: `${REFS}/${file}#/properties/${keyword}`,
    };
    const shape = shapeOf(props[keyword], defs);
    if (shape !== undefined) raw.subschema = shape;
    return raw;
  });
}

/** The vocabulary name of a 2019-09/2020-12 vocabulary meta-schema, from its `$vocabulary` URI. */
function vocabularyName(meta: JsonObject): string {
  const vocab = meta.$vocabulary;
  const uri = isObject(vocab) ? Object.keys(vocab)[0] : undefined;
  const name = uri?.split('/').pop();
  if (name === undefined || name === '') throw new TypeError('[routecert] vocabulary meta-schema without $vocabulary');
  return name;
}

function readModularDraft(folder: string): RawKeyword[] {
  const top = loadJson(`${folder}/schema.json`);
  const out: RawKeyword[] = [];
  const parts = Array.isArray(top.allOf) ? top.allOf : [];
  for (const part of parts) {
    if (!isObject(part) || typeof part.$ref !== 'string') continue;
    const file = `${folder}/${part.$ref}.json`;
    const meta = loadJson(file);
    pushAll(out, readProperties(file, meta, vocabularyName(meta), false));
  }
  pushAll(out, readProperties(`${folder}/schema.json`, top, 'legacy', true));
  return out;
}

function toInfo(raw: RawKeyword, kind: KeywordKind): KeywordInfo {
  const info: KeywordInfo = { keyword: raw.keyword, kind, vocabulary: raw.vocabulary, from: 'meta-schema', source: raw.source };
  if (raw.subschema !== undefined) info.subschema = raw.subschema;
  if (raw.legacy) info.legacy = true;
  return info;
}

function build(draft: DraftId, keywords: KeywordInfo[], derivation: string): DraftVocabulary {
  const map = new Map<string, KeywordInfo>();
  const positions = new Map<string, SubschemaShape>();
  for (const info of keywords) {
    if (map.has(info.keyword)) continue;
    map.set(info.keyword, info);
    if (info.subschema !== undefined) positions.set(info.keyword, info.subschema);
  }
  return { draft, schemaUri: SCHEMA_URIS[draft], keywords: map, positions, derivation };
}

function deriveAll(): ReadonlyMap<DraftId, DraftVocabulary> {
  const out = new Map<DraftId, DraftVocabulary>();

  // 2019-09 first: its vocabulary files classify the keywords of the older single-file drafts.
  const raw2019 = readModularDraft('json-schema-2019-09');
  const kind2019 = new Map<string, KeywordKind>();
  for (const raw of raw2019) {
    if (raw.legacy) continue;
    const kind = overrideKind(raw.keyword, '2019-09') ?? VOCABULARY_KIND[raw.vocabulary];
    if (kind !== undefined) kind2019.set(raw.keyword, kind);
  }

  const single = (draft: 'draft-06' | 'draft-07', file: string): KeywordInfo[] =>
    readProperties(file, loadJson(file), draft, false).map((raw) =>
      toInfo(raw, overrideKind(raw.keyword, draft) ?? kind2019.get(raw.keyword) ?? (raw.subschema ? 'applicator' : 'validation')),
    );

  const draft06 = single('draft-06', 'json-schema-draft-06.json');
  const draft07 = single('draft-07', 'json-schema-draft-07.json');
  draft07.push({
    keyword: 'writeOnly',
    kind: 'annotation',
    vocabulary: 'draft-07',
    from: 'spec-text',
    source: 'draft-07 validation text (draft-handrews-json-schema-validation-01 §10.3); absent from the published meta-schema',
  });
  const kind07 = new Map(draft07.map((info) => [info.keyword, info.kind]));

  const modular = (draft: '2019-09' | '2020-12', raws: RawKeyword[], previous: ReadonlyMap<string, KeywordKind>): KeywordInfo[] =>
    raws.map((raw) =>
      toInfo(
        raw,
        overrideKind(raw.keyword, draft) ??
          (raw.legacy ? previous.get(raw.keyword) : VOCABULARY_KIND[raw.vocabulary]) ??
          (raw.subschema ? 'applicator' : 'validation'),
      ),
    );

  const info2019 = modular('2019-09', raw2019, kind07);
  const kind2019All = new Map(info2019.map((info) => [info.keyword, info.kind]));
  const info2020 = modular('2020-12', readModularDraft('json-schema-2020-12'), new Map([...kind07, ...kind2019All]));

  const removed = new Set<string>(DRAFT04_FROM_DRAFT06.remove);
  const draft04: KeywordInfo[] = [];
  for (const info of draft06) {
    if (removed.has(info.keyword)) continue;
    draft04.push({ ...info, vocabulary: 'draft-04', from: 'draft-06-difference', source: `${info.source} (draft-04 by difference)` });
    if (info.keyword === '$schema') {
      for (const add of DRAFT04_FROM_DRAFT06.add) {
        draft04.push({ ...add, from: 'draft-06-difference', source: 'draft-04 meta-schema: id (renamed $id in draft-06)' });
      }
    }
  }

  out.set('draft-04', build('draft-04', draft04, 'derived from the draft-06 meta-schema by DRAFT04_FROM_DRAFT06 (no draft-04 meta-schema is installed)'));
  out.set('draft-06', build('draft-06', draft06, `properties of ${REFS}/json-schema-draft-06.json`));
  out.set('draft-07', build('draft-07', draft07, `properties of ${REFS}/json-schema-draft-07.json, plus writeOnly from the draft-07 text`));
  out.set('2019-09', build('2019-09', info2019, `properties of ${REFS}/json-schema-2019-09/schema.json and its vocabulary meta-schemas`));
  out.set('2020-12', build('2020-12', info2020, `properties of ${REFS}/json-schema-2020-12/schema.json and its vocabulary meta-schemas`));
  return out;
}

let cache: ReadonlyMap<DraftId, DraftVocabulary> | undefined;

/**
 * The vocabulary of one draft (derived once, then cached).
 *
 * @throws {TypeError} when an ajv meta-schema file is missing or malformed (a broken install).
 * @example
 * getVocabulary('2020-12').keywords.get('prefixItems')?.kind; // 'applicator'
 * getVocabulary('draft-07').positions.get('items');           // 'schema-or-array'
 */
export function getVocabulary(draft: DraftId): DraftVocabulary {
  cache ??= deriveAll();
  const vocabulary = cache.get(draft);
  if (vocabulary === undefined) throw new RangeError(`[routecert] unknown draft "${String(draft)}"; valid: ${DRAFTS.join(', ')}`);
  return vocabulary;
}

/** True when `value` is one of {@link DRAFTS}. */
export function isDraftId(value: unknown): value is DraftId {
  return typeof value === 'string' && (DRAFTS as readonly string[]).includes(value);
}

function normalizeUri(uri: string): string {
  return uri
    .trim()
    .replace(/#\/?$/, '')
    .replace(/^https:/i, 'http:')
    .toLowerCase();
}

const URI_TO_DRAFT: ReadonlyMap<string, DraftId> = new Map(
  DRAFTS.map((draft) => [normalizeUri(SCHEMA_URIS[draft]), draft] as const),
);

/**
 * Maps a `$schema` value to the draft it names, or `undefined` for anything else (not a string,
 * another meta-schema, the draft-less `http://json-schema.org/schema#`).
 *
 * Matching is lenient so that a misspelled URI is still identified (the lint rules then say which
 * validators refuse that spelling): a trailing `#` or `#/`, `http` vs `https`, surrounding
 * whitespace and letter case are ignored. Ajv itself only resolves the exact `$id` spellings
 * (with or without the trailing `#`).
 *
 * @example
 * draftFromSchemaUri('http://json-schema.org/draft-07/schema#');      // 'draft-07'
 * draftFromSchemaUri('https://json-schema.org/draft/2020-12/schema'); // '2020-12'
 * draftFromSchemaUri('https://example.com/my-meta');                  // undefined
 */
export function draftFromSchemaUri(uri: unknown): DraftId | undefined {
  if (typeof uri !== 'string') return undefined;
  return URI_TO_DRAFT.get(normalizeUri(uri));
}
