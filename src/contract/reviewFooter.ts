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
 * Up to `maxAttempts` attempts (default 3). A rejected footer with attempts left is a `retry` whose
 * `addendum` names the problem, so each next prompt carries the previous problem; on the last attempt
 * it is `dropped-unusable` with the problem. The accepted value is `{kind, result}`.
 */
import { clipText, type ClipPolicy } from '#src/diagnostics/evidence.ts';
import type { Decoded, Envelope } from '#src/envelope/types.ts';
import { noAnswer, runFailure } from './outcome.ts';
import { readReply } from './reply.ts';
import type { Contract, Verdict } from './types.ts';

/** The two kinds of review and the result words each may end with. */
export const FOOTER_RESULTS = { verdict: ['PASS', 'WARN', 'FAIL'], critique: ['REPORT'] } as const;

/** `verdict` (PASS, WARN, FAIL) or `critique` (REPORT). */
export type ReviewKind = keyof typeof FOOTER_RESULTS;

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
 * Policy of the review-footer contracts.
 * - `maxAttempts`: attempts in all, the first included (default 3);
 * - `hardWindowS`: the window reported as `remainingMs` on a retry (default 600 s).
 */
export interface FooterPolicy {
  maxAttempts: number;
  hardWindowS: number;
}

/** Defaults of {@link FooterPolicy}. */
export const DEFAULT_FOOTER_POLICY: FooterPolicy = { maxAttempts: 3, hardWindowS: 600 };

/** A compiled review-footer contract. Build with {@link reviewFooterContract}. */
export interface ReviewFooterContract extends Contract {
  kind: ReviewKind;
  policy: FooterPolicy;
  /** The prompt addendum after a rejected footer: the problem, then the rule restated. */
  addendum(reading: Extract<FooterReading, { ok: false }>): string;
}

/**
 * Build a review-footer contract for reviews of `kind`.
 *
 * @param options `name` (default `review-footer` / `critique-footer`), `policy`, `clip`.
 */
export function reviewFooterContract(
  kind: ReviewKind,
  options: { name?: string; policy?: Partial<FooterPolicy>; clip?: ClipPolicy } = {},
): ReviewFooterContract {
  const policy: FooterPolicy = { ...DEFAULT_FOOTER_POLICY, ...options.policy };
  const clipPolicy = options.clip ?? 'head-tail';
  const words = FOOTER_RESULTS[kind] as readonly string[];

  const addendum = (reading: Extract<FooterReading, { ok: false }>): string =>
    `Your previous review was rejected (${reading.problem}): ${reading.detail}. ` +
    `End the review with exactly one final line, one of ${words.map((w) => `\`## Result: ${w}\``).join(', ')}: ` +
    'a level-2 heading, the word Result, a colon, the result in capitals; nothing after it, and no other Result or Verdict line anywhere.';

  const judge = (envelope: Envelope, decoded: Decoded, context: { attempt: number; elapsedMs: number }): Verdict => {
    const attempt = context.attempt;
    const early = runFailure(envelope, decoded, attempt, clipPolicy);
    if (early) return early;
    if (decoded.status.kind === 'provider-error' || decoded.status.kind === 'crashed') return noAnswer(envelope, decoded, attempt, clipPolicy, []);
    const reply = readReply(envelope);
    const text = reply.text ?? (typeof reply.structured?.value === 'string' ? { origin: reply.structured.key, value: reply.structured.value } : undefined);
    if (!text || text.value.trim() === '') return noAnswer(envelope, decoded, attempt, clipPolicy, ['produced no review text']);
    const reading = readFooter(text.value, kind);
    if (reading.ok) {
      return {
        verdict: 'accepted',
        attempt,
        origin: text.origin,
        value: { kind, result: reading.result },
        score: 2,
        evidence: [`accepted footer \`## Result: ${reading.result}\` on line ${reading.line} of ${text.origin}${attempt > 0 ? ` on attempt ${attempt + 1}` : ''}`],
      };
    }
    const named = `footer rejected (${reading.problem}): ${reading.detail}`;
    if (attempt + 1 < policy.maxAttempts) {
      return {
        verdict: 'retry',
        attempt,
        reason: reading.problem,
        addendum: addendum(reading),
        remainingMs: Math.max(0, policy.hardWindowS * 1000 - context.elapsedMs),
        evidence: [`attempt ${attempt + 1} of ${policy.maxAttempts}: ${named}; retrying with the problem in the prompt`],
      };
    }
    return noAnswer(envelope, decoded, attempt, clipPolicy, [`attempt ${attempt + 1} of ${policy.maxAttempts}: ${named}; no attempts left`]);
  };

  return { name: options.name ?? (kind === 'verdict' ? 'review-footer' : 'critique-footer'), anchor: 'Result', kind, policy, addendum, judge };
}

