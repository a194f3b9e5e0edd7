import { describe, expect, it } from 'vitest';
import { judgeCase } from '#src/contract/judgeCase.ts';
import { presetContract } from '#src/contract/presets.ts';
import { readFooter } from '#src/contract/reviewFooter.ts';
import { decoderFor } from '#src/routes/registry.ts';
import type { Envelope } from '#src/envelope/types.ts';

const BODY = '# Review\n\n- The check is off by one (src/a.ts:3).\n\n';

describe('readFooter', () => {
  it.each([
    ['## Result: PASS', 'PASS'],
    ['## Result: WARN   ', 'WARN'],
    ['## Result: FAIL\n\n\n', 'FAIL'],
    ['## Result: PASS\r\n', 'PASS'],
  ])('accepts %j as the footer', (footer, result) => {
    expect(readFooter(BODY + footer, 'verdict')).toMatchObject({ ok: true, kind: 'verdict', result });
  });

  it.each([
    ['Result: pass', 'alias', '`## Result: PASS`'],
    ['**Result:** PASS', 'alias', '`## Result: PASS`'],
    ['## Verdict: PASS', 'alias', '`## Result: PASS`'],
    ['### Result: FAIL', 'alias', '`## Result: FAIL`'],
    ['## Result: Pass', 'alias', '`## Result: PASS`'],
    ['## **Result**: WARN', 'alias', '`## Result: WARN`'],
    ['> Result: FAIL', 'alias', '`## Result: FAIL`'],
    ['## Result: MAYBE', 'unknown-result', 'MAYBE is not a result'],
    ['## Result: REPORT', 'wrong-kind', 'REPORT ends a critique'],
    ['## Result: PASS\n\nThanks for reading.', 'trailing-text', 'Thanks for reading.'],
    ['## Result: WARN\n## Result: PASS', 'extra-result-line', '2 result-like lines'],
    ['Overall fine.', 'no-footer', 'no result line'],
  ])('rejects %j as %s', (footer, problem, detail) => {
    const reading = readFooter(BODY + footer, 'verdict');
    expect(reading).toMatchObject({ ok: false, problem });
    if (!reading.ok) expect(reading.detail).toContain(detail);
  });

  it('counts a result-like line anywhere in the body, not only at the end', () => {
    expect(readFooter(`**Verdict:** FAIL\n\n${BODY}## Result: FAIL`, 'verdict')).toMatchObject({ ok: false, problem: 'extra-result-line' });
  });

  it('does not mistake prose that mentions a result for a result line', () => {
    expect(readFooter(`The result: the tests pass locally.\n## Results of the run: see CI\n${BODY}## Result: PASS`, 'verdict')).toMatchObject({ ok: true });
  });

  it('accepts only REPORT for a critique', () => {
    expect(readFooter(`${BODY}## Result: REPORT`, 'critique')).toMatchObject({ ok: true, kind: 'critique', result: 'REPORT' });
    expect(readFooter(`${BODY}## Result: PASS`, 'critique')).toMatchObject({ ok: false, problem: 'wrong-kind' });
  });
});

describe('review-footer contract', () => {
  const turn = (text: string): Envelope => ({ stdout: JSON.stringify({ text }), stderr: '', exitCode: 0, elapsedMs: 1000 });
  const decoder = decoderFor('grok/json');

  it('retries with the previous problem in the addendum, at most three attempts in all', () => {
    const contract = presetContract('review-footer');
    const judged = judgeCase({ attempts: [turn(`${BODY}Result: pass`), turn(`${BODY}## Result: PASS\nbye`), turn(`${BODY}none`), turn(`${BODY}## Result: PASS`)] }, contract, decoder);
    expect(judged.attempts.map((a) => a.verdict.verdict)).toEqual(['retry', 'retry', 'dropped-unusable']);
    expect(judged.unusedAttempts).toBe(1);
    const [first, second] = judged.attempts.map((a) => a.verdict);
    expect(first).toMatchObject({ verdict: 'retry', reason: 'alias', addendum: expect.stringContaining('(alias)') });
    expect(second).toMatchObject({ verdict: 'retry', reason: 'trailing-text', addendum: expect.stringContaining('(trailing-text)') });
    expect(judged.verdict.evidence[0]).toContain('attempt 3 of 3: footer rejected (no-footer)');
  });

  it('accepts on a later attempt with the kind and result as value', () => {
    const judged = judgeCase({ attempts: [turn(`${BODY}## Verdict: WARN`), turn(`${BODY}## Result: WARN`)] }, presetContract('review-footer'), decoder);
    expect(judged.verdict).toMatchObject({ verdict: 'accepted', attempt: 1, origin: 'text', value: { kind: 'verdict', result: 'WARN' } });
  });

  it('honours a smaller attempt budget', () => {
    const judged = judgeCase({ attempts: [turn(`${BODY}Result: pass`)] }, presetContract('review-footer', { corrections: { budget: 0 } }), decoder);
    expect(judged.verdict.verdict).toBe('dropped-unusable');
  });
});
