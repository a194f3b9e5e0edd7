/**
 * An iterative walker over every subschema of a JSON Schema: the positions come from the declared
 * draft's vocabulary (see {@link getVocabulary}), boolean subschemas included. Data-valued keywords
 * (`enum`, `const`, `default`, `examples`, and any unknown keyword) are never entered.
 *
 * It uses an explicit stack, so a 10,000-deep schema does not overflow the call stack, and it
 * tracks the objects on the current path, so a cyclic object graph (not JSON, but possible in
 * code) is reported once and not followed.
 */
import { joinPointer } from '#src/pointer.ts';
import { pushAll } from '#src/arrays.ts';
import {
  DEFAULT_DRAFT,
  draftFromSchemaUri,
  getVocabulary,
  type DraftId,
  type SubschemaShape,
} from '#src/schema/vocabularies.ts';

/** A subschema as JSON Schema allows it: an object or a boolean. */
export type SchemaValue = boolean | Readonly<Record<string, unknown>>;

/**
 * One visited subschema.
 *
 * - `pointer`: RFC 6901 JSON Pointer from the document root (`''` for the root), `~0`/`~1` escaped.
 * - `schema`: the subschema itself (object or boolean).
 * - `parentKeyword`: the keyword whose value holds it (`properties`, `items`, ...); `null` at the root.
 * - `key`: the property name (for maps) or index (for arrays) inside that keyword's value, if any.
 * - `parent`: the node of the schema object holding `parentKeyword`; `null` at the root.
 * - `depth`: number of subschema steps from the root (root = 0).
 * - `index`: visit order, 0-based (pre-order, document order).
 */
export interface SchemaNode {
  pointer: string;
  schema: SchemaValue;
  parentKeyword: string | null;
  key?: string;
  parent: SchemaNode | null;
  depth: number;
  index: number;
}

/**
 * Options of {@link walkSchema}.
 *
 * - `draft`: whose subschema positions to follow. Default: the draft the root `$schema` names, else
 *   {@link DEFAULT_DRAFT}.
 * - `positions`: an explicit keyword -> shape map; overrides `draft`.
 * - `onCycle`: called with the pointer where an object already on the current path shows up again;
 *   that occurrence is not visited.
 */
export interface WalkOptions {
  draft?: DraftId;
  positions?: ReadonlyMap<string, SubschemaShape>;
  onCycle?: (pointer: string, parentKeyword: string) => void;
}

/** True for a value that can be a subschema: a non-array object or a boolean. */
export function isSchemaValue(value: unknown): value is SchemaValue {
  return typeof value === 'boolean' || (typeof value === 'object' && value !== null && !Array.isArray(value));
}

function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The draft a document declares through its root `$schema`, else {@link DEFAULT_DRAFT}. */
export function declaredDraft(root: unknown): DraftId {
  if (isPlainObject(root)) return draftFromSchemaUri(root.$schema) ?? DEFAULT_DRAFT;
  return DEFAULT_DRAFT;
}

interface Child {
  value: SchemaValue;
  keyword: string;
  key?: string;
  pointer: string;
}

/** The subschemas one keyword value holds, given its shape, in document order. */
function childrenOf(pointer: string, keyword: string, value: unknown, shape: SubschemaShape): Child[] {
  const at = joinPointer(pointer, keyword);
  const out: Child[] = [];
  const fromArray = (items: readonly unknown[]): void => {
    items.forEach((item, i) => {
      if (isSchemaValue(item)) out.push({ value: item, keyword, key: String(i), pointer: joinPointer(at, i) });
    });
  };
  const fromMap = (map: Readonly<Record<string, unknown>>): void => {
    for (const key of Object.keys(map)) {
      const item = map[key];
      if (isSchemaValue(item)) out.push({ value: item, keyword, key, pointer: joinPointer(at, key) });
    }
  };
  switch (shape) {
    case 'schema':
      if (isSchemaValue(value)) out.push({ value, keyword, pointer: at });
      break;
    case 'array':
      if (Array.isArray(value)) fromArray(value);
      break;
    case 'schema-or-array':
      if (Array.isArray(value)) fromArray(value);
      else if (isSchemaValue(value)) out.push({ value, keyword, pointer: at });
      break;
    case 'map':
    case 'map-of-schema-or-strings':
      // In `dependencies`, array values are property-name lists (data), which isSchemaValue skips.
      if (isPlainObject(value)) fromMap(value);
      break;
  }
  return out;
}

