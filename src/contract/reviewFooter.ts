/**
 * The review-footer contracts (a Markdown codec), DESIGN.md "Contracts in the mission" item 5. A review
 * is Markdown whose last non-blank line is its footer, exactly:
 * - `## Result: PASS`, `## Result: WARN` or `## Result: FAIL` for a verdict review (contract
 *   `review-footer`);
 * - `## Result: REPORT` for a critique (contract `critique-footer`).
 * Two contract names, because a case names only its contract and the consumer knows which kind of
 * review it asked for. Trailing whitespace on a line and blank lines after the footer are not text.
 *
 * Rejected, each with a named {@link FooterProblem}:
 * - `extra-result-line`: more than one result-like line (a heading named Result or Verdict, or a
 *   `Result:` / `Verdict:` / `Outcome:` label followed by a result word, in any Markdown dress);
 * - `alias`: the one result-like line is not the canonical footer (`Result: pass`,
 *   `**Result:** PASS`, `## Verdict: PASS`, `### Result: PASS`, `## Result: Pass`);
 * - `unknown-result`: `## Result: <word>` with a word that is no result (`## Result: MAYBE`);
 * - `wrong-kind`: a critique's `REPORT` in a verdict review, or a verdict in a critique;
 * - `trailing-text`: text after the footer;
 * - `no-footer`: no result-like line at all.
 *
 * Up to 3 attempts (the presets' `corrections.budget` 2). A rejected footer with attempts left is a
 * `retry` whose `addendum` names the problem, so each next prompt carries the previous problem; on the
 * last attempt it is `dropped-unusable` with the problem (`extensions.exhausted`). The accepted value
 * is `{kind, result}`. The presets are schemas/contracts/{review,critique}-footer.contract.json.
 */
import type { Reply } from '#src/envelope/types.ts';
import { FOOTER_RESULTS, type ReviewKind } from './footerResults.ts';
import type { Reading } from './types.ts';
import { clipText } from '#src/diagnostics/evidence.ts';

export { FOOTER_RESULTS, type ReviewKind };

/** The named problems of a rejected footer (see the module doc). */
export const FOOTER_PROBLEMS = ['no-footer', 'extra-result-line', 'alias', 'unknown-result', 'wrong-kind', 'trailing-text'] as const;

/** One of {@link FOOTER_PROBLEMS}. */
export type FooterProblem = (typeof FOOTER_PROBLEMS)[number];

/**
 * A footer read off a review: accepted with its result word and 1-based line, or rejected with its
 * named problem and one sentence of detail.
 */
export type FooterReading =
  | { ok: true; kind: ReviewKind; result: string; line: number }
  | { ok: false; problem: FooterProblem; detail: string };

const ALL_WORDS = [...FOOTER_RESULTS.verdict, ...FOOTER_RESULTS.critique];
const CANONICAL = /^## Result: ([A-Z]+)$/;
/** A heading (any level, any emphasis) whose title starts with Result or Verdict and has a colon. */
const HEADING_RESULT = /^\s{0,3}(?:>\s*)*#{1,6}\s+[*_`]*\s*(?:final\s+|overall\s+)?(?:result|verdict)\b[^:]*:/i;
/** A `Result:` / `Verdict:` / `Outcome:` label, in any Markdown dress, followed by a result word. */
const LABEL_RESULT = new RegExp(
  String.raw`^\s*(?:>\s*)*(?:[-*+]\s+)?(?:#{1,6}\s+)?[*_\x60]*\s*(?:final\s+|overall\s+)?(?:result|verdict|outcome)\s*[*_\x60]*\s*:\s*[*_\x60]*\s*(?:${ALL_WORDS.join('|')})\b`,
  'i',
);

/** True when `line` looks like a result line, canonical or not. */
export function isResultLike(line: string): boolean {
  return CANONICAL.test(line.trimEnd()) || HEADING_RESULT.test(line) || LABEL_RESULT.test(line);
}

/**
 * Read the footer of `markdown` for a review of `kind`. Never throws.
 *
 * @example
 * readFooter('Looks fine.\n\n## Result: PASS\n', 'verdict') // { ok: true, kind: 'verdict', result: 'PASS', line: 3 }
 * readFooter('Looks fine.\n\n**Result:** PASS', 'verdict').ok // false (problem 'alias')
 */
