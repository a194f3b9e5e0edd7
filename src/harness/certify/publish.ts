/**
 * A worker's declared publish mapping (issue 19 part 7): how the worker publishes the answer it
 * accepted, as data instead of adapter code. Its pointers are JSON Pointers (RFC 6901) into the
 * answer, e.g.
 *
 * ```ts
 * publish: { rename: { '/findings': '/items' }, exclude: ['/usage'] }
 * ```
 *
 * - `rename`: answer pointer -> the pointer the worker publishes that member at. routecert moves
 *   each published member back to its answer pointer before comparing ({@link unpublish}), so a
 *   worker that publishes `items` for the answer's `findings` is compared on `findings`.
 * - `exclude`: answer members the worker leaves out of what it publishes, or adds or sets by its own
 *   policy (a `usage` receipt, a `reviewer` it names itself): left out of the comparison on both
 *   sides ({@link withoutExcluded}).
 *
 * A `*` token stands for every item of an array (or every member of an object) at that place; a
 * rename may use it only where both pointers share the same path up to it (a member renamed inside
 * each item). Applied at one place: the artifact is read through {@link unpublish} (execute.ts) and
 * every comparison drops the excluded members (meaning.ts).
 */
import { isPlainObject } from '#src/envelope/keys.ts';

/** See the module comment. Both fields are optional; `{}` publishes the answer as it is. */
export interface PublishMapping {
  rename?: Record<string, string>;
  exclude?: string[];
}

/** The fields a publish mapping may have. */
const FIELDS = ['rename', 'exclude'] as const;

/**
 * The tokens of JSON Pointer `pointer` (`/a~1b/c` -> `['a/b', 'c']`), or the reason it is not one.
 * The whole-document pointer `""` is refused: a mapping names members.
 */
export function pointerTokens(pointer: string): string[] | { problem: string } {
  if (pointer === '') return { problem: 'names the whole answer; name a member, e.g. "/findings"' };
  if (!pointer.startsWith('/')) return { problem: `is not a JSON Pointer: it must start with "/" (write "/${pointer.replace(/^[#.]\/?/, '').replace(/\./g, '/')}")` };
  if (/~(?![01])/.test(pointer)) return { problem: 'is not a JSON Pointer: "~" must be followed by 0 ("~0" for "~") or 1 ("~1" for "/")' };
  const tokens = pointer.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (tokens.some((t) => t === '')) return { problem: 'has an empty member name ("//" or a trailing "/")' };
  return tokens;
}

/**
 * The problems of `value` as `worker.publish`, one sentence each naming the field
 * (`worker.publish.rename["/findings"]`); `[]` when usable.
 */
export function publishMappingProblems(value: unknown): string[] {
  const at = (field = '') => `\`worker.publish${field}\``;
  if (value === undefined) return [];
  if (!isPlainObject(value)) return [`${at()} must be an object { rename?: { "/answer/pointer": "/published/pointer" }, exclude?: ["/pointer"] }`];
  const problems: string[] = [];
  for (const key of Object.keys(value)) {
    if (!(FIELDS as readonly string[]).includes(key)) problems.push(`${at(`.${key}`)} is not a field of ${at()}: it has ${FIELDS.join(' and ')}`);
  }
  const pointer = (p: unknown, where: string): string[] | null => {
    if (typeof p !== 'string') {
      problems.push(`${where} must be a JSON Pointer string, not ${JSON.stringify(p)}`);
      return null;
    }
    const tokens = pointerTokens(p);
    if (!Array.isArray(tokens)) {
      problems.push(`${where} ${JSON.stringify(p)} ${tokens.problem}`);
      return null;
    }
    return tokens;
  };
  const { rename, exclude } = value;
  const renamed = new Map<string, string>();
  if (rename !== undefined) {
    if (!isPlainObject(rename)) problems.push(`${at('.rename')} must map answer pointers to published pointers, e.g. { "/findings": "/items" }`);
    else
      for (const [from, to] of Object.entries(rename)) {
        const where = at(`.rename[${JSON.stringify(from)}]`);
        const a = pointer(from, `${where}: the key`);
        const b = pointer(to, where);
        if (!a || !b) continue;
        if (from === to) problems.push(`${where} renames ${from} to itself`);
        const wild = Math.max(a.lastIndexOf('*'), b.lastIndexOf('*'));
        if (wild >= 0 && (wild >= a.length - 1 || wild >= b.length - 1 || a.slice(0, wild + 1).join('/') !== b.slice(0, wild + 1).join('/'))) {
          problems.push(`${where}: a "*" may only stand for the items both pointers share, with a member renamed inside each (e.g. "/findings/*/file": "/findings/*/path"), not ${from} -> ${to}`);
        }
        const twice = renamed.get(to as string);
        if (twice !== undefined) problems.push(`${where}: ${twice} is published at ${to} too`);
        renamed.set(to as string, from);
      }
  }
  if (exclude !== undefined) {
    if (!Array.isArray(exclude)) problems.push(`${at('.exclude')} must be an array of JSON Pointers, e.g. ["/usage"]`);
    else
      exclude.forEach((p: unknown, i: number) => {
        pointer(p, at(`.exclude[${i}]`));
        if (typeof p === 'string' && isPlainObject(rename) && Object.hasOwn(rename, p)) problems.push(`${at(`.exclude[${i}]`)} ${p} is renamed too: give it in one of rename and exclude`);
      });
  }
  return problems;
}

