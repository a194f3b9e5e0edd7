/**
 * Key spelling: one mechanism for snake, camel, Pascal and kebab case, so `structured_output`,
 * `structuredOutput`, `StructuredOutput` and `structured-output` are the same field.
 * Source of the need: grok 1.0.4 writes `structuredOutput` where Claude Code writes
 * `structured_output` (EveryInc/compound-engineering-plugin PR #1325, shared/research/ce-plugin.md).
 */

/**
 * The spelling-free form of a key: lower case, with `_`, `-`, spaces and dots removed.
 *
 * @example
 * foldKey('structured_output') === foldKey('StructuredOutput') // true
 */
export function foldKey(key: string): string {
  return key.replace(/[-_.\s]/g, '').toLowerCase();
}

/**
 * The own keys of `object` whose folded form equals the folded form of one of `names`, in the
 * object's key order. Returns `[]` for non-objects.
 *
 * @example
 * findKeys({ structuredOutput: {} }, ['structured_output']) // ['structuredOutput']
 */
export function findKeys(object: unknown, names: readonly string[]): string[] {
  if (!isPlainObject(object)) return [];
  const wanted = new Set(names.map(foldKey));
  return Object.keys(object).filter((k) => wanted.has(foldKey(k)));
}

/**
 * Spellings of the structured field (the CLI's schema-constrained answer), folded by {@link findKeys}:
 * `structured_output` (Claude Code 2.1.332, cursor-agent), `structured_result` (Qwen Code 0.0.x);
 * `structuredOutput` (grok 1.0.4, PR #1325) is the same field in another spelling.
 */
export const STRUCTURED_FIELD_NAMES = ['structured_output', 'structured_result'] as const;

const STRUCTURED_FOLDED = new Set<string>(STRUCTURED_FIELD_NAMES.map(foldKey));

/** True when a candidate origin names a structured field, in any key spelling (`structuredOutput`). */
export function isStructuredOrigin(origin: string): boolean {
  return STRUCTURED_FOLDED.has(foldKey(origin));
}

/**
 * The origin labels the envelope toolkit names (src/envelope/types.ts `Origin`): string fields of a
 * terminal object, assistant text, a side file, free text. Besides these, a candidate's origin is a
 * structured field ({@link isStructuredOrigin}), `tool_use:<name>`, or one a route declares
 * (`origins` in its src/routes/<cli>/route.ts).
 */
export const NAMED_ORIGINS: readonly string[] = ['result', 'text', 'response', 'assistant-text', 'stdout', 'stderr', 'last-message'];

/** Whether `origin` is a documented origin: named, a structured field, `tool_use:<name>`, or in `declared`. */
export function isKnownOrigin(origin: string, declared: readonly string[] = []): boolean {
  return NAMED_ORIGINS.includes(origin) || declared.includes(origin) || isStructuredOrigin(origin) || origin.startsWith('tool_use:');
}

/** True for a JSON object (not null, not an array). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