export function readFooter(markdown: string, kind: ReviewKind): FooterReading {
  const lines = markdown.split(/\r\n|\r|\n/).map((l) => l.trimEnd());
  let last = lines.length - 1;
  while (last >= 0 && lines[last]!.trim() === '') last -= 1;
  const resultLike = lines.map((l, i) => (isResultLike(l) ? i : -1)).filter((i) => i >= 0);
  const quote = (i: number): string => `line ${i + 1} \`${clipText(lines[i]!.trim(), 60)}\``;
  const allowed = FOOTER_RESULTS[kind] as readonly string[];
  const canonical = allowed.map((w) => `\`## Result: ${w}\``).join(', ');
  if (resultLike.length === 0) {
    return { ok: false, problem: 'no-footer', detail: `no result line; the last line must be one of ${canonical}` };
  }
  if (resultLike.length > 1) {
    return { ok: false, problem: 'extra-result-line', detail: `${resultLike.length} result-like lines (${resultLike.map(quote).join(', ')}); exactly one, the last line, is allowed` };
  }
  const at = resultLike[0]!;
  const match = CANONICAL.exec(lines[at]!);
  if (!match) {
    const word = ALL_WORDS.find((w) => new RegExp(`\\b${w}\\b`, 'i').test(lines[at]!));
    const suggestion = word && allowed.includes(word.toUpperCase()) ? `\`## Result: ${word.toUpperCase()}\`` : canonical;
    return { ok: false, problem: 'alias', detail: `${quote(at)} is not the footer; write exactly ${suggestion}` };
  }
  const result = match[1]!;
  if (!ALL_WORDS.includes(result as (typeof ALL_WORDS)[number])) {
    return { ok: false, problem: 'unknown-result', detail: `${quote(at)}: ${result} is not a result; use one of ${canonical}` };
  }
  if (!allowed.includes(result)) {
    const other = kind === 'verdict' ? 'a critique' : 'a verdict review';
    return { ok: false, problem: 'wrong-kind', detail: `${quote(at)}: ${result} ends ${other}; this ${kind === 'verdict' ? 'verdict review' : 'critique'} ends with one of ${canonical}` };
  }
  if (at !== last) {
    return { ok: false, problem: 'trailing-text', detail: `text after the footer (${quote(at + 1 + lines.slice(at + 1).findIndex((l) => l.trim() !== ''))}); the footer must be the last line` };
  }
  return { ok: true, kind, result, line: at + 1 };
}

/**
 * The `markdown-footer` codec (`extensions.codec: { kind: 'markdown-footer', review }`): reads the
 * reply text (or a structured field that is a string) and its footer. The attempts are the
 * contract's `corrections` (./define.ts); each correction's addendum names the problem.
 */
export function footerCodec(kind: ReviewKind): { read(reply: Reply): Reading; addendum(reading: Extract<FooterReading, { ok: false }>): string } {
  const words = FOOTER_RESULTS[kind] as readonly string[];
  const addendum = (reading: Extract<FooterReading, { ok: false }>): string =>
    `Your previous review was rejected (${reading.problem}): ${reading.detail}. ` +
    `End the review with exactly one final line, one of ${words.map((w) => `\`## Result: ${w}\``).join(', ')}: ` +
    'a level-2 heading, the word Result, a colon, the result in capitals; nothing after it, and no other Result or Verdict line anywhere.';

  const read = (reply: Reply): Reading => {
    const text = reply.text ?? (typeof reply.structured?.value === 'string' ? { origin: reply.structured.key, value: reply.structured.value } : undefined);
    if (!text || text.value.trim() === '') return { kind: 'miss', shape: 'empty', detail: 'it was empty', why: ['produced no review text'], problems: [], correctable: false };
    const reading = readFooter(text.value, kind);
    if (reading.ok) {
      return {
        kind: 'answer',
        value: { kind, result: reading.result },
        origin: text.origin,
        fenced: false,
        fromText: false,
        final: null,
        score: 2,
        accepted: [`accepted footer \`## Result: ${reading.result}\` on line ${reading.line} of ${text.origin}`],
      };
    }
    const named = `footer rejected (${reading.problem}): ${reading.detail}`;
    return { kind: 'miss', shape: reading.problem, detail: reading.detail, why: [named], problems: [], reason: reading.problem, named, addendum: addendum(reading) };
  };
  return { read, addendum };
}

