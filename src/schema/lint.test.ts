import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keywordPointer, lintFiles, lintJsonText, lintSchema } from '#src/schema/lint.ts';
import { UnknownProfileError } from '#src/schema/profiles.ts';

const str = { type: 'string' };

describe('lintSchema', () => {
  it('reports _meta three levels down at its exact pointer for claude-code', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'object', properties: { b: { type: 'object', properties: { c: { type: 'string', _meta: { note: 'x' } } } } } } },
    };
    const findings = lintSchema(schema, { profiles: ['claude-code'], file: 'x.schema.json' });
    expect(findings).toEqual([
      {
        file: 'x.schema.json',
        pointer: '/properties/a/properties/b/properties/c',
        keyword: '_meta',
        profile: 'claude-code',
        rule: 'unknown-keyword',
        message: expect.stringMatching(/^\/properties\/a\/properties\/b\/properties\/c\/_meta: unknown keyword; .*strict mode: unknown keyword: "_meta"/),
        hint: expect.any(String),
        severity: 'error',
      },
    ]);
  });

  it('escapes ~ and / in the pointer and in the message', () => {
    const schema = { type: 'object', properties: { 'a/b': { properties: { 'm~n': { 'x/y~z': 1 } } } } };
    const [finding] = lintSchema(schema, { profiles: ['claude-code'] });
    expect(finding?.pointer).toBe('/properties/a~1b/properties/m~0n');
    expect(finding?.keyword).toBe('x/y~z');
    expect(finding?.message.startsWith('/properties/a~1b/properties/m~0n/x~1y~0z: ')).toBe(true);
    expect(keywordPointer('', '')).toBe('(root)');
  });

  it('uses draft-07 when there is no $schema, and the declared draft otherwise', () => {
    const gemini = (schema: object) => lintSchema(schema, { profiles: ['gemini'] }).map((f) => `${f.rule}:${f.keyword}`);
    expect(gemini({ type: 'object', dependentRequired: { a: ['b'] } })).toEqual(['unknown-keyword:dependentRequired']);
    expect(gemini({ $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'object', dependentRequired: { a: ['b'] } })).toEqual([
      'ignored-keyword:dependentRequired',
    ]);
  });

  it('flags an unrecognised $schema for every profile and checks against draft-07', () => {
    const findings = lintSchema({ $schema: 'https://example.com/meta', type: 'object', 'x-a': 1 }, { profiles: ['xgrammar'] });
    expect(findings.map((f) => `${f.profile}/${f.rule} ${f.keyword} ${f.severity}`)).toEqual([
      '*/unknown-schema-uri $schema warning',
      'xgrammar/unknown-keyword x-a warning',
    ]);
    expect(findings[1]?.message).toMatch(/not a draft-07 keyword/);
  });

  it('finds offending keywords under keywords of another draft ($defs in draft-07)', () => {
    const findings = lintSchema({ type: 'object', $defs: { a: { type: 'string', 'x-deep': 1 } } }, { profiles: ['portable'] });
    expect(findings.map((f) => `${f.pointer} ${f.keyword}`)).toContain('/$defs/a x-deep');
  });

  it('never reads enum, const, default or examples values as schemas', () => {
    const schema = { type: 'object', enum: [{ _meta: 1 }], const: { _meta: 1 }, default: { _meta: 1 }, examples: [{ properties: { a: { _meta: 1 } } }] };
    expect(lintSchema(schema, { profiles: ['claude-code'] })).toEqual([]);
  });

  it('reports a non-schema document once, for every profile', () => {
    expect(lintSchema([{ type: 'object' }], { profiles: ['claude-code', 'codex'] })).toEqual([
      expect.objectContaining({ profile: '*', rule: 'not-a-schema', pointer: '', keyword: '', severity: 'error', message: '(root): the document is an array, not a JSON Schema' }),
    ]);
  });

  it('reports a cyclic object graph without looping', () => {
    const a: Record<string, unknown> = { type: 'object' };
    a.not = a;
    const findings = lintSchema(a, { profiles: ['claude-code'] });
    expect(findings).toEqual([expect.objectContaining({ profile: '*', rule: 'cyclic-object', pointer: '/not' })]);
  });

  it('orders findings by document position, then profile, then rule', () => {
    const schema = { type: 'object', properties: { a: { type: 'string', _meta: 1 } }, _x: 1 };
    const order = lintSchema(schema, { profiles: ['portable', 'claude-code'] }).map((f) => `${f.pointer}|${f.profile}/${f.rule}|${f.keyword}`);
    expect(order).toEqual([
      '|portable/additional-properties-false|additionalProperties',
      '|portable/required-all|required',
      '|portable/outside-subset|_x',
      '|claude-code/unknown-keyword|_x',
      '/properties/a|portable/outside-subset|_meta',
      '/properties/a|claude-code/unknown-keyword|_meta',
    ]);
  });

  it('lints a 10,000-deep schema without throwing and finds the keyword at the bottom', () => {
    let schema: Record<string, unknown> = { type: 'string', _meta: 1 };
    for (let i = 0; i < 10_000; i++) schema = { type: 'object', properties: { p: schema } };
    const findings = lintSchema(schema, { profiles: ['claude-code', 'portable', 'anthropic'] });
    const meta = findings.filter((f) => f.keyword === '_meta' && f.profile === 'claude-code');
    expect(meta).toHaveLength(1);
    expect(meta[0]?.pointer).toBe('/properties/p'.repeat(10_000));
    expect(findings.some((f) => f.profile === 'portable' && f.rule === 'max-nesting')).toBe(true);
  });

  it('lints a 10,000-deep $ref chain (recursion analysis stays iterative)', () => {
    let schema: Record<string, unknown> = { $ref: '#' };
    for (let i = 0; i < 10_000; i++) schema = { anyOf: [schema] };
    const findings = lintSchema({ type: 'object', properties: { a: schema } }, { profiles: ['anthropic'] });
    expect(findings.filter((f) => f.rule === 'recursive-ref')).toHaveLength(1);
  });

  it('throws UnknownProfileError before looking at the schema', () => {
    expect(() => lintSchema({}, { profiles: ['claude'] })).toThrow(UnknownProfileError);
  });
});

