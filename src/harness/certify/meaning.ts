/**
 * Comparing a published artifact with the answer that should be published, by the contract's
 * meaning (issue 10 part 5): on the schema's own top-level properties, so a worker that adds
 * receipt fields (ce-pov adds seven: `cross_model_route`, `model_actual`, ...) or reorders keys is
 * not failed for it; with `strict`, the whole artifact must equal the answer (key order ignored).
 * A worker that renames or leaves out members declares it (`worker.publish`, ./publish.ts); one that
 * wraps or namespaces its output gives an adapter hook (`artifact.select`) that maps the artifact
 * back to the answer before this comparison.
 */
import { isDeepStrictEqual } from 'node:util';
import { canonicalJson } from '#src/envelope/candidates.ts';
import { isPlainObject } from '#src/envelope/keys.ts';
import { withoutExcluded } from './publish.ts';

/**
 * One difference between an artifact and the expected answer.
 * - `missing`: a compared property the answer has and the artifact lacks;
 * - `differs`: a compared property with another value (deep, key order ignored);
 * - `extra`: only with `strict`: a property the answer lacks;
 * - `whole`: the values differ and are not both objects (or the schema names no properties).
 */
export interface MeaningDifference {
  kind: 'missing' | 'differs' | 'extra' | 'whole';
  property: string | null;
  expected?: unknown;
  actual?: unknown;
}

/**
 * The properties compared: the schema's top-level `properties` names, or `null` when it names none
 * (then the whole value is compared).
 */
export function comparedProperties(schema: Record<string, unknown>): string[] | null {
  return isPlainObject(schema.properties) ? Object.keys(schema.properties) : null;
}

/**
 * The differences between `actual` (the artifact, after the publish mapping's renames and the adapter's `select`) and `expected`
 * (the answer that should be published). `[]` means the artifact carries the answer.
 *
 * Rules: with `strict`, deep equality of the whole value (extra properties listed). Otherwise
 * every schema property the expected answer has must be in the artifact with an equal value; a
 * schema property the answer lacks, and any property the schema does not name, are ignored (receipt
 * fields the worker adds).
 */
export function meaningDifferences(expected: unknown, actual: unknown, schema: Record<string, unknown>, options: { strict?: boolean; ignore?: readonly string[] } = {}): MeaningDifference[] {
  if (options.ignore?.length) {
    expected = withoutIgnored(expected, options.ignore);
    actual = withoutIgnored(actual, options.ignore);
  }
  const props = comparedProperties(schema);
  if (!isPlainObject(expected) || !isPlainObject(actual) || (props === null && !options.strict)) {
    return isDeepStrictEqual(expected, actual) ? [] : [{ kind: 'whole', property: null, expected, actual }];
  }
  const out: MeaningDifference[] = [];
  const keys = options.strict ? [...new Set([...Object.keys(expected), ...Object.keys(actual)])] : props!.filter((k) => Object.hasOwn(expected, k));
  for (const key of keys) {
    const inExpected = Object.hasOwn(expected, key);
    const inActual = Object.hasOwn(actual, key);
    if (inExpected && !inActual) out.push({ kind: 'missing', property: key, expected: expected[key] });
    else if (!inExpected && inActual) out.push({ kind: 'extra', property: key, actual: actual[key] });
    else if (!isDeepStrictEqual(expected[key], actual[key])) out.push({ kind: 'differs', property: key, expected: expected[key], actual: actual[key] });
  }
  return out;
}

/**
 * `value` without the members an adapter declares the worker leaves out or sets by itself: JSON
 * Pointers (`worker.publish.exclude`, ./publish.ts; `*` for every item), or the older
 * `artifact.ignore` names: `key` (a top-level member) and `key[].field` (`field` of every item of the array `key`).
 */
function withoutIgnored(value: unknown, ignore: readonly string[]): unknown {
  const escape = (t: string) => t.replace(/~/g, '~0').replace(/\//g, '~1');
  const pointers = ignore.map((entry) => {
    if (entry.startsWith('/')) return entry;
    const m = /^([^[\]]+)\[\]\.(.+)$/.exec(entry);
    return m ? `/${escape(m[1]!)}/*/${escape(m[2]!)}` : `/${escape(entry)}`;
  });
  return withoutExcluded(value, pointers);
}

const short = (v: unknown, max = 80) => {
  const t = canonicalJson(v);
  return t.length <= max ? t : `${t.slice(0, max - 3)}...`;
};

/**
 * `expected X, got Y` for two values of one member; when either's JSON is longer than 80
 * characters, both are shown from a little before their first different character, with the
 * offset and lengths (two long strings clipped at the start read the same: a trial's worker that
 * cut `reasoning` at 500 characters showed two identical prefixes).
 */
function differsText(expected: unknown, actual: unknown, max = 80): string {
  const e = canonicalJson(expected);
  const a = canonicalJson(actual);
  if (e.length <= max && a.length <= max) return `expected ${e}, got ${a}`;
  let at = 0;
  while (at < e.length && at < a.length && e.charCodeAt(at) === a.charCodeAt(at)) at++;
  const from = Math.max(0, at - 30);
  const window = (t: string) => `${from > 0 ? '...' : ''}${t.slice(from, from + max - 3)}${from + max - 3 < t.length ? '...' : ''}`;
  return `expected ${window(e)}, got ${window(a)} (JSON of ${e.length} and ${a.length} characters, first different at character ${at})`;
}

/** One sentence per difference, e.g. `position: expected "Choose A", got "Choose B"`. */
export function describeDifferences(diffs: readonly MeaningDifference[]): string[] {
  return diffs.map((d) => {
    switch (d.kind) {
      case 'missing':
        return `${d.property}: missing (expected ${short(d.expected)})`;
      case 'extra':
        return `${d.property}: not in the answer (strict), got ${short(d.actual)}`;
      case 'differs':
        return `${d.property}: ${differsText(d.expected, d.actual)}`;
      default:
        return `expected ${short(d.expected, 160)}, got ${short(d.actual, 160)}`;
    }
  });
}
