/**
 * "Did you mean": the known names close to a misspelt one, for every message that refuses a name
 * (an option value, a `--bin` CLI, a config field), and the one wording of an unknown config field.
 */

/**
 * Edit distance with adjacent transpositions (optimal string alignment: `dnoe` is one edit from
 * `done`, as a typist makes it; plain Levenshtein counted two and suggested nothing). Small strings:
 * option values and field names.
 */
function distance(a: string, b: string): number {
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= b.length; j += 1) {
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row.push(d);
    }
    before = prev;
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * The known values close to `input`: those it begins (`claude` -> `claude-code`), or within an
 * edit distance of a third of its length (at least 1, at most 3). Best first, at most three.
 */
export function didYouMean(input: string, known: readonly string[]): string[] {
  const lower = input.toLowerCase();
  const scored = [...new Set(known)]
    .map((k) => {
      const kl = k.toLowerCase();
      const prefix = kl.startsWith(lower) || kl.split('/')[0]!.startsWith(lower) ? 0 : Infinity;
      const d = distance(lower, kl.split('/')[0]!) <= distance(lower, kl) ? distance(lower, kl.split('/')[0]!) : distance(lower, kl);
      return { k, score: Math.min(prefix, d <= Math.min(3, Math.max(1, Math.floor(lower.length / 3))) ? d + 0.5 : Infinity) };
    })
    .filter((s) => Number.isFinite(s.score))
    .sort((x, y) => x.score - y.score || x.k.length - y.k.length || x.k.localeCompare(y.k));
  return scored.slice(0, 3).map((s) => s.k);
}

/**
 * One sentence per member of `value` that is not in `known`: `` unknown field `bogus` (known: a, b) ``,
 * then `` ; did you mean `cases`? `` when a known one is close ({@link didYouMean}). `at` is the
 * path of the object the member is in (`worker.`), put before the member and the known names it
 * suggests. `$schema` (an editor's pointer to a JSON Schema) is always accepted and never listed.
 * The one rule for a config's top level, its worker and a contract definition.
 *
 * @example
 * unknownFieldProblems({ case: 'cases' }, ['contracts', 'cases']) // => ['unknown field `case` (known: contracts, cases); did you mean `cases`?']
 */
export function unknownFieldProblems(value: Readonly<Record<string, unknown>>, known: readonly string[], at = ''): string[] {
  const listed = known.filter((k) => k !== '$schema');
  return Object.keys(value)
    .filter((k) => k !== '$schema' && !known.includes(k))
    .map((k) => {
      const close = didYouMean(k, listed);
      return `unknown field \`${at}${k}\` (known: ${listed.join(', ')})${close.length > 0 ? `; did you mean ${close.map((c) => `\`${at}${c}\``).join(' or ')}?` : ''}`;
    });
}

/**
 * `` ; did you mean "fenced"? `` when known values are close to `input` ({@link didYouMean}), else
 * `''`: the tail of a sentence that refuses a value (`` `textFallback` must be "any", "fenced" or "off" ``).
 * Anything but a string gets `''`.
 */
export function didYouMeanTail(input: unknown, known: readonly string[]): string {
  if (typeof input !== 'string' || input === '') return '';
  const close = didYouMean(input, known);
  return close.length > 0 ? `; did you mean ${close.map((c) => `"${c}"`).join(' or ')}?` : '';
}
