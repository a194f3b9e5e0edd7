import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import {
  DRAFT04_FROM_DRAFT06,
  DRAFTS,
  SCHEMA_URIS,
  draftFromSchemaUri,
  getVocabulary,
  isDraftId,
  type DraftId,
} from '#src/schema/vocabularies.ts';

const require = createRequire(import.meta.url);
const REFS = 'ajv/dist/refs';

type Meta = { properties?: Record<string, unknown>; allOf?: { $ref: string }[] };

/** Keys of every meta-schema a draft consists of, read here independently of the module. */
function metaKeys(draft: Exclude<DraftId, 'draft-04'>): Set<string> {
  if (draft === 'draft-06' || draft === 'draft-07') {
    return new Set(Object.keys((require(`${REFS}/json-schema-${draft}.json`) as Meta).properties ?? {}));
  }
  const folder = `${REFS}/json-schema-${draft}`;
  const top = require(`${folder}/schema.json`) as Meta;
  const keys = new Set(Object.keys(top.properties ?? {}));
  for (const part of top.allOf ?? []) {
    for (const key of Object.keys((require(`${folder}/${part.$ref}.json`) as Meta).properties ?? {})) keys.add(key);
  }
  return keys;
}

describe('getVocabulary', () => {
  it.each(['draft-06', '2019-09', '2020-12'] as const)('%s has exactly the keywords of the meta-schemas ajv ships', (draft) => {
    expect(new Set(getVocabulary(draft).keywords.keys())).toEqual(metaKeys(draft));
  });

  it('draft-07 has the meta-schema keywords plus writeOnly from the draft-07 text', () => {
    const keys = new Set(getVocabulary('draft-07').keywords.keys());
    expect(keys).toEqual(new Set([...metaKeys('draft-07'), 'writeOnly']));
    expect(getVocabulary('draft-07').keywords.get('writeOnly')?.from).toBe('spec-text');
  });

  it('draft-04 is draft-06 minus $id, const, contains, propertyNames, examples, plus id', () => {
    const expected = new Set(metaKeys('draft-06'));
    for (const removed of DRAFT04_FROM_DRAFT06.remove) expected.delete(removed);
    expected.add('id');
    const vocabulary = getVocabulary('draft-04');
    expect(new Set(vocabulary.keywords.keys())).toEqual(expected);
    expect([...vocabulary.keywords.values()].every((info) => info.from === 'draft-06-difference')).toBe(true);
    expect(vocabulary.derivation).toMatch(/no draft-04 meta-schema is installed/);
  });

  it('gives every keyword a kind and a source inside the ajv package or the spec text', () => {
    for (const draft of DRAFTS) {
      for (const info of getVocabulary(draft).keywords.values()) {
        expect(['core', 'applicator', 'validation', 'annotation']).toContain(info.kind);
        expect(info.source).toMatch(/ajv\/dist\/refs\/|draft-07 validation text|draft-04 meta-schema/);
      }
    }
  });

  it.each([
    ['draft-07', 'title', 'annotation'],
    ['draft-07', 'description', 'annotation'],
    ['draft-07', 'default', 'annotation'],
    ['draft-07', 'examples', 'annotation'],
    ['draft-07', '$comment', 'annotation'],
    ['draft-07', 'readOnly', 'annotation'],
    ['draft-07', 'contentMediaType', 'annotation'],
    ['draft-07', 'contentEncoding', 'annotation'],
    ['draft-07', 'format', 'validation'],
    ['draft-07', '$ref', 'core'],
    ['draft-07', '$id', 'core'],
    ['draft-07', '$schema', 'core'],
    ['draft-07', 'definitions', 'core'],
    ['draft-07', 'properties', 'applicator'],
    ['draft-07', 'dependencies', 'applicator'],
    ['draft-07', 'if', 'applicator'],
    ['draft-07', 'minLength', 'validation'],
    ['draft-07', 'const', 'validation'],
    ['draft-04', 'id', 'core'],
    ['2019-09', '$anchor', 'core'],
    ['2019-09', '$recursiveRef', 'core'],
    ['2019-09', 'deprecated', 'annotation'],
    ['2019-09', 'contentSchema', 'annotation'],
    ['2019-09', 'format', 'annotation'],
    ['2019-09', 'unevaluatedItems', 'applicator'],
    ['2019-09', 'dependentRequired', 'validation'],
    ['2020-12', '$defs', 'core'],
    ['2020-12', '$dynamicRef', 'core'],
    ['2020-12', 'prefixItems', 'applicator'],
    ['2020-12', 'unevaluatedProperties', 'applicator'],
    ['2020-12', 'format', 'annotation'],
    ['2020-12', 'definitions', 'core'],
    ['2020-12', 'dependencies', 'applicator'],
  ] as const)('%s %s is %s', (draft, keyword, kind) => {
    expect(getVocabulary(draft).keywords.get(keyword)?.kind).toBe(kind);
  });

  it('marks the keywords 2019-09/2020-12 keep only for compatibility as legacy', () => {
    const legacy = (draft: DraftId) => [...getVocabulary(draft).keywords.values()].filter((k) => k.legacy).map((k) => k.keyword);
    expect(legacy('2019-09').sort()).toEqual(['definitions', 'dependencies']);
    expect(legacy('2020-12').sort()).toEqual(['$recursiveAnchor', '$recursiveRef', 'definitions', 'dependencies']);
  });

  it('knows no keyword outside its draft', () => {
    expect(getVocabulary('draft-07').keywords.has('prefixItems')).toBe(false);
    expect(getVocabulary('draft-07').keywords.has('$defs')).toBe(false);
    expect(getVocabulary('2020-12').keywords.has('additionalItems')).toBe(false);
    expect(getVocabulary('draft-06').keywords.has('if')).toBe(false);
    expect(getVocabulary('draft-04').keywords.has('$id')).toBe(false);
  });

  it('throws a RangeError listing the drafts for an unknown one', () => {
    expect(() => getVocabulary('draft-03' as DraftId)).toThrow(/valid: draft-04, draft-06, draft-07, 2019-09, 2020-12/);
  });
});

