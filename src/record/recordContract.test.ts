/**
 * The scenarios `record --config` generates from a team's schema, and the rule each verdict must
 * meet: the check bites on a contract that accepts what it should refuse, or refuses a valid answer.
 */
import { describe, expect, it } from 'vitest';
import { defineContract } from '#src/contract/define.ts';
import type { Verdict } from '#src/contract/types.ts';
import { compileValidator } from '#src/contract/validator.ts';
import { caseId } from './caseId.ts';
import { contractCase, contractScenarios, ruleProblems, withExpectation } from './recordContract.ts';

const schema = {
  type: 'object',
  properties: { decision: { type: 'string', enum: ['ship', 'hold'] }, reason: { type: 'string', minLength: 1 }, done: { type: 'boolean' } },
  required: ['decision', 'reason', 'done'],
  additionalProperties: false,
};

describe('contractScenarios', () => {
  it('a valid payload (finality true), its placeholder (finality false), one missing each required field, prose, scalar, 400/429/529, stall', async () => {
    const scenarios = await contractScenarios(defineContract({ name: 'decision', schema, anchor: 'decision', finality: { key: 'done' }, selection: 'score' }));
    expect(scenarios.map((s) => s.slug)).toEqual(['final', 'placeholder-then-final', 'missing-decision', 'missing-reason', 'missing-done', 'prose-only', 'scalar', 'api-400', 'api-429', 'api-529', 'stall']);
    const final = scenarios[0]!.payloads.final;
    expect(compileValidator(schema)(final)).toEqual([]);
    expect(final.done).toBe(true);
    expect(scenarios[1]!.payloads.placeholder).toEqual({ ...final, done: false });
    expect(Object.keys(scenarios[3]!.payloads.placeholder)).toEqual(Object.keys(final).filter((k) => k !== 'reason'));
    expect(scenarios.find((s) => s.slug === 'api-429')!.payloads.error?.status).toBe(429);
    expect(scenarios.find((s) => s.slug === 'scalar')!.payloads.text).toBe('42');
  });
});

describe('ruleProblems bites', () => {
  const accepted = (value: unknown): Verdict => ({ verdict: 'accepted', origin: 'structured_output', value, evidence: [] }) as unknown as Verdict;
  const dropped: Verdict = { verdict: 'dropped-unusable', evidence: [] } as unknown as Verdict;
  it('accept, refuse and timeout rules', async () => {
    const [final, , missing] = await contractScenarios(defineContract({ name: 'decision', schema, anchor: 'decision', finality: { key: 'done' }, selection: 'score' }));
    expect(ruleProblems(final!, accepted(final!.payloads.final))).toEqual([]);
    expect(ruleProblems(final!, dropped)[0]).toContain('was not accepted');
    expect(ruleProblems(final!, accepted({ ...final!.payloads.final, reason: 'other' }))[0]).toContain('"reason"');
    expect(ruleProblems(missing!, dropped)).toEqual([]);
    expect(ruleProblems(missing!, accepted({}))[0]).toContain('does not fail closed');
  });
});

describe('withExpectation', () => {
  it('a case whose expectation is replaced (a FAIL-recorded case) gets the id of its new content', async () => {
    const scenario = (await contractScenarios(defineContract({ name: 'decision', schema, anchor: 'decision', finality: 'none', selection: 'score' })))[0]!;
    const verdict = { verdict: 'dropped-unusable', evidence: [], attempt: 0 } as unknown as Verdict;
    const c = contractCase({ contract: 'decision', route: 'claude-code/json', cli: { name: 'claude', version: '2.0.0' }, scenario, attempts: [{ stdout: 'hello\n', stderr: '', exitCode: 0, elapsedMs: 1 }], verdict });
    const replaced = withExpectation(c, { verdict: 'accepted', value: scenario.payloads.final });
    expect(replaced.expect.verdict).toBe('accepted');
    expect(replaced.id).not.toBe(c.id);
    expect(replaced.id).toBe(caseId(replaced));
    expect(c.id).toBe(caseId(c));
  });
});
