/**
 * Same-document `$ref` analysis over walked nodes: resolving local references, finding recursion
 * (a `$ref` that leads back to a schema containing it) and finding definitions nothing references.
 * Everything is iterative, like the walker.
 */
import { localRefToPointer } from '#src/pointer.ts';
import type { SchemaNode } from '#src/schema/walk.ts';

/**
 * Lookups over the nodes of one document, built lazily.
 *
 * - `nodes`: every visited node, in visit order (`nodes[i].index === i`).
 * - `children(node)`: the nodes whose `parent` is `node`, in document order.
 * - `byPointer(pointer)`: the node at that pointer, if the walker visited one.
 * - `refTarget(node)`: the node a local `$ref` of `node` resolves to, if any.
 * - `hasRefs`: whether any node carries a string `$ref`.
 */
export interface SchemaIndex {
  readonly nodes: readonly SchemaNode[];
  children(node: SchemaNode): readonly SchemaNode[];
  byPointer(pointer: string): SchemaNode | undefined;
  refTarget(node: SchemaNode): SchemaNode | undefined;
  readonly hasRefs: boolean;
}

function refOf(node: SchemaNode): string | undefined {
  const schema = node.schema;
  if (typeof schema !== 'object') return undefined;
  const ref = schema.$ref;
  return typeof ref === 'string' ? ref : undefined;
}

/**
 * Builds a {@link SchemaIndex} over walked nodes (as {@link walkSchema} yields them).
 *
 * @example
 * const index = indexSchema([...walkSchema(schema)]);
 * index.refTarget(index.nodes[3]!);
 */
export function indexSchema(nodes: readonly SchemaNode[]): SchemaIndex {
  let childMap: SchemaNode[][] | undefined;
  let pointerMap: Map<string, SchemaNode> | undefined;
  const hasRefs = nodes.some((node) => refOf(node) !== undefined);
  const index: SchemaIndex = {
    nodes,
    hasRefs,
    children(node) {
      if (childMap === undefined) {
        const built: SchemaNode[][] = nodes.map(() => []);
        for (const each of nodes) if (each.parent !== null) built[each.parent.index]?.push(each);
        childMap = built;
      }
      return childMap[node.index] ?? [];
    },
    byPointer(pointer) {
      pointerMap ??= new Map(nodes.map((node) => [node.pointer, node] as const));
      return pointerMap.get(pointer);
    },
    refTarget(node) {
      const pointer = localRefToPointer(refOf(node));
      return pointer === undefined ? undefined : index.byPointer(pointer);
    },
  };
  return index;
}

/**
 * The nodes whose local `$ref` closes a cycle: following it (and then subschemas and further
 * references) leads back to a schema that contains the reference. `{"$ref": "#"}` anywhere below
 * the root is the smallest case. Returns `[]` quickly when the document has no `$ref`.
 */
export function findRecursiveRefs(index: SchemaIndex): SchemaNode[] {
  if (!index.hasRefs || index.nodes.length === 0) return [];
  const colour = new Uint8Array(index.nodes.length); // 0 white, 1 on stack, 2 done
  const found: SchemaNode[] = [];
  const edges = (node: SchemaNode): SchemaNode[] => {
    const out = [...index.children(node)];
    const target = index.refTarget(node);
    if (target !== undefined) out.push(target);
    return out;
  };
  for (const start of index.nodes) {
    if (colour[start.index] !== 0) continue;
    const stack: { node: SchemaNode; next: SchemaNode[]; at: number }[] = [{ node: start, next: edges(start), at: 0 }];
    colour[start.index] = 1;
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as { node: SchemaNode; next: SchemaNode[]; at: number };
      if (top.at >= top.next.length) {
        colour[top.node.index] = 2;
        stack.pop();
        continue;
      }
      const next = top.next[top.at++] as SchemaNode;
      const state = colour[next.index];
      if (state === 1) {
        // Containment edges form a tree, so an edge back onto the stack is a $ref edge.
        if (!found.includes(top.node)) found.push(top.node);
      } else if (state === 0) {
        colour[next.index] = 1;
        stack.push({ node: next, next: edges(next), at: 0 });
      }
    }
  }
  return found.sort((a, b) => a.index - b.index);
}

/** Keywords whose map entries are definitions: applied only when referenced. */
const DEFINITION_KEYWORDS: ReadonlySet<string> = new Set(['definitions', '$defs']);

/**
 * The nodes only reachable through a definition nobody references: a validator such as Ajv never
 * compiles them (Ajv's strict mode does not see unknown keywords there). The root, every subschema
 * reached by applicators from it, and everything reached through a local `$ref` count as used.
 */
export function unreferencedNodes(index: SchemaIndex): Set<SchemaNode> {
  const reached = new Uint8Array(index.nodes.length);
  const root = index.nodes[0];
  if (root === undefined) return new Set();
  const queue: SchemaNode[] = [root];
  reached[root.index] = 1;
  while (queue.length > 0) {
    const node = queue.pop() as SchemaNode;
    const next: SchemaNode[] = [];
    for (const child of index.children(node)) {
      if (child.parentKeyword === null || !DEFINITION_KEYWORDS.has(child.parentKeyword)) next.push(child);
    }
    const target = index.refTarget(node);
    if (target !== undefined) next.push(target);
    for (const each of next) {
      if (reached[each.index] === 0) {
        reached[each.index] = 1;
        queue.push(each);
      }
    }
  }
  const out = new Set<SchemaNode>();
  for (const node of index.nodes) if (reached[node.index] === 0) out.add(node);
  return out;
}