describe('a schema its draft\'s meta-schema refuses', () => {
  it('is an error under every JSON Schema profile, at the JSON Pointer of the bad member (lint said "ok" for "type": "strng", which init refused)', () => {
    const schema = { type: 'object', properties: { summary: { type: 'strng' }, n: { type: 'string', minLength: -1 } } };
    for (const profile of ['claude-code', 'portable', 'openai-strict', 'codex', 'gemini', 'qwen-code']) {
      const findings = lintSchema(schema, { profiles: [profile] }).filter((f) => f.rule === 'invalid-schema');
      expect(findings.map((f) => [f.pointer, f.keyword, f.severity]), profile).toEqual([
        ['/properties/summary', 'type', 'error'],
        ['/properties/n', 'minLength', 'error'],
      ]);
      expect(findings[0]!.message).toContain('must be equal to one of the allowed values: "array", "boolean"');
    }
    // An empty enum passes the 2020-12 meta-schema, yet no value satisfies it and Ajv refuses it.
    const empty = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { a: { enum: [] } } };
    expect(lintSchema(empty, { profiles: ['codex'] }).filter((f) => f.rule === 'invalid-schema').map((f) => [f.pointer, f.keyword])).toEqual([['/properties/a', 'enum']]);
    // Gemini's legacy Schema message is OpenAPI 3.0, where "type": "OBJECT" is right.
    expect(lintSchema({ type: 'OBJECT', properties: { a: { type: 'STRING' } } }, { profiles: ['gemini-response-schema'] }).filter((f) => f.rule === 'invalid-schema')).toEqual([]);
    expect(lintSchema({ type: 'object', properties: { a: { type: 'string' } } }, { profiles: ['claude-code'] })).toEqual([]);
  });
});

describe('lintJsonText', () => {
  it('reports invalid JSON with line and column, nothing else', () => {
    const findings = lintJsonText('{\n  "type": "object",\n  "properties": { "a": }\n}', { profiles: ['claude-code'], file: 'bad.schema.json' });
    expect(findings).toEqual([
      expect.objectContaining({ file: 'bad.schema.json', profile: '*', rule: 'invalid-json', line: 3, column: 24, severity: 'error' }),
    ]);
    expect(findings[0]?.message).toMatch(/^invalid JSON at line 3, column 24: /);
  });

  it('ignores a leading byte-order mark', () => {
    expect(lintJsonText('\ufeff{"type":"object"}', { profiles: ['claude-code'] })).toEqual([]);
  });

  it('reports an empty file at line 1, column 1', () => {
    expect(lintJsonText('', { profiles: ['portable'] })[0]).toMatchObject({ rule: 'invalid-json', line: 1, column: 1 });
  });
});