type Json = unknown;

/** The containers at `tokens` of `value` (a `*` expands to every item or member), with the last token's key. */
function parentsAt(value: Json, tokens: readonly string[]): { parent: Record<string, Json> | Json[]; key: string }[] {
  let level: Json[] = [value];
  for (const t of tokens.slice(0, -1)) {
    const next: Json[] = [];
    for (const v of level) {
      if (t === '*') {
        for (const item of Array.isArray(v) ? v : isPlainObject(v) ? Object.values(v) : []) next.push(item);
      } else if (Array.isArray(v) && /^(0|[1-9]\d*)$/.test(t)) {
        if (Number(t) < v.length) next.push(v[Number(t)]);
      } else if (isPlainObject(v) && Object.hasOwn(v, t)) next.push(v[t]);
    }
    level = next;
  }
  const key = tokens[tokens.length - 1]!;
  return level.filter((v): v is Record<string, Json> | Json[] => Array.isArray(v) || isPlainObject(v)).map((parent) => ({ parent, key }));
}

/** Remove the member at `tokens` (every one, with `*`) from `value`, in place. */
function removeAt(value: Json, tokens: readonly string[]): void {
  for (const { parent, key } of parentsAt(value, tokens)) {
    if (Array.isArray(parent)) {
      if (key === '*') parent.length = 0;
      else if (/^(0|[1-9]\d*)$/.test(key) && Number(key) < parent.length) parent.splice(Number(key), 1);
    } else if (key === '*') for (const k of Object.keys(parent)) delete parent[k];
    else delete parent[key];
  }
}

/** A deep copy of JSON `value`. */
const copy = (value: Json): Json => (value === undefined ? undefined : structuredClone(value));

/**
 * The answer a published artifact carries under `mapping`: each renamed member moved back from
 * where the worker published it to its answer pointer, and an object that move leaves empty removed
 * (a member not published stays absent, so the comparison names it missing). Excluded members are not touched here (see {@link withoutExcluded}).
 * Never throws; `value` is not changed.
 */
export function unpublish(value: Json, mapping: PublishMapping | undefined): Json {
  if (!mapping?.rename) return value;
  const out = copy(value);
  for (const [from, to] of Object.entries(mapping.rename)) {
    const a = pointerTokens(from);
    const b = pointerTokens(to);
    if (!Array.isArray(a) || !Array.isArray(b)) continue;
    const wild = Math.max(a.lastIndexOf('*'), b.lastIndexOf('*'));
    // With a "*": rename inside each item the shared prefix reaches; else at the top.
    const roots = wild >= 0 ? parentsAt(out, [...a.slice(0, wild + 1), '']).map((p) => p.parent) : [out];
    const [fromRest, toRest] = [a.slice(wild + 1), b.slice(wild + 1)];
    for (const root of roots) {
      const source = parentsAt(root, toRest).find(({ parent, key }) => (Array.isArray(parent) ? /^\d+$/.test(key) && Number(key) < parent.length : Object.hasOwn(parent, key)));
      if (!source) continue;
      const moved = (source.parent as Record<string, Json>)[source.key];
      removeAt(root, toRest);
      // An object left empty by the move was only the published path (`meta` of `/meta/movement`).
      for (let depth = toRest.length - 1; depth > 0; depth--) {
        const up = parentsAt(root, toRest.slice(0, depth))[0];
        const left = up && !Array.isArray(up.parent) ? up.parent[up.key] : undefined;
        if (!up || !isPlainObject(left) || Object.keys(left).length > 0) break;
        delete (up.parent as Record<string, Json>)[up.key];
      }
      const target = parentsAt(root, fromRest)[0] ?? createParents(root, fromRest);
      if (target && !Array.isArray(target.parent)) target.parent[target.key] = moved;
    }
  }
  return out;
}

/** Create the objects on the way to `tokens` in `root` (an answer pointer whose parents the artifact lacks); the parent of the last token, or null. */
function createParents(root: Json, tokens: readonly string[]): { parent: Record<string, Json>; key: string } | null {
  if (!isPlainObject(root)) return null;
  let node: Record<string, Json> = root;
  for (const t of tokens.slice(0, -1)) {
    if (t === '*') return null;
    if (!isPlainObject(node[t])) node[t] = {};
    node = node[t] as Record<string, Json>;
  }
  return { parent: node, key: tokens[tokens.length - 1]! };
}

/**
 * `value` without the members at the mapping's `exclude` pointers (or any list of pointers),
 * applied to both the expected answer and the published one before they are compared. Never
 * throws; `value` is not changed.
 */
export function withoutExcluded(value: Json, pointers: readonly string[]): Json {
  if (pointers.length === 0) return value;
  const out = copy(value);
  for (const p of pointers) {
    const tokens = pointerTokens(p);
    if (Array.isArray(tokens)) removeAt(out, tokens);
  }
  return out;
}
