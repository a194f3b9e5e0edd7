import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkOpenAiStrict, openAiSchemaErrorBody, openAiSchemaErrorMessage, pythonTuple } from './openaiStrict.ts';

const readSchema = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../schemas/contracts/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;

/** A strict-clean object schema with the given properties. */
function strictObject(properties: Record<string, unknown>): Record<string, unknown> {
  return { type: 'object', additionalProperties: false, required: Object.keys(properties), properties };
}

describe('checkOpenAiStrict', () => {
  it('refuses the production pov schema: its receipt properties are not all required', () => {
    const violations = checkOpenAiStrict(readSchema('pov.schema.json'));
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatchObject({ rule: 'required', pointer: '/required', context: [] });
    expect(violations[0]!.missing).toEqual([
      'cross_model_route',
      'cross_model_target',
      'cross_model_harness',
      'serving_family',
      'model_requested',
      'model_actual',
      'independence_verified',
    ]);
    expect(violations[0]!.message).toBe(
      "In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'cross_model_route'.",
    );
  });

  it('accepts the strict pov variant', () => {
    expect(checkOpenAiStrict(readSchema('pov.openai-strict.schema.json'))).toEqual([]);
  });

  it('names the nested object that lacks additionalProperties: false, by context tuple and pointer', () => {
    const schema = strictObject({ a: { type: 'object', required: ['b'], properties: { b: { type: 'string' } } } });
    expect(checkOpenAiStrict(schema)).toEqual([
      {
        rule: 'additional-properties',
        pointer: '/properties/a/additionalProperties',
        context: ['properties', 'a'],
        keyword: 'additionalProperties',
        message: "In context=('properties', 'a'), 'additionalProperties' is required to be supplied and to be false.",
      },
    ]);
  });

  it('refuses each documented or measured unsupported keyword where it stands', () => {
    const schema = strictObject({
      ids: { type: 'array', items: { type: 'string' }, uniqueItems: true },
      both: { allOf: [{ type: 'string' }] },
      either: { oneOf: [{ type: 'string' }, { type: 'number' }] },
      no: { not: { type: 'null' } },
      cond: { type: 'string', if: { const: 'a' }, then: { const: 'a' } },
      rec: { type: 'object', additionalProperties: false, required: [], properties: {}, propertyNames: { pattern: '^a' }, minProperties: 1 },
    });
    const found = checkOpenAiStrict(schema)
      .filter((v) => v.rule !== 'type-key')
      .map((v) => [v.rule, v.pointer]);
    expect(found).toEqual([
      ['refused-keyword', '/properties/ids/uniqueItems'],
      ['refused-keyword', '/properties/both/allOf'],
      ['refused-keyword', '/properties/either/oneOf'],
      ['refused-keyword', '/properties/no/not'],
      ['refused-keyword', '/properties/cond/if'],
      ['refused-keyword', '/properties/cond/then'],
      ['refused-keyword', '/properties/rec/minProperties'],
      ['refused-keyword', '/properties/rec/propertyNames'],
    ]);
    expect(checkOpenAiStrict(schema)[0]!.message).toBe("In context=('properties', 'ids'), 'uniqueItems' is not permitted.");
  });

  it('accepts keywords whose refusal is disputed or unmeasured (minLength, default, $comment)', () => {
    const schema = strictObject({ a: { type: 'string', minLength: 1, maxLength: 9, default: 'x', $comment: 'c', pattern: '^a' } });
    expect(checkOpenAiStrict(schema)).toEqual([]);
  });

  it('refuses a root that is not an object schema, in the wording seen through Codex', () => {
    expect(checkOpenAiStrict({ properties: {} }).map((v) => v.message)).toContain("schema must have a 'type' key.");
    expect(checkOpenAiStrict({ $ref: '#/$defs/a', $defs: { a: strictObject({}) } })[0]!.message).toBe(
      "schema must be a JSON Schema of 'type: \"object\"', got 'type: \"None\"'.",
    );
    expect(checkOpenAiStrict({ type: 'array', items: { type: 'string' } })[0]!.message).toBe(
      "schema must be a JSON Schema of 'type: \"object\"', got 'type: \"array\"'.",
    );
    const union = checkOpenAiStrict({ oneOf: [strictObject({})] });
    expect(union).toHaveLength(1);
    expect(union[0]).toMatchObject({ rule: 'root-union', pointer: '/oneOf' });
    expect(union[0]!.message).toBe("schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level. Found 'oneOf'.");
    expect(checkOpenAiStrict('not a schema')[0]!.rule).toBe('root-type');
  });

  it('walks anyOf branches and $defs, and refuses unsupported formats and arrays without one items schema', () => {
    const schema = {
      ...strictObject({
        when: { type: 'string', format: 'uri' },
        at: { type: 'string', format: 'date-time' },
        pick: { anyOf: [{ type: 'object', properties: { x: { type: 'string' } } }, { type: 'null' }] },
        list: { type: 'array' },
        pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] },
      }),
      $defs: { node: { type: 'object', properties: {}, required: [] } },
    };
    expect(checkOpenAiStrict(schema).map((v) => [v.rule, v.pointer])).toEqual([
      ['format', '/properties/when/format'],
      ['additional-properties', '/properties/pick/anyOf/0/additionalProperties'],
      ['required', '/properties/pick/anyOf/0/required'],
      ['array-items', '/properties/list/items'],
      ['tuple-items', '/properties/pair/items'],
      ['additional-properties', '/$defs/node/additionalProperties'],
    ]);
    const branch = checkOpenAiStrict(schema)[1]!;
    expect(branch.message).toBe("In context=('properties', 'pick', 'anyOf', 0), 'additionalProperties' is required to be supplied and to be false.");
  });

  it('refuses a nested schema without "type" unless an anyOf or a $ref stands in for it, in the measured wording', () => {
    const schema = {
      type: 'object',
      properties: { questions: {}, list: { type: 'array', items: {} }, either: { anyOf: [{ type: 'string' }, { type: 'null' }] }, ref: { $ref: '#/$defs/s' } },
      $defs: { s: { type: 'string' } },
      required: ['questions', 'list', 'either', 'ref'],
      additionalProperties: false,
    };
    const found = checkOpenAiStrict(schema).filter((v) => v.rule === 'type-key');
    expect(found.map((v) => v.pointer)).toEqual(['/properties/questions', '/properties/list/items']);
    expect(found[0]!.message).toBe("In context=('properties', 'questions'), schema must have a 'type' key.");
  });

  it('counts object nesting levels against the limit of 10', () => {
    let schema: Record<string, unknown> = strictObject({ leaf: { type: 'string' } });
    for (let i = 0; i < 10; i += 1) schema = strictObject({ child: schema });
    const violations = checkOpenAiStrict(schema);
    expect(violations.map((v) => v.message)).toEqual(['11 levels of nesting exceeds limit of 10.']);
  });
});

describe('the service wording', () => {
  it('prints paths as Python tuples', () => {
    expect(pythonTuple([])).toBe('()');
    expect(pythonTuple(['properties'])).toBe("('properties',)");
    expect(pythonTuple(['properties', "it's", 'anyOf', 0])).toBe("('properties', 'it\\'s', 'anyOf', 0)");
  });

  it('builds the Responses error body with the schema name, the rule and the JSON Pointer', () => {
    const violation = checkOpenAiStrict(readSchema('pov.schema.json'))[0]!;
    expect(openAiSchemaErrorMessage('codex_output_schema', violation)).toBe(
      "Invalid schema for response_format 'codex_output_schema': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'cross_model_route'. (JSON Pointer: \"/required\")",
    );
    expect(openAiSchemaErrorBody('codex_output_schema', violation).error).toMatchObject({
      type: 'invalid_request_error',
      param: 'text.format.schema',
      code: 'invalid_json_schema',
    });
  });
});
