/**
 * The lint rules of issue 21.9 bite on schemas that failed in public, and stay quiet once the
 * fix the report describes is applied. Each schema is rebuilt from the named public report (the
 * report quotes the schema, or the field that broke it, and the provider's error).
 */
import { describe, expect, it } from 'vitest';
import { lintSchema } from '#src/schema/lint.ts';

type Schema = Record<string, unknown>;

/** `rule pointer` of each error finding of `profile`. */
function errors(schema: unknown, profile: string): string[] {
  return lintSchema(schema, { profiles: [profile] })
    .filter((f) => f.severity === 'error')
    .map((f) => `${f.rule} ${f.pointer}`);
}

function warnings(schema: unknown, profile: string): string[] {
  return lintSchema(schema, { profiles: [profile] })
    .filter((f) => f.severity === 'warning')
    .map((f) => `${f.rule} ${f.pointer}`);
}

/**
 * SocialGouv/iterion#250: a DSL `json` field compiled to a property with no "type"; Codex's
 * formatting pass answered 400 invalid_json_schema "Invalid schema for response_format
 * 'codex_output_schema': In context=('properties', 'questions'), schema must have a 'type' key."
 */
const ITERION_CLARIFICATION: Schema = {
  type: 'object',
  properties: {
    status: { type: 'string' },
    questions: {},
    question_count: { type: 'integer' },
    detail: { type: 'string' },
  },
  required: ['status', 'questions', 'question_count', 'detail'],
  additionalProperties: false,
};

/**
 * can1357/oh-my-pi#211: an MCP tool with an empty items schema; OpenAI answered 400 "Invalid schema
 * for function 'mcp_notebooklm_mcp_studio_revise': In context=('properties', 'slide_instructions',
 * 'items'), schema must have a 'type' key."
 */
const OH_MY_PI_STUDIO_REVISE: Schema = {
  type: 'object',
  properties: { slide_instructions: { type: 'array', items: {} } },
  required: ['slide_instructions'],
  additionalProperties: false,
};

/**
 * prism-php/prism#974: a nested object inside `items` carried additionalProperties: false, and a
 * nullable property was ["string", "null"]; Gemini's responseSchema answered 'Unknown name
 * "additionalProperties" at 'generation_config.response_schema.properties[0].value.items': Cannot
 * find field.' and 'Unknown name "type" at ...: Proto field is not repeating, cannot start list.'
 */
const PRISM_ITEMS: Schema = {
  type: 'object',
  properties: {
    items: {
      type: 'array',
      items: { type: 'object', properties: { name: { type: 'string' }, note: { type: ['string', 'null'] } }, required: ['name'], additionalProperties: false },
    },
  },
  required: ['items'],
};

/**
 * vercel/ai#2974: `z.object({ child: z.union([z.object(...), z.object(...)]) })` sent to
 * gemini-1.5-flash as responseSchema answered "GenerateContentRequest.generation_config
 * .response_schema.properties[child].type: must be specified".
 */
const VERCEL_UNION_CHILD: Schema = {
  type: 'object',
  properties: {
    child: {
      anyOf: [
        { type: 'object', properties: { type: { type: 'string', enum: ['Text1'] }, content: { type: 'string' } }, required: ['type', 'content'] },
        { type: 'object', properties: { type: { type: 'string', enum: ['Text2'] }, content: { type: 'string' } }, required: ['type', 'content'] },
      ],
    },
  },
  required: ['child'],
};

describe('property-type (openai-strict, codex, portable): a subschema without "type" is an error', () => {
  it('bites on the Codex output schema of SocialGouv/iterion#250, at the property the service named', () => {
    for (const profile of ['codex', 'openai-strict', 'portable']) expect(errors(ITERION_CLARIFICATION, profile)).toEqual(['property-type /properties/questions']);
    const fixed = structuredClone(ITERION_CLARIFICATION) as { properties: Record<string, unknown> };
    fixed.properties.questions = { type: 'array', items: { type: 'string' } };
    expect(errors(fixed, 'codex')).toEqual([]);
  });

  it('bites on the empty items schema of can1357/oh-my-pi#211', () => {
    expect(errors(OH_MY_PI_STUDIO_REVISE, 'openai-strict')).toEqual(['property-type /properties/slide_instructions/items']);
    expect(errors({ ...OH_MY_PI_STUDIO_REVISE, properties: { slide_instructions: { type: 'array', items: { type: 'string' } } } }, 'openai-strict')).toEqual([]);
  });

  it('takes an anyOf or a $ref in place of "type", as the OpenAI guide\'s own examples do', () => {
    const linkedList: Schema = {
      type: 'object',
      properties: { linked_list: { $ref: '#/$defs/node' } },
      $defs: { node: { type: 'object', properties: { value: { type: 'number' }, next: { anyOf: [{ $ref: '#/$defs/node' }, { type: 'null' }] } }, additionalProperties: false, required: ['next', 'value'] } },
      additionalProperties: false,
      required: ['linked_list'],
    };
    expect(errors(linkedList, 'openai-strict')).toEqual([]);
  });

  it('does not fire under profiles whose provider infers the type (claude-code, anthropic)', () => {
    expect(errors(ITERION_CLARIFICATION, 'claude-code')).toEqual([]);
    expect(errors(ITERION_CLARIFICATION, 'anthropic')).toEqual([]);
  });
});

describe('gemini-response-schema: the legacy OpenAPI-subset responseSchema', () => {
  it('refuses additionalProperties and a type array where prism-php/prism#974 saw them refused', () => {
    expect(errors(PRISM_ITEMS, 'gemini-response-schema')).toEqual(['unknown-field /properties/items/items', 'single-type /properties/items/items/properties/note']);
    const fixed = structuredClone(PRISM_ITEMS) as { properties: { items: { items: Record<string, unknown> } } };
    delete fixed.properties.items.items.additionalProperties;
    (fixed.properties.items.items.properties as Record<string, unknown>).note = { type: 'string', nullable: true };
    expect(errors(fixed, 'gemini-response-schema')).toEqual([]);
    // The same schema is fine as responseJsonSchema.
    expect(errors(PRISM_ITEMS, 'gemini')).toEqual([]);
  });

  it('warns that the union of vercel/ai#2974 needs a newer model, and names the missing type of its branches nowhere else', () => {
    expect(errors(VERCEL_UNION_CHILD, 'gemini-response-schema')).toEqual([]);
    expect(warnings(VERCEL_UNION_CHILD, 'gemini-response-schema')).toEqual(['any-of-newer-models /properties/child']);
    const untyped = { type: 'object', properties: { child: { description: 'either shape' } } };
    expect(errors(untyped, 'gemini-response-schema')).toEqual(['type-required /properties/child']);
  });

  it('refuses $schema, $ref and $defs, which the Schema message has no field for', () => {
    const schema = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { a: { $ref: '#/$defs/a' } }, $defs: { a: { type: 'string' } } };
    expect(errors(schema, 'gemini-response-schema')).toEqual(['unknown-field ', 'unknown-field ', 'unknown-field /properties/a', 'type-required /properties/a']);
    const message = lintSchema(schema, { profiles: ['gemini-response-schema'] })[0]!.message;
    expect(message).toContain('Cannot find field');
    expect(message).toContain('router-for-me/CLIProxyAPI#97');
  });
});
