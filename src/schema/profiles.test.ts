import { describe, expect, it } from 'vitest';
import { lintSchema } from '#src/schema/lint.ts';
import { PROFILES, PROFILE_NAMES, UnknownProfileError, getProfile } from '#src/schema/profiles.ts';

type Schema = Record<string, unknown>;

/** A strict-clean object schema: every property required, no additional properties. */
function obj(properties: Record<string, unknown>, extra: Schema = {}): Schema {
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false, ...extra };
}

const str = { type: 'string' };

/** `depth` nested objects (root counts 1). */
function nested(depth: number): Schema {
  let schema: Schema = obj({ leaf: str });
  for (let i = 1; i < depth; i++) schema = obj({ child: schema });
  return schema;
}

function manyProperties(count: number, each: unknown = str): Schema {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) properties[`p${i}`] = each;
  return obj(properties);
}

/** The minimal good schema every profile takes but Gemini's legacy responseSchema (no additionalProperties there). */
const GOOD = obj({ a: str });
const GOOD_LEGACY_GEMINI = { type: 'object', properties: { a: str }, required: ['a'] };
/** The minimal good schema of each profile. */
const minimalGood = (profile: string): Schema => (profile === 'gemini-response-schema' ? GOOD_LEGACY_GEMINI : GOOD);

/** A richer schema each profile still takes. */
const GOOD_PER_PROFILE: Record<string, Schema> = {
  'claude-code': {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: { a: { type: 'string', minLength: 1, pattern: '^a', format: 'email', $comment: 'c', default: 'a', examples: ['a'] }, b: { $ref: '#/definitions/b' } },
    definitions: { b: { type: 'integer', minimum: 1, multipleOf: 2 } },
    required: ['a'],
    if: { required: ['b'] },
    then: { required: ['a'] },
  },
  'qwen-code': {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { t: { type: 'array', prefixItems: [str], items: false }, d: { $ref: '#/$defs/d' } },
    $defs: { d: { type: 'string', minLength: 1 } },
    dependentRequired: { t: ['d'] },
  },
  codex: obj({ a: { type: 'string', format: 'date-time', pattern: '^2', description: 'd' }, n: { type: ['integer', 'null'], minimum: 0 }, l: { type: 'array', items: str, minItems: 1, maxItems: 3 } }, { $schema: 'http://json-schema.org/draft-07/schema#', title: 't' }),
  'openai-strict': obj({ k: { anyOf: [{ $ref: '#/$defs/k' }, { type: 'null' }] } }, { $defs: { k: obj({ v: { type: 'string', enum: ['x', 'y'] } }) } }),
  anthropic: {
    type: 'object',
    properties: { a: { type: 'string', format: 'uri', pattern: '^h' }, b: { type: 'array', items: str, minItems: 1 }, c: { allOf: [{ type: 'string' }] } },
    required: ['a'],
    additionalProperties: false,
  },
  'gemini-response-schema': {
    type: 'OBJECT',
    description: 'd',
    properties: {
      a: { type: 'STRING', format: 'date-time', nullable: true, minLength: 1, pattern: '^2' },
      n: { type: 'integer', format: 'int64', minimum: 0, maximum: 9 },
      l: { type: 'array', items: { type: 'string', enum: ['x', 'y'] }, minItems: 1, maxItems: 3 },
      o: { type: 'object', properties: { b: { type: 'boolean' } }, propertyOrdering: ['b'] },
    },
    required: ['a'],
    propertyOrdering: ['a', 'n', 'l', 'o'],
  },
  gemini: { type: 'object', properties: { a: { type: 'string', format: 'date' }, b: { type: 'number', minimum: 0, maximum: 1 }, next: { $ref: '#' } }, required: ['a'], propertyOrdering: ['a', 'b', 'next'] },
  xgrammar: {
    type: 'object',
    properties: { a: { type: 'string', maxLength: 3 }, b: { type: 'string', pattern: '^b' }, c: { type: 'number', minimum: 0 }, m: { type: 'object', patternProperties: { '^x': str } } },
    additionalProperties: true,
  },
  portable: obj({ a: { type: ['string', 'null'], description: 'd' }, b: { $ref: '#/$defs/b' }, c: { type: 'array', items: str, minItems: 1 } }, { $schema: 'http://json-schema.org/draft-07/schema#', $defs: { b: obj({ when: { type: 'string', format: 'date-time' }, kind: { type: ['string', 'null'], enum: ['x', null] } }) } }),
};

