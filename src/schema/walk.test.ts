import { describe, expect, it } from 'vitest';
import { escapePointerToken } from '#src/pointer.ts';
import { DRAFTS, getVocabulary, type SubschemaShape } from '#src/schema/vocabularies.ts';
import { lenientPositions, walkSchema, type SchemaNode } from '#src/schema/walk.ts';

const pointers = (nodes: Iterable<SchemaNode>) => [...nodes].map((node) => node.pointer);
const MARK = { title: 'hit' };

/** A value of the given shape holding MARK (plus a boolean subschema), and the pointers it puts MARK at. */
function fixture(keyword: string, shape: SubschemaShape): { value: unknown; expected: string[] } {
  const at = `/${escapePointerToken(keyword)}`;
  switch (shape) {
    case 'schema':
      return { value: MARK, expected: [at] };
    case 'array':
      return { value: [MARK, true], expected: [`${at}/0`, `${at}/1`] };
    case 'map':
      return { value: { 'a/b': MARK, 'c~d': false }, expected: [`${at}/a~1b`, `${at}/c~0d`] };
    case 'schema-or-array':
      return { value: [MARK, false], expected: [`${at}/0`, `${at}/1`] };
    case 'map-of-schema-or-strings':
      return { value: { a: MARK, b: ['c', 'd'] }, expected: [`${at}/a`] };
  }
}

describe('walkSchema: one fixture per subschema position per draft', () => {
  for (const draft of DRAFTS) {
    describe(draft, () => {
      for (const [keyword, shape] of getVocabulary(draft).positions) {
        it(`visits ${keyword} (${shape})`, () => {
          const { value, expected } = fixture(keyword, shape);
          const nodes = [...walkSchema({ [keyword]: value }, { draft })];
          expect(pointers(nodes)).toEqual(['', ...expected]);
          for (const node of nodes.slice(1)) {
            expect(node.parentKeyword).toBe(keyword);
            expect(node.parent).toBe(nodes[0]);
            expect(node.depth).toBe(1);
          }
        });
      }
    });
  }

  it('visits the single-schema form of items before 2020-12', () => {
    expect(pointers(walkSchema({ items: { not: true } }, { draft: 'draft-07' }))).toEqual(['', '/items', '/items/not']);
  });

  it('skips the string-array values of dependencies', () => {
    const nodes = [...walkSchema({ dependencies: { a: ['b'], c: { required: ['d'] } } }, { draft: 'draft-07' })];
    expect(pointers(nodes)).toEqual(['', '/dependencies/c']);
    expect(nodes[1]?.key).toBe('c');
  });

  it('follows only the positions of the declared draft', () => {
    expect(pointers(walkSchema({ $schema: 'https://json-schema.org/draft/2020-12/schema', prefixItems: [true], additionalItems: false }))).toEqual([
      '',
      '/prefixItems/0',
    ]);
    expect(pointers(walkSchema({ prefixItems: [true], additionalItems: false }))).toEqual(['', '/additionalItems']);
  });

  it('follows other drafts positions too with lenientPositions', () => {
    const nodes = walkSchema({ $defs: { a: { not: true } }, prefixItems: [true] }, { positions: lenientPositions('draft-07') });
    expect(pointers(nodes)).toEqual(['', '/$defs/a', '/$defs/a/not', '/prefixItems/0']);
    expect(lenientPositions('2020-12').get('items')).toBe('schema-or-array');
  });
});

describe('walkSchema: what it visits', () => {
  it('yields boolean subschemas with their pointer', () => {
    const nodes = [...walkSchema({ not: false, additionalProperties: true })];
    expect(nodes.map((node) => [node.pointer, node.schema, node.parentKeyword])).toEqual([
      ['', { not: false, additionalProperties: true }, null],
      ['/not', false, 'not'],
      ['/additionalProperties', true, 'additionalProperties'],
    ]);
  });

  it('never enters enum, const, default or examples values, nor unknown keywords', () => {
    const schema = {
      enum: [{ properties: { a: {} } }],
      const: { not: {} },
      default: { items: {} },
      examples: [{ allOf: [{}] }],
      'x-meta': { properties: { a: {} } },
      properties: { enum: { const: { not: {} } } },
    };
    expect(pointers(walkSchema(schema))).toEqual(['', '/properties/enum']);
  });

  it('does not treat non-schema values at schema positions as subschemas', () => {
    expect(pointers(walkSchema({ not: 'x', allOf: [1, null, [], {}], properties: { a: 3 } }))).toEqual(['', '/allOf/3']);
  });

  it('walks in document order, pre-order, with increasing index', () => {
    const nodes = [...walkSchema({ properties: { a: { items: { not: {} } }, b: {} }, anyOf: [{}, {}] })];
    expect(pointers(nodes)).toEqual(['', '/properties/a', '/properties/a/items', '/properties/a/items/not', '/properties/b', '/anyOf/0', '/anyOf/1']);
    expect(nodes.map((node) => node.index)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('escapes ~ and / in pointers (RFC 6901)', () => {
    const nodes = [...walkSchema({ properties: { 'a/b': {}, 'm~n': {}, '~1': {}, '': {} }, patternProperties: { '^/x~$': {} } })];
    expect(pointers(nodes)).toEqual(['', '/properties/a~1b', '/properties/m~0n', '/properties/~01', '/properties/', '/patternProperties/^~1x~0$']);
    expect(nodes.slice(1).map((node) => node.key)).toEqual(['a/b', 'm~n', '~1', '', '^/x~$']);
  });

  it('yields nothing for a root that is not a schema', () => {
    for (const root of [null, 'x', 3, [], undefined]) expect([...walkSchema(root)]).toEqual([]);
  });

  it('reports a cycle once and does not follow it', () => {
    const a: Record<string, unknown> = { properties: {} };
    (a.properties as Record<string, unknown>).self = a;
    a.not = { anyOf: [a] };
    const cycles: string[] = [];
    const nodes = [...walkSchema(a, { onCycle: (pointer) => cycles.push(pointer) })];
    expect(pointers(nodes)).toEqual(['', '/not']);
    expect(cycles).toEqual(['/properties/self', '/not/anyOf/0']);
  });

  it('visits a shared (non-cyclic) object at each of its pointers', () => {
    const shared = { type: 'string' };
    expect(pointers(walkSchema({ properties: { a: shared, b: shared } }))).toEqual(['', '/properties/a', '/properties/b']);
  });

  it('walks 10,000-deep nesting without a stack overflow', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 10_000; i++) schema = i % 2 === 0 ? { not: schema } : { properties: { p: schema } };
    let count = 0;
    let last: SchemaNode | undefined;
    for (const node of walkSchema(schema)) {
      count++;
      last = node;
    }
    expect(count).toBe(10_001);
    expect(last?.depth).toBe(10_000);
    expect(last?.pointer.length).toBe(5000 * '/not'.length + 5000 * '/properties/p'.length);
  });

  it('walks a 10,000-deep JSON text parsed by JSON.parse', () => {
    const text = '{"items":'.repeat(10_000) + '{}' + '}'.repeat(10_000);
    expect([...walkSchema(JSON.parse(text))].length).toBe(10_001);
  });
});
