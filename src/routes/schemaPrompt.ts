/**
 * The schema in the prompt, for CLIs that have no schema flag (Gemini CLI 0.61.0, grok-cli 0.0.34,
 * research/cli-envelopes.md sections 1, 4, 9a): the consumer appends the schema to the prompt and
 * validates the answer itself.
 */

/** The sentence that introduces the schema appended by {@link promptWithSchema}. */
export const SCHEMA_PROMPT_LEAD = 'Answer with exactly one JSON object that conforms to this JSON Schema, and nothing else:';

/**
 * `prompt`, then a blank line, {@link SCHEMA_PROMPT_LEAD} and `schema` pretty-printed inside a
 * ```json fence. `schema: null` returns `prompt` unchanged.
 *
 * @example
 * promptWithSchema('Pick A or B.', { type: 'object' })
 * // 'Pick A or B.\n\nAnswer with exactly one JSON object ...:\n```json\n{\n  "type": "object"\n}\n```'
 */
export function promptWithSchema(prompt: string, schema: object | null): string {
  if (schema === null) return prompt;
  return `${prompt}\n\n${SCHEMA_PROMPT_LEAD}\n\`\`\`json\n${JSON.stringify(schema, null, 2)}\n\`\`\``;
}