const OPENAI_BAD: Record<string, Schema> = {
  'root-object': { type: 'array', items: str },
  'root-union': obj({}, { anyOf: [obj({ a: str })] }),
  'property-type': obj({ a: { description: 'any value' } }),
  'additional-properties-false': { type: 'object', properties: { a: str }, required: ['a'] },
  'required-all': obj({ a: str, b: str }, { required: ['a'] }),
  'unsupported-keyword': obj({ a: { allOf: [str] } }),
  'rejected-keyword': obj({ a: { type: 'array', items: str, uniqueItems: true } }),
  'disputed-keyword': obj({ a: { type: 'string', default: 'x' } }),
  'unlisted-keyword': obj({ a: { type: 'string', 'x-meta': 1 } }),
  'tuple-items': obj({ a: { type: 'array', items: [str] } }),
  'array-items': obj({ a: { type: 'array' } }),
  format: obj({ a: { type: 'string', format: 'uri' } }),
  'max-nesting': nested(11),
  'max-properties': manyProperties(5001),
  'max-enum-values': obj({ a: { type: 'integer', enum: Array.from({ length: 1001 }, (_, i) => i) } }),
  'max-string-length': obj({ a: { type: 'string', enum: ['x'.repeat(120_001)] } }),
};

/** For each profile, one minimal schema per rule that must make that rule fire. */
const BAD: Record<string, Record<string, Schema>> = {
  'claude-code': {
    'schema-uri': { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' },
    'unknown-keyword': { type: 'object', 'x-meta': {} },
    'if-without-branches': { type: 'object', if: { required: ['a'] } },
    'root-union': { type: 'object', anyOf: [{ required: ['a'] }, { required: ['b'] }] },
    'root-type': { properties: { a: str } },
    'root-object': { type: 'array', items: str },
  },
  'qwen-code': {
    'schema-uri': { $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'object' },
    'unknown-keyword': { type: 'object', _meta: {} },
    'if-without-branches': { type: 'object', if: { required: ['a'] } },
  },
  codex: OPENAI_BAD,
  'openai-strict': OPENAI_BAD,
  anthropic: {
    'root-object': { type: 'string' },
    'root-union': { type: 'object', anyOf: [obj({ a: str })], additionalProperties: false },
    'additional-properties-false': { type: 'object', properties: { a: str } },
    'unsupported-keyword': obj({ a: { type: 'integer', minimum: 1 } }),
    'rejected-keyword': obj({ a: { type: 'string', not: { const: 'x' } } }),
    'unlisted-keyword': obj({ a: { oneOf: [str, { type: 'null' }] } }),
    'min-items': obj({ a: { type: 'array', items: str, minItems: 2 } }),
    'tuple-items': obj({ a: { type: 'array', items: [str] } }),
    format: obj({ a: { type: 'string', format: 'phone' } }),
    'enum-primitive': obj({ a: { enum: [{ x: 1 }] } }),
    'allof-with-ref': obj({ a: { allOf: [{ $ref: '#/$defs/s' }] } }, { $defs: { s: str } }),
    'external-ref': obj({ a: { $ref: 'other.json#/x' } }),
    'recursive-ref': obj({ next: { anyOf: [{ $ref: '#' }, { type: 'null' }] } }),
    'pattern-subset': obj({ a: { type: 'string', pattern: '(?=a)\\w+' } }),
    'optional-budget': { ...manyProperties(25), required: [] },
    'union-budget': manyProperties(17, { type: ['string', 'null'] }),
  },
  gemini: {
    'ignored-keyword': obj({ a: { type: 'string', minLength: 1 } }),
    'unknown-keyword': obj({ a: { type: 'string', 'x-foo': true } }),
    'ref-siblings': obj({ a: { $ref: '#/$defs/a', description: 'x' } }, { $defs: { a: str } }),
    'enum-values': obj({ a: { enum: [true, false] } }),
    format: obj({ a: { type: 'string', format: 'email' } }),
    'recursive-required': { type: 'object', properties: { next: { $ref: '#' } }, required: ['next'] },
  },
  'gemini-response-schema': {
    'unknown-field': { type: 'object', properties: { a: { type: 'object', properties: { b: str }, additionalProperties: false } } },
    'type-required': { type: 'object', properties: { a: { description: 'no type' } } },
    'single-type': { type: 'object', properties: { a: { type: ['string', 'null'] } } },
    'any-of-newer-models': { type: 'object', properties: { a: { anyOf: [str, { type: 'integer' }] } } },
    'enum-strings': { type: 'object', properties: { a: { type: 'integer', enum: [1, 2] } } },
    format: { type: 'object', properties: { a: { type: 'string', format: 'email' } } },
  },
  xgrammar: {
    'multiple-of': { type: 'integer', multipleOf: 2 },
    'array-keyword': { type: 'array', items: str, uniqueItems: true },
    format: { type: 'string', format: 'phone' },
    'length-with-pattern': { type: 'string', pattern: '^a', maxLength: 3 },
    'property-names-conflict': { type: 'object', properties: { a: str }, propertyNames: { pattern: '^a' } },
    'pattern-properties': { type: 'object', patternProperties: { '^a': str, '^b': str } },
    'unenforced-keyword': { type: 'object', not: { required: ['a'] } },
    'unknown-keyword': { type: 'object', 'x-foo': 1 },
  },
  portable: {
    'schema-uri': { ...GOOD, $schema: 'http://json-schema.org/draft-07/schema' },
    'root-object': { type: ['object', 'null'] },
    'root-composition': { $ref: '#/$defs/root', $defs: { root: GOOD } },
    'property-type': obj({ a: { type: 'array', items: {} } }),
    'additional-properties-false': { type: 'object', properties: { a: str }, required: ['a'] },
    'required-all': obj({ a: str, b: str }, { required: ['b'] }),
    'outside-subset': obj({ a: { oneOf: [str] } }),
    'annotation-outside-subset': obj({ a: { type: 'string', $comment: 'internal' } }),
    'items-single-schema': obj({ a: { type: 'array', items: [str] } }),
    'min-items': obj({ a: { type: 'array', items: str, minItems: 3 } }),
    format: obj({ a: { type: 'string', format: 'email' } }),
    'enum-primitive': obj({ a: { enum: [[1]] } }),
    'type-null-union': obj({ a: { type: ['string', 'number'] } }),
    'ref-local': obj({ a: { $ref: 'https://example.com/a.json' } }),
    'ref-siblings': obj({ a: { $ref: '#/$defs/a', description: 'x' } }, { $defs: { a: str } }),
    'recursive-ref': obj({ a: { $ref: '#/$defs/node' } }, { $defs: { node: obj({ next: { anyOf: [{ $ref: '#/$defs/node' }, { type: 'null' }] } }) } }),
    'union-budget': manyProperties(17, { type: ['string', 'null'] }),
    'max-nesting': nested(11),
    'max-properties': manyProperties(5001),
    'max-enum-values': obj({ a: { type: 'integer', enum: Array.from({ length: 1001 }, (_, i) => i) } }),
    'max-string-length': obj({ a: { type: 'string', enum: ['x'.repeat(120_001)] } }),
  },
};

describe('profiles', () => {
  it('has every profile the brief names, each rule with an id, description, source and hint', () => {
    expect(PROFILE_NAMES).toEqual(['claude-code', 'qwen-code', 'codex', 'openai-strict', 'anthropic', 'gemini', 'gemini-response-schema', 'xgrammar', 'portable']);
    for (const profile of PROFILES) {
      expect(profile.source.length).toBeGreaterThan(0);
      const ids = profile.rules.map((rule) => rule.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const rule of profile.rules) {
        expect(rule.id).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
        expect(rule.description.length).toBeGreaterThan(10);
        expect(rule.source.length).toBeGreaterThan(10);
        expect(rule.hint.length).toBeGreaterThan(5);
      }
    }
  });

  it('marks research-table inferences as inferred in the source', () => {
    const source = (profile: string, rule: string) => getProfile(profile).rules.find((r) => r.id === rule)?.source ?? '';
    expect(source('claude-code', 'root-object')).toMatch(/inferred/);
    expect(source('claude-code', 'if-without-branches')).toMatch(/inferred/);
    expect(source('openai-strict', 'unlisted-keyword')).toMatch(/inferred/);
    expect(source('anthropic', 'unlisted-keyword')).toMatch(/inferred/);
    expect(source('xgrammar', 'unenforced-keyword')).toMatch(/inferred/);
    expect(source('qwen-code', 'schema-uri')).toMatch(/inferred/);
  });

  it('throws UnknownProfileError listing the valid profiles', () => {
    expect(() => getProfile('openai')).toThrow(UnknownProfileError);
    expect(() => getProfile('openai')).toThrow(/\[routecert\] unknown profile "openai"\. Valid profiles: claude-code, qwen-code, codex/);
  });

  it('has a bad fixture for every rule of every profile, and no stale fixture', () => {
    for (const profile of PROFILES) {
      expect(Object.keys(BAD[profile.name] ?? {}).sort()).toEqual(profile.rules.map((rule) => rule.id).sort());
    }
  });
});

for (const profile of PROFILES) {
  describe(`profile ${profile.name}`, () => {
    it('stays quiet on the minimal good schema', () => {
      expect(lintSchema(minimalGood(profile.name), { profiles: [profile.name] })).toEqual([]);
    });

    it('stays quiet on a richer schema it takes', () => {
      expect(lintSchema(GOOD_PER_PROFILE[profile.name], { profiles: [profile.name] })).toEqual([]);
    });

    for (const rule of profile.rules) {
      it(`${rule.id} fires on a minimal bad schema`, () => {
        const bad = BAD[profile.name]?.[rule.id];
        const findings = lintSchema(bad, { profiles: [profile.name] }).filter((f) => f.rule === rule.id);
        expect(findings.length).toBeGreaterThan(0);
        for (const finding of findings) {
          expect(finding.profile).toBe(profile.name);
          expect(finding.hint.length).toBeGreaterThan(0);
          expect(['error', 'warning']).toContain(finding.severity);
        }
      });
    }
  });
}

describe('rule details', () => {
  const rules = (schema: unknown, profile: string) => lintSchema(schema, { profiles: [profile] }).map((f) => `${f.rule} ${f.pointer} ${f.keyword} ${f.severity}`);

  it('claude-code accepts the draft-07 URI with and without "#", refuses its https spelling', () => {
    expect(rules({ $schema: 'http://json-schema.org/draft-07/schema', type: 'object' }, 'claude-code')).toEqual([]);
    expect(rules({ $schema: 'https://json-schema.org/draft-07/schema#', type: 'object' }, 'claude-code')).toEqual(['schema-uri  $schema error']);
  });

  it('claude-code checks unknown keywords against Ajv draft-07 whatever the declared draft', () => {
    expect(rules({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', prefixItems: [true] }, 'claude-code')).toEqual([
      'schema-uri  $schema error',
      'unknown-keyword  prefixItems error',
    ]);
    expect(rules({ type: 'object', $defs: { a: { type: 'string' } }, writeOnly: true, nullable: true }, 'claude-code')).toEqual([]);
  });

  it('claude-code names "id" with Ajv\'s own words', () => {
    const [finding] = lintSchema({ type: 'object', id: 'x' }, { profiles: ['claude-code'] });
    expect(finding?.message).toMatch(/NOT SUPPORTED: keyword "id", use "\$id"/);
  });

  it('claude-code only warns for an unknown keyword inside an unreferenced definition', () => {
    expect(rules({ type: 'object', definitions: { x: { _meta: 1 } } }, 'claude-code')).toEqual(['unknown-keyword /definitions/x _meta warning']);
    expect(rules({ type: 'object', definitions: { x: { _meta: 1 } }, properties: { a: { $ref: '#/definitions/x' } } }, 'claude-code')).toEqual([
      'unknown-keyword /definitions/x _meta error',
    ]);
  });

  it('qwen-code uses Ajv2020 for a 2020-12 $schema and Ajv draft-07 otherwise', () => {
    expect(rules({ $schema: 'https://json-schema.org/draft/2020-12/schema#', type: 'object', prefixItems: [true] }, 'qwen-code')).toEqual([]);
    expect(rules({ type: 'object', prefixItems: [true] }, 'qwen-code')).toEqual(['unknown-keyword  prefixItems error']);
  });

  it('openai-strict treats an object without "type" but with "properties" as an object', () => {
    expect(rules(obj({ a: { properties: { b: str }, required: ['b'] } }), 'openai-strict')).toEqual([
      'property-type /properties/a  error',
      'additional-properties-false /properties/a additionalProperties error',
    ]);
  });

  it('openai max-nesting points at the first too-deep object', () => {
    const [finding] = lintSchema(nested(11), { profiles: ['openai-strict'] });
    expect(finding?.pointer).toBe('/properties/child'.repeat(10));
    expect(lintSchema(nested(10), { profiles: ['openai-strict'] })).toEqual([]);
  });

  it('anthropic pattern-subset ignores escaped and in-class look-alikes', () => {
    expect(rules(obj({ a: { type: 'string', pattern: '[\\b]\\\\b\\(\\?=' } }), 'anthropic')).toEqual([]);
    expect(rules(obj({ a: { type: 'string', pattern: '(a)\\1' } }), 'anthropic')).toEqual(['pattern-subset /properties/a pattern error']);
    expect(rules(obj({ a: { type: 'string', pattern: '\\bword' } }), 'anthropic')).toEqual(['pattern-subset /properties/a pattern error']);
  });

  it('gemini allows recursion under an optional property', () => {
    expect(rules({ type: 'object', properties: { next: { $ref: '#' } } }, 'gemini')).toEqual([]);
  });

  it('xgrammar gates its checks on the declared type, as vLLM does', () => {
    expect(rules({ multipleOf: 2 }, 'xgrammar')).toEqual([]);
    expect(rules({ type: ['number', 'null'], multipleOf: 2 }, 'xgrammar')).toEqual(['multiple-of  multipleOf error']);
    expect(rules({ type: 'object', propertyNames: { pattern: '^a', maxLength: 3 } }, 'xgrammar')).toEqual(['length-with-pattern /propertyNames maxLength error']);
  });

  it('portable explains why an excluded keyword is excluded', () => {
    const [finding] = lintSchema(obj({ a: { type: 'string', minLength: 1 } }), { profiles: ['portable'] });
    expect(finding?.message).toMatch(/Anthropic docs list it as unsupported/);
    const [unknown] = lintSchema(obj({ a: { type: 'string', _meta: 1 } }), { profiles: ['portable'] });
    expect(unknown?.message).toMatch(/not a JSON Schema keyword/);
  });
});
