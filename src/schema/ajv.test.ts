import { describe, expect, it } from 'vitest';
import { UnsupportedDraftError, ajvKnownKeywords, compileSchema, createAjv } from '#src/schema/ajv.ts';

describe('createAjv', () => {
  it('compiles a draft-06 schema against the draft-06 meta-schema', () => {
    const ajv = createAjv('draft-06');
    const validate = ajv.compile({ $schema: 'http://json-schema.org/draft-06/schema#', type: 'array', contains: { const: 1 } });
    expect(validate([0, 1])).toBe(true);
    expect(validate([0])).toBe(false);
  });

  it('compiles draft-07 if/then/else', () => {
    const validate = createAjv('draft-07').compile({ if: { const: 1 }, then: { type: 'integer' }, else: { type: 'string' } });
    expect(validate(1)).toBe(true);
    expect(validate(2)).toBe(false);
  });

  it('compiles 2019-09 dependentRequired and 2020-12 prefixItems', () => {
    const dep = createAjv('2019-09').compile({ $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'object', dependentRequired: { a: ['b'] } });
    expect(dep({ a: 1 })).toBe(false);
    const tuple = createAjv('2020-12').compile({ type: 'array', prefixItems: [{ type: 'string' }], minItems: 1, items: false });
    expect(tuple(['x'])).toBe(true);
    expect(tuple([])).toBe(false);
    expect(tuple(['x', 1])).toBe(false);
  });

  it('adds ajv-formats to every instance', () => {
    for (const draft of ['draft-06', 'draft-07', '2019-09', '2020-12'] as const) {
      const validate = createAjv(draft).compile({ type: 'string', format: 'email' });
      expect(validate('a@example.com')).toBe(true);
      expect(validate('not an email')).toBe(false);
    }
  });

  it('throws UnsupportedDraftError with a stable code for draft-04', () => {
    expect(() => createAjv('draft-04')).toThrow(UnsupportedDraftError);
    try {
      createAjv('draft-04');
    } catch (error) {
      expect((error as UnsupportedDraftError).code).toBe('ROUTECERT_DRAFT_UNSUPPORTED');
      expect((error as Error).message).toMatch(/^\[routecert\] no Ajv class for draft-04: .*ajv-draft-04/);
    }
  });

  it('passes options through (strict mode is Ajv\'s default)', () => {
    expect(() => createAjv('draft-07').compile({ 'x-meta': 1 })).toThrow(/strict mode: unknown keyword: "x-meta"/);
    expect(() => createAjv('draft-07', { strictSchema: false }).compile({ 'x-meta': 1 })).not.toThrow();
  });
});

describe('compileSchema', () => {
  it('picks the class from $schema', () => {
    expect(compileSchema({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'array', prefixItems: [{ type: 'string' }], minItems: 1, items: false })([1])).toBe(false);
    expect(compileSchema({ $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'object', dependentRequired: { a: ['b'] } })({ a: 1 })).toBe(false);
    expect(compileSchema({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', required: ['a'] })({})).toBe(false);
  });

  it('defaults to draft-07 and throws Ajv\'s error for a schema it refuses', () => {
    expect(() => compileSchema({ type: 'object', prefixItems: [] })).toThrow(/unknown keyword: "prefixItems"/);
    expect(() => compileSchema({ $schema: 'http://json-schema.org/draft-04/schema#' })).toThrow(UnsupportedDraftError);
  });

  it('compiles the same $id twice (a fresh instance per call)', () => {
    const schema = { $id: 'urn:routecert:test', type: 'string' };
    expect(compileSchema(schema)('x')).toBe(true);
    expect(compileSchema(schema)('x')).toBe(true);
  });
});

describe('ajvKnownKeywords', () => {
  it('is Ajv\'s strict-mode keyword set of the class, without "id"', () => {
    const draft07 = ajvKnownKeywords('draft-07');
    expect(draft07.has('$defs')).toBe(true);
    expect(draft07.has('writeOnly')).toBe(true);
    expect(draft07.has('prefixItems')).toBe(false);
    expect(draft07.has('$anchor')).toBe(false);
    expect(draft07.has('id')).toBe(false);
    expect(ajvKnownKeywords('2020-12').has('prefixItems')).toBe(true);
    expect(ajvKnownKeywords('2020-12').has('additionalItems')).toBe(false);
  });
});