describe('subschema positions', () => {
  const positions = (draft: DraftId) => Object.fromEntries(getVocabulary(draft).positions);

  it('reads draft-07 positions off its meta-schema', () => {
    expect(positions('draft-07')).toEqual({
      additionalItems: 'schema',
      items: 'schema-or-array',
      contains: 'schema',
      additionalProperties: 'schema',
      definitions: 'map',
      properties: 'map',
      patternProperties: 'map',
      dependencies: 'map-of-schema-or-strings',
      propertyNames: 'schema',
      if: 'schema',
      then: 'schema',
      else: 'schema',
      allOf: 'array',
      anyOf: 'array',
      oneOf: 'array',
      not: 'schema',
    });
  });

  it('reads 2020-12 positions, with items as one schema and prefixItems as an array', () => {
    const p = positions('2020-12');
    expect(p.items).toBe('schema');
    expect(p.prefixItems).toBe('array');
    expect(p.$defs).toBe('map');
    expect(p.dependentSchemas).toBe('map');
    expect(p.unevaluatedItems).toBe('schema');
    expect(p.unevaluatedProperties).toBe('schema');
    expect(p.contentSchema).toBe('schema');
    expect(p.additionalItems).toBeUndefined();
    expect(p.enum).toBeUndefined();
    expect(p.const).toBeUndefined();
    expect(p.default).toBeUndefined();
    expect(p.examples).toBeUndefined();
  });

  it('gives draft-04 the draft-06 positions without contains and propertyNames', () => {
    const p04 = positions('draft-04');
    const p06 = positions('draft-06');
    delete p06.contains;
    delete p06.propertyNames;
    expect(p04).toEqual(p06);
  });
});

describe('draftFromSchemaUri', () => {
  it.each([
    ['http://json-schema.org/draft-04/schema#', 'draft-04'],
    ['http://json-schema.org/draft-06/schema#', 'draft-06'],
    ['http://json-schema.org/draft-07/schema#', 'draft-07'],
    ['http://json-schema.org/draft-07/schema', 'draft-07'],
    ['https://json-schema.org/draft-07/schema#', 'draft-07'],
    ['https://json-schema.org/draft/2019-09/schema', '2019-09'],
    ['https://json-schema.org/draft/2020-12/schema', '2020-12'],
    ['https://json-schema.org/draft/2020-12/schema#', '2020-12'],
    [' HTTPS://JSON-SCHEMA.ORG/draft/2020-12/schema ', '2020-12'],
  ] as const)('%s -> %s', (uri, draft) => {
    expect(draftFromSchemaUri(uri)).toBe(draft);
  });

  it.each([['http://json-schema.org/schema#'], ['https://example.com/meta'], [7], [undefined], [null]])('%s -> undefined', (uri) => {
    expect(draftFromSchemaUri(uri)).toBeUndefined();
  });

  it('maps every canonical URI back to its draft', () => {
    for (const draft of DRAFTS) expect(draftFromSchemaUri(SCHEMA_URIS[draft])).toBe(draft);
    expect(isDraftId('2020-12')).toBe(true);
    expect(isDraftId('draft-03')).toBe(false);
  });
});