type Frame =
  | { exit: false; value: SchemaValue; parent: SchemaNode | null; keyword: string | null; key?: string; pointer: string }
  | { exit: true; value: object };

/**
 * Visits the root and every subschema position the draft defines, pre-order, in document order.
 *
 * @param schema - any value; a non-schema root (a string, an array, `null`) yields nothing.
 * @returns a generator of {@link SchemaNode}; it never throws on odd input.
 * @example
 * for (const node of walkSchema({ properties: { 'a/b': { not: false } } })) {
 *   console.log(node.pointer, node.parentKeyword);
 * }
 * // ''                  null
 * // '/properties/a~1b'  'properties'
 * // '/properties/a~1b/not' 'not'
 */
export function* walkSchema(schema: unknown, options: WalkOptions = {}): Generator<SchemaNode, void, undefined> {
  if (!isSchemaValue(schema)) return;
  const positions = options.positions ?? getVocabulary(options.draft ?? declaredDraft(schema)).positions;
  const onPath = new Set<object>();
  const stack: Frame[] = [{ exit: false, value: schema, parent: null, keyword: null, pointer: '' }];
  let index = 0;
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    if (frame.exit) {
      onPath.delete(frame.value);
      continue;
    }
    const { value } = frame;
    if (typeof value === 'object') {
      if (onPath.has(value)) {
        options.onCycle?.(frame.pointer, frame.keyword ?? '');
        continue;
      }
    }
    const node: SchemaNode = {
      pointer: frame.pointer,
      schema: value,
      parentKeyword: frame.keyword,
      parent: frame.parent,
      depth: frame.parent === null ? 0 : frame.parent.depth + 1,
      index: index++,
    };
    if (frame.key !== undefined) node.key = frame.key;
    yield node;
    if (typeof value !== 'object') continue;
    onPath.add(value);
    stack.push({ exit: true, value });
    const children: Child[] = [];
    for (const keyword of Object.keys(value)) {
      const shape = positions.get(keyword);
      if (shape !== undefined) pushAll(children, childrenOf(frame.pointer, keyword, value[keyword], shape));
    }
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i] as Child;
      const next: Frame = { exit: false, value: child.value, parent: node, keyword: child.keyword, pointer: child.pointer };
      if (child.key !== undefined) next.key = child.key;
      stack.push(next);
    }
  }
}

/**
 * The keyword -> shape map the linter walks for a draft: the draft's own positions, plus the
 * positions other drafts define for keywords this draft lacks (e.g. `$defs` or `prefixItems` in a
 * draft-07 document), so that offending keywords hidden under a foreign keyword are still found.
 * Where drafts disagree on a shape (`items`: one schema in 2020-12, schema or array before), the
 * wider shape is taken, so a tuple `items` array in a 2020-12 document is still entered.
 */
export function lenientPositions(draft: DraftId): ReadonlyMap<string, SubschemaShape> {
  const out = new Map(getVocabulary(draft).positions);
  for (const other of ['2020-12', '2019-09', 'draft-07', 'draft-06', 'draft-04'] as const) {
    for (const [keyword, shape] of getVocabulary(other).positions) {
      const mine = out.get(keyword);
      if (mine === undefined || (mine === 'schema' && shape === 'schema-or-array')) out.set(keyword, shape);
    }
  }
  return out;
}
