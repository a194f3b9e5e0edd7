/**
 * Startup canaries: small schemas, each the same baseline plus ONE keyword at one place, sent to a
 * CLI's schema flag to learn whether the CLI (or the provider behind it) takes that keyword. Each
 * group runs on its own, so a vocabulary failure (a CLI that refuses `_meta`) is never misread as a
 * problem with a field name or with a standard annotation:
 *
 * - `baseline`: the baseline alone (the control: every CLI must take it, else no canary says anything);
 * - `custom-keyword`: `x-meta` and `_meta`, at the root and nested in a property (Claude Code 2.1.211
 *   refused both at startup whatever the output format: research/ce-plugin.md §4);
 * - `standard-annotation`: `$comment`, `default`, `examples`, string constraints (`minLength`,
 *   `maxLength`, `pattern`) and numeric constraints (`minimum`, `maximum`, `multipleOf`), which
 *   Claude Code 2.1.211 took (same source);
 * - `draft-keyword`: the rows research/schema-vocabularies.md §9 asks to confirm on the pinned
 *   Claude Code (`prefixItems`, `dependentRequired`, `$anchor`, a lone `if`), a 2020-12 `$schema`,
 *   and the draft-07 `$schema` as its control.
 *
 * The baseline lints clean for every profile but Gemini's legacy responseSchema (OpenAI strict
 * included: every property required, `additionalProperties: false`, which responseSchema refuses), and {@link CANARY_PAYLOAD} satisfies the baseline and every canary,
 * so an accepted canary completes against the mock in one model request.
 */
import { parsePointer } from '#src/pointer.ts';

/** The group of a canary; see the module comment. */
export type { CanaryGroup } from './startupTypes.ts';
import type { CanaryGroup } from './startupTypes.ts';

/** The groups in the order tables list them. */
export const CANARY_GROUPS: readonly CanaryGroup[] = ['baseline', 'custom-keyword', 'standard-annotation', 'draft-keyword'];

/**
 * One canary.
 *
 * - `id`: stable, e.g. `x-meta@root`, `minLength@/properties/answer`, `baseline`;
 * - `group`: see {@link CanaryGroup};
 * - `keyword`: the one keyword added to the baseline (`''` for the baseline);
 * - `pointer`: RFC 6901 pointer of the schema object that holds it (`''` = the root);
 * - `value`: the keyword's value;
 * - `schema`: the baseline with the keyword added (a fresh object per call of {@link canarySchemas}).
 */
export interface Canary {
  id: string;
  group: CanaryGroup;
  keyword: string;
  pointer: string;
  value: unknown;
  schema: Record<string, unknown>;
}

/**
 * The baseline: one string, one number and one string array, all required, no other property.
 * Only `type`, `properties`, `required`, `additionalProperties`, `items` and `description`: inside
 * the portable subset of research/schema-vocabularies.md §8.
 */
export const CANARY_BASELINE: Readonly<Record<string, unknown>> = Object.freeze({
  type: 'object',
  description: 'routecert startup canary: an answer, a score and tags.',
  additionalProperties: false,
  required: ['answer', 'score', 'tags'],
  properties: {
    answer: { type: 'string', description: 'The answer in a few words.' },
    score: { type: 'number', description: 'Confidence from 0 to 1.' },
    tags: { type: 'array', items: { type: 'string' } },
  },
});

/** What the mock model answers to every canary: valid against the baseline and against each canary. */
export const CANARY_PAYLOAD: Readonly<Record<string, unknown>> = Object.freeze({ answer: 'Choose A', score: 0.5, tags: ['a'] });

const ANSWER = '/properties/answer';
const SCORE = '/properties/score';
const TAGS = '/properties/tags';

/** `[group, keyword, pointer, value]` of every canary but the baseline, in table order. */
const SPECS: readonly (readonly [CanaryGroup, string, string, unknown])[] = [
  ['custom-keyword', 'x-meta', '', { owner: 'routecert' }],
  ['custom-keyword', 'x-meta', ANSWER, { owner: 'routecert' }],
  ['custom-keyword', '_meta', '', { owner: 'routecert' }],
  ['custom-keyword', '_meta', ANSWER, { owner: 'routecert' }],
  ['standard-annotation', '$comment', '', 'routecert canary'],
  ['standard-annotation', '$comment', ANSWER, 'routecert canary'],
  ['standard-annotation', 'default', ANSWER, 'Choose A'],
  ['standard-annotation', 'examples', ANSWER, ['Choose A']],
  ['standard-annotation', 'minLength', ANSWER, 1],
  ['standard-annotation', 'maxLength', ANSWER, 200],
  ['standard-annotation', 'pattern', ANSWER, '^[A-Za-z0-9 ]+$'],
  ['standard-annotation', 'minimum', SCORE, 0],
  ['standard-annotation', 'maximum', SCORE, 1],
  ['standard-annotation', 'multipleOf', SCORE, 0.25],
  ['draft-keyword', 'prefixItems', TAGS, [{ type: 'string' }]],
  ['draft-keyword', 'dependentRequired', '', { answer: ['score'] }],
  ['draft-keyword', '$anchor', ANSWER, 'answer'],
  ['draft-keyword', 'if', '', { required: ['answer'] }],
  ['draft-keyword', '$schema', '', 'https://json-schema.org/draft/2020-12/schema'],
  ['draft-keyword', '$schema', '', 'http://json-schema.org/draft-07/schema#'],
];

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** The object at `pointer` (`''` or `/properties/<name>`) inside `root`. */
function at(root: Record<string, unknown>, pointer: string): Record<string, unknown> {
  if (pointer === '') return root;
  const name = parsePointer(pointer)[1]!;
  return (root.properties as Record<string, Record<string, unknown>>)[name]!;
}

/** The id of a canary: `<keyword>@root` or `<keyword>@<pointer>`; the 2020-12 and draft-07 `$schema` canaries add `=<draft>`. */
function canaryId(keyword: string, pointer: string, value: unknown): string {
  const where = pointer === '' ? 'root' : pointer;
  if (keyword === '$schema' && typeof value === 'string') return `$schema=${value.includes('2020-12') ? '2020-12' : 'draft-07'}@${where}`;
  return `${keyword}@${where}`;
}

/**
 * Every canary: the baseline first, then the groups in {@link CANARY_GROUPS} order. Schemas are
 * fresh objects (the caller may change them). `$schema` is placed first in its schema, as authors write it.
 *
 * @example
 * canarySchemas().find((c) => c.id === '_meta@root')?.schema
 * // { type: 'object', ..., _meta: { owner: 'routecert' } }
 */
export function canarySchemas(): Canary[] {
  const out: Canary[] = [{ id: 'baseline', group: 'baseline', keyword: '', pointer: '', value: null, schema: clone(CANARY_BASELINE) }];
  for (const [group, keyword, pointer, value] of SPECS) {
    let schema = clone(CANARY_BASELINE);
    if (keyword === '$schema') schema = { $schema: value, ...schema };
    else at(schema, pointer)[keyword] = clone(value);
    out.push({ id: canaryId(keyword, pointer, value), group, keyword, pointer, value: clone(value), schema });
  }
  return out;
}

/** The canary with `id`, or `undefined`. */
export function canaryById(id: string): Canary | undefined {
  return canarySchemas().find((c) => c.id === id);
}
