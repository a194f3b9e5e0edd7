/**
 * Bounded evidence from an envelope's stdout and stderr: a short message stays whole, a long one
 * is clipped so it can never flood a log nor vanish.
 *
 * Rule source: EveryInc/compound-engineering-plugin `bounded_failure_evidence` (PR #1175,
 * 2026-07-17), which replaced an unguarded `${x: -300}` tail that erased messages shorter than 300
 * characters on macOS bash 3.2 (PR #1153). See shared/research/ce-plugin.md section 1.9.
 */

/**
 * How long evidence is clipped:
 * - `head-tail` (default): first 147 characters + ` ... ` + last 147 characters (301 in all);
 * - `tail`: the last 300 characters.
 */
export type ClipPolicy = 'head-tail' | 'tail';

/** The bound, in characters (UTF-16 code units), up to which evidence stays whole. */
export const EVIDENCE_LIMIT_CHARS = 300;

const HEAD_TAIL_PART = 147;
const ELLIPSIS = ' ... ';

/**
 * Clip one evidence string: newlines (CR, LF, CRLF) become single spaces; a result of up to
 * {@link EVIDENCE_LIMIT_CHARS} characters is returned whole, a longer one is clipped by `policy`.
 *
 * @example
 * clipEvidence('schema invalid')            // 'schema invalid'
 * clipEvidence('x'.repeat(1000)).length     // 299 (147 + 5 + 147)
 */
export function clipEvidence(text: string, policy: ClipPolicy = 'head-tail'): string {
  const flat = text.replace(/\r\n|\r|\n/g, ' ');
  if (flat.length <= EVIDENCE_LIMIT_CHARS) return flat;
  if (policy === 'tail') return flat.slice(startOfCodePoint(flat, flat.length - EVIDENCE_LIMIT_CHARS));
  return flat.slice(0, endOfCodePoint(flat, HEAD_TAIL_PART)) + ELLIPSIS + flat.slice(startOfCodePoint(flat, flat.length - HEAD_TAIL_PART));
}

/**
 * `text` whole when it has at most `maxChars` characters (UTF-16 code units), else cut so that it
 * and `marker` (default `...`; a function gets the number of characters left out) fit in
 * `maxChars`, never inside a surrogate pair. The one clip of short messages (report cells,
 * problems, verdict reasons); evidence lines use {@link clipEvidence}.
 *
 * @example
 * clipText('abcdefgh', 6)   // 'abc...'
 * clipText('ab😀cd', 5)     // 'ab...' (not half the emoji)
 */
export function clipText(text: string, maxChars: number, marker: string | ((omittedChars: number) => string) = '...'): string {
  if (text.length <= maxChars) return text;
  let keep = maxChars - (typeof marker === 'string' ? marker : marker(text.length - maxChars)).length;
  keep = endOfCodePoint(text, Math.max(0, keep));
  return text.slice(0, keep) + (typeof marker === 'string' ? marker : marker(text.length - keep));
}

/** `end` moved back by one when it would cut a surrogate pair (so no half emoji is kept). */
function endOfCodePoint(text: string, end: number): number {
  const c = text.charCodeAt(end - 1);
  return c >= 0xd800 && c <= 0xdbff ? end - 1 : end;
}

/** `start` moved forward by one when it would begin inside a surrogate pair. */
function startOfCodePoint(text: string, start: number): number {
  const c = text.charCodeAt(start);
  return c >= 0xdc00 && c <= 0xdfff ? start + 1 : start;
}

/**
 * Evidence for a stream (stdout) that a decoder read: its human fields first (`result`, `message`,
 * `error.message`, de-duplicated, joined with ` | `), else the raw text; then the ancillary
 * fragments (`api_error_status=529`, `terminal_reason=api_error`), joined with spaces; then clipped.
 * Returns `''` when there is nothing to say.
 */
export function boundedEvidence(
  parts: { human: string[]; ancillary: string[]; raw: string },
  policy: ClipPolicy = 'head-tail',
): string {
  const human = [...new Set(parts.human.filter((h) => h.trim() !== ''))].join(' | ');
  const base = human !== '' ? human : parts.raw.trim();
  const text = [base, ...parts.ancillary].filter((p) => p !== '').join(' ');
  return clipEvidence(text, policy);
}
