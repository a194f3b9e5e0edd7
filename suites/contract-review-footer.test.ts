/**
 * The review-footer contracts (`review-footer`, `critique-footer`; DESIGN.md "Contracts in the
 * mission" item 5): exactly one final `## Result: PASS|WARN|FAIL` (verdict review) or
 * `## Result: REPORT` (critique); aliases and extra result-like lines are rejected with a named
 * problem; up to three attempts, each retry carrying the previous problem in its addendum.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgeCase } from '#src/contract/judgeCase.ts';
import { loadContract } from '#src/contract/registry.ts';
import { FOOTER_PROBLEMS, isResultLike } from '#src/contract/reviewFooter.ts';
import { decoderFor } from '#src/routes/registry.ts';
import type { Envelope } from '#src/envelope/types.ts';
import { corpus, judge } from './_helpers/corpus.ts';

const rows = corpus.cases.filter((c) => c.case.contract === 'review-footer' || c.case.contract === 'critique-footer');
const label = (c: (typeof rows)[number]) => `${c.case.id} ${c.case.contract} ${c.case.route}: ${c.case.description}`;

describe('review-footer: corpus', () => {
  it('has at least eight verdict-review cases and some critique cases', () => {
    expect(rows.filter((c) => c.case.contract === 'review-footer').length).toBeGreaterThanOrEqual(8);
    expect(rows.filter((c) => c.case.contract === 'critique-footer').length).toBeGreaterThanOrEqual(3);
  });

  it('names every footer problem somewhere in the corpus', async () => {
    const seen = new Set<string>();
    for (const c of rows) {
      const judged = judgeCase(c.case, await loadContract(c.case.contract), decoderFor(c.case.route));
      for (const a of judged.attempts) for (const p of FOOTER_PROBLEMS) if (a.verdict.evidence.some((e) => e.includes(`(${p})`))) seen.add(p);
    }
    expect([...seen].sort()).toEqual([...FOOTER_PROBLEMS].sort());
  });

  it.each(rows.map((c) => [label(c), c] as const))('%s', async (_label, c) => {
    const judged = judgeCase(c.case, await loadContract(c.case.contract), decoderFor(c.case.route));
    expect(judged.verdict.verdict).toBe(c.case.expect.verdict);
    expect(judged.attempts.length).toBeLessThanOrEqual(3);
    // Each retry names the problem of its attempt, and that problem is what the next prompt carries.
    for (const a of judged.attempts) {
      if (a.verdict.verdict !== 'retry') continue;
      expect(FOOTER_PROBLEMS).toContain(a.verdict.reason);
      expect(a.verdict.addendum).toContain(`(${a.verdict.reason})`);
      expect(a.verdict.evidence.join('\n')).toContain(`(${a.verdict.reason})`);
    }
    expect(await judge(c)).toEqual(judged.verdict);
  });
});

describe('review-footer: properties', async () => {
  const review = await loadContract('review-footer');
  const critique = await loadContract('critique-footer');
  const grok = decoderFor('grok/json');
  const envelope = (text: string): Envelope => ({ stdout: JSON.stringify({ text }), stderr: '', exitCode: 0, elapsedMs: 1000 });
  const line = fc.stringMatching(/^[a-z][a-z ,.()`:/-]{0,60}$/).filter((l) => !isResultLike(l));
  const body = fc.array(line, { maxLength: 8 }).map((ls) => `# Review\n\n${ls.join('\n')}\n\n`);

  it('any body ending with a canonical footer (and only blank lines after it) is accepted', () => {
    fc.assert(
      fc.property(body, fc.constantFrom('PASS', 'WARN', 'FAIL'), fc.constantFrom('', '\n', '\n\n  \n'), (b, word, after) => {
        const verdict = judgeCase({ attempts: [envelope(`${b}## Result: ${word}${after}`)] }, review, grok).verdict;
        expect(verdict).toMatchObject({ verdict: 'accepted', value: { kind: 'verdict', result: word } });
      }),
    );
  });

  it('any non-blank text after the footer is rejected as trailing-text', () => {
    fc.assert(
      fc.property(body, line.filter((l) => l.trim() !== ''), (b, tail) => {
        const verdict = judgeCase({ attempts: [envelope(`${b}## Result: PASS\n${tail}`)] }, review, grok).verdict;
        expect(verdict).toMatchObject({ verdict: 'retry', reason: 'trailing-text' });
      }),
    );
  });

  it('every alias of the footer is rejected as an alias, for both kinds', () => {
    const aliases = (w: string) => [`Result: ${w.toLowerCase()}`, `Result: ${w}`, `**Result:** ${w}`, `**Result**: ${w}`, `## Verdict: ${w}`, `# Result: ${w}`, `### Result: ${w}`, `## result: ${w}`, `- Result: ${w}`, `## Result: ${w[0]}${w.slice(1).toLowerCase()}`];
    fc.assert(
      fc.property(body, fc.constantFrom('PASS', 'WARN', 'FAIL', 'REPORT'), fc.nat(), (b, word, pick) => {
        const list = aliases(word);
        const alias = list[pick % list.length]!;
        const contract = word === 'REPORT' ? critique : review;
        const verdict = judgeCase({ attempts: [envelope(`${b}${alias}`)] }, contract, grok).verdict;
        expect(verdict, alias).toMatchObject({ verdict: 'retry', reason: 'alias' });
      }),
    );
  });

  it('a second result-like line anywhere is rejected', () => {
    fc.assert(
      fc.property(body, fc.constantFrom('**Verdict:** PASS', 'Result: FAIL', '## Result: WARN'), (b, extra) => {
        const verdict = judgeCase({ attempts: [envelope(`${extra}\n${b}## Result: PASS`)] }, review, grok).verdict;
        expect(verdict).toMatchObject({ verdict: 'retry', reason: 'extra-result-line' });
      }),
    );
  });
});