describe('lintFiles', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'routecert-schema-lint-'));
    await mkdir(join(dir, 'nested', 'deeper'), { recursive: true });
    await mkdir(join(dir, 'node_modules'), { recursive: true });
    await mkdir(join(dir, 'bundled'), { recursive: true });
    await mkdir(join(dir, 'broken-manifest'), { recursive: true });
    await mkdir(join(dir, 'empty'), { recursive: true });
    const clean = JSON.stringify({ type: 'object', properties: { a: str }, required: ['a'], additionalProperties: false });
    await writeFile(join(dir, 'a.schema.json'), clean);
    await writeFile(join(dir, 'nested', 'deeper', 'b.schema.json'), '{\n  "type": "object",\n  "oops"\n}');
    await writeFile(join(dir, 'nested', 'not-a-schema.json'), '{ "type": "object", "_meta": 1 }');
    await writeFile(join(dir, 'node_modules', 'c.schema.json'), '{ "_meta": 1 }');
    await writeFile(join(dir, 'bundled', 'loose.schema.json'), JSON.stringify({ type: 'object', properties: { a: { type: 'string', minLength: 1 } } }));
    await writeFile(join(dir, 'bundled', 'listed.schema.json'), JSON.stringify({ type: 'object', properties: { a: { type: 'string', minLength: 1 } } }));
    await writeFile(join(dir, 'bundled', 'profiles.json'), JSON.stringify({ schemas: { 'listed.schema.json': { profiles: ['claude-code'] } } }));
    await writeFile(join(dir, 'broken-manifest', 'x.schema.json'), clean);
    await writeFile(join(dir, 'broken-manifest', 'profiles.json'), JSON.stringify({ schemas: { 'x.schema.json': { profiles: ['nope'] } } }));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('recurses into folders for *.schema.json, sorted, skipping node_modules', async () => {
    const results = await lintFiles([dir], { profiles: ['claude-code'] });
    expect(results.map((r) => r.file.slice(dir.length + 1))).toEqual([
      'a.schema.json',
      join('broken-manifest', 'x.schema.json'),
      join('bundled', 'listed.schema.json'),
      join('bundled', 'loose.schema.json'),
      join('nested', 'deeper', 'b.schema.json'),
    ]);
  });

  it('reports bad JSON as a finding with file, line and column, never a crash', async () => {
    const file = join(dir, 'nested', 'deeper', 'b.schema.json');
    const [result] = await lintFiles([file], { profiles: ['portable'] });
    expect(result?.findings).toEqual([expect.objectContaining({ file, rule: 'invalid-json', line: 4, column: 1 })]);
  });

  it('lints a file given directly whatever its name', async () => {
    const [result] = await lintFiles([join(dir, 'nested', 'not-a-schema.json')], { profiles: ['claude-code'] });
    expect(result?.findings.map((f) => f.keyword)).toEqual(['_meta']);
  });

  it('uses the folder manifest when no profiles are given, portable otherwise', async () => {
    const results = await lintFiles([join(dir, 'bundled')]);
    const listed = results.find((r) => r.file.endsWith('listed.schema.json'));
    const loose = results.find((r) => r.file.endsWith('loose.schema.json'));
    expect(listed?.profiles).toEqual(['claude-code']);
    expect(listed?.manifest).toBe(join(dir, 'bundled', 'profiles.json'));
    expect(listed?.findings).toEqual([]);
    expect(loose?.profiles).toEqual(['portable']);
    expect(loose?.findings.map((f) => f.rule)).toContain('outside-subset');
  });

  it('reports a malformed manifest and falls back to portable', async () => {
    const [result] = await lintFiles([join(dir, 'broken-manifest')]);
    expect(result?.profiles).toEqual(['portable']);
    expect(result?.findings).toEqual([
      expect.objectContaining({ rule: 'bad-manifest', file: join(dir, 'broken-manifest', 'profiles.json'), message: expect.stringMatching(/unknown profile\(s\) nope\. Valid profiles: claude-code/) }),
    ]);
  });

  it('reports a missing path and an empty folder as findings', async () => {
    const results = await lintFiles([join(dir, 'missing.schema.json'), join(dir, 'empty')], { profiles: ['portable'] });
    expect(results.map((r) => r.findings.map((f) => `${f.rule}:${f.severity}`))).toEqual([['unreadable:error'], ['no-schema-files:warning']]);
  });

  it('lists a file once even when named twice', async () => {
    const file = join(dir, 'a.schema.json');
    expect(await lintFiles([file, dir], { profiles: ['portable'] })).toHaveLength(5);
  });

  it('throws UnknownProfileError before reading anything', async () => {
    await expect(lintFiles([join(dir, 'missing')], { profiles: ['bogus'] })).rejects.toThrow(UnknownProfileError);
  });
});
