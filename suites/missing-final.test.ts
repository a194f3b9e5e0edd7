/**
 * Missing `final` fails closed: tagged cases are never accepted, and deleting the `final` member from
 * every JSON object of an accepted corpus case (at every level of string escaping) turns it into a
 * verdict other than `accepted`.
 */
import { describe, expect, it } from 'vitest';
import { stripFinal } from '#src/properties/finalRemoval.ts';
import { corpus, casesTagged, judge } from './_helpers/corpus.ts';

describe('missing-final: tagged cases fail closed', () => {
  it.each(casesTagged('missing-final'))('%s', async (_label, c) => {
    const verdict = await judge(c);
    expect(verdict.verdict).not.toBe('accepted');
    expect(verdict.verdict).toBe(c.case.expect.verdict);
  });
});

describe('missing-final: removing final from an accepted case never yields accepted', () => {
  // Finality is the pov contract's rule (DESIGN.md "Contracts in the mission" item 1); other contracts have no `final`.
  const accepted = corpus.cases.filter((c) => c.case.expect.verdict === 'accepted' && c.case.contract === 'pov');
  it('finds accepted cases', () => expect(accepted.length).toBeGreaterThanOrEqual(8));
  it.each(accepted.map((c) => [`${c.case.id} ${c.case.route}: ${c.case.description}`, c] as const))('%s', async (_label, c) => {
    const attempts = c.case.attempts.map((a) => ({
      ...a,
      stdout: stripFinal(a.stdout),
      ...(a.files ? { files: Object.fromEntries(Object.entries(a.files).map(([k, v]) => [k, stripFinal(v)])) } : {}),
    }));
    // A JSON member only (followed by `,` or `}`): CLIs that echo the prompt (Gemini stream-json,
    // grok-cli) carry the retry paragraph's prose `"final": true.` in their user line.
    expect(attempts.some((a) => /final\\*"\s*:\s*true\s*(?:[,}]|\\n)/.test(a.stdout))).toBe(false);
    const verdict = await judge(c, attempts);
    expect(verdict.verdict).not.toBe('accepted');
  });
});
