/**
 * The "other answer" of the selection checks must be an answer the schema accepts, or the check
 * tests nothing: with an enum anchor (what `init` picks for a schema with an enum), the anchor with
 * a suffix (`"high (an earlier settled answer)"`) was no candidate at all, so tie-to-later and
 * structured-beside-text certified a worker that picks the earlier answer or trusts a non-final
 * structured field (a new-user trial). The certify-level proof is a broken worker refused on such a
 * contract; this file pins the rule the three checks share.
 */
import { describe, expect, it } from 'vitest';
import type { LoadedCase } from '#src/record/corpus.ts';
import type { CaseFile } from '#src/envelope/caseTypes.ts';
import { tieAttempt } from './cases.ts';
import { anchorVariant, validFor } from './generated.ts';

const TRIAGE = {
  type: 'object',
  required: ['severity', 'summary', 'final'],
  additionalProperties: false,
  properties: { severity: { enum: ['none', 'low', 'medium', 'high'] }, summary: { type: 'string' }, final: { type: 'boolean' } },
};
const ANSWER = { severity: 'high', summary: 'One finding.', final: true };

describe('anchorVariant', () => {
  it('an enum anchor takes another of its values, never a suffixed string the schema refuses', () => {
    const suffixed = { ...ANSWER, severity: 'high (an earlier settled answer)' };
    expect(validFor(TRIAGE, suffixed)).toBe(false);
    const v = anchorVariant(ANSWER, 'severity', TRIAGE, { tries: [suffixed] });
    expect(v).toEqual({ ...ANSWER, severity: 'none' });
    expect(validFor(TRIAGE, v)).toBe(true);
  });

  it('a free string anchor keeps the caller\'s variation; overrides apply; null when nothing valid differs', () => {
    const free = { ...TRIAGE, properties: { ...TRIAGE.properties, severity: { type: 'string' } } };
    expect(anchorVariant(ANSWER, 'severity', free, { tries: [{ ...ANSWER, severity: 'high (a placeholder)' }], overrides: { final: false } })).toEqual({ ...ANSWER, severity: 'high (a placeholder)', final: false });
    const single = { ...TRIAGE, properties: { ...TRIAGE.properties, severity: { const: 'high' } } };
    expect(anchorVariant(ANSWER, 'severity', single, { tries: [{ ...ANSWER, severity: 'high!' }] })).toBeNull();
  });
});

describe('tieAttempt on an enum anchor', () => {
  it('places two schema-valid final answers, the earlier with another enum value', () => {
    const stdout = `${JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: JSON.stringify(ANSWER), structured_output: ANSWER })}\n`;
    const c = { file: 'accepted.json', warnings: [], case: { id: 'x', route: 'claude-code/json', contract: 'triage', attempts: [{ stdout, stderr: '', exitCode: 0 }], expect: { verdict: 'accepted', value: ANSWER } } as unknown as CaseFile } as LoadedCase;
    const tie = tieAttempt(c, 'severity', 'final', [], TRIAGE);
    expect(tie).not.toBeNull();
    expect(tie!.earlier).toEqual({ ...ANSWER, severity: 'none' });
    expect(validFor(TRIAGE, tie!.earlier)).toBe(true);
    const result = JSON.parse(tie!.attempt.stdout) as { result: string; structured_output?: unknown };
    expect(result.structured_output).toBeUndefined();
    expect(result.result).toBe(`${JSON.stringify(tie!.earlier)}${JSON.stringify(ANSWER)}`);
  });
});

describe('schema-invalid derives every kind of answer the schema refuses', () => {
  it('each required member, one inside an array item, an unlisted enum value, the enum value in other letters and a member the schema forbids (trials: workers that checked only the first, only the top level, matched without case or copied the answer through were certified)', async () => {
    const { FAILURE_CHECKS } = await import('./failureChecks.ts');
    const schema = {
      type: 'object',
      additionalProperties: false,
      required: ['severity', 'summary', 'items', 'final'],
      properties: {
        confidence: { type: 'number' },
        severity: { enum: ['none', 'low', 'high'] },
        summary: { type: 'string' },
        items: { type: 'array', items: { type: 'object', additionalProperties: false, required: ['file', 'line'], properties: { file: { type: 'string' }, line: { type: 'integer' } } } },
        final: { type: 'boolean' },
      },
    };
    const value = { severity: 'high', summary: 's', items: [{ file: 'a.ts', line: 3 }], final: true };
    const stdout = `${JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: JSON.stringify(value), structured_output: value })}\n`;
    const c = { file: 'accepted.json', warnings: [], case: { id: 'x', route: 'claude-code/json', contract: 'triage', attempts: [{ stdout, stderr: '', exitCode: 0 }], expect: { verdict: 'accepted', value } } as unknown as CaseFile } as LoadedCase;
    const env = { schema, anchor: 'severity', rules: { contract: 'triage', finalityKey: 'final', publishDefaults: [] }, route: { route: 'claude-code/json' }, cases: [c], smoke: { final: c }, acceptedValue: () => undefined };
    const check = FAILURE_CHECKS.find((d) => d.id === 'schema-invalid')!;
    const plan = check.plan(env as never);
    expect('runs' in plan).toBe(true);
    const labels = (plan as { runs: { label: string }[] }).runs.map((r) => r.label.replace(/^case \S+ \S+ /, ''));
    expect(labels).toEqual([
      'with required "summary" removed',
      'with required "items" removed',
      'with required "line" removed from its first "items" item',
      'with "severity": "unlisted" (not one of its enum values)',
      'with "severity" in other letters (its value upper-cased: not one of its enum values)',
      'with "confidence_extra", a member the schema forbids (additionalProperties: false)',
      'with "confidence" in its first "items" item, a member the item\'s schema forbids (additionalProperties: false)',
    ]);
    const runs = (plan as { runs: { attempts: { stdout: string }[]; data: Record<string, unknown> }[] }).runs;
    expect(runs.at(-2)!.data.forbidden).toEqual(['confidence_extra']);
    expect(JSON.parse(runs.at(-2)!.attempts[0]!.stdout).structured_output).toEqual({ ...value, confidence_extra: 0.8 });
    expect(runs.at(-1)!.data.forbidden).toEqual(['items', '0', 'confidence']);
    expect(JSON.parse(runs.at(-1)!.attempts[0]!.stdout).structured_output).toEqual({ ...value, items: [{ file: 'a.ts', line: 3, confidence: 0.8 }] });
  });
});

describe('schema-invalid judges a member the schema forbids', () => {
  const observed = (value: unknown) => ({ label: 'run', fault: null, killedAtOuterDeadline: false, leftovers: [], artifact: { path: '<tmp>/out/a.json', exists: value !== undefined, text: JSON.stringify(value ?? null), value, parseError: null } });
  const run = (value: unknown, forbidden: string[]) => ({ planned: { label: 'run', attempts: [], data: { refused: 'x', forbidden } }, observed: observed(value) });
  it('passes the answer dropped or published without the member (as ce-pov rebuilds it), fails it published with the member, top level or in an item', async () => {
    const { FAILURE_CHECKS } = await import('./failureChecks.ts');
    const judge = FAILURE_CHECKS.find((d) => d.id === 'schema-invalid')!.judge;
    const answer = { severity: 'high', items: [{ file: 'a.ts' }] };
    expect(judge([run(undefined, ['confidence'])] as never, {} as never, []).pass).toBe(true);
    expect(judge([run(answer, ['confidence'])] as never, {} as never, []).pass).toBe(true);
    expect(judge([run(answer, ['items', '0', 'confidence'])] as never, {} as never, []).pass).toBe(true);
    const top = judge([run({ ...answer, confidence: 0.8 }, ['confidence'])] as never, {} as never, []);
    expect(top.pass).toBe(false);
    expect(top.evidence.join('\n')).toContain('published "confidence", a member the schema forbids');
    const item = judge([run({ ...answer, items: [{ file: 'a.ts', confidence: 0.8 }] }, ['items', '0', 'confidence'])] as never, {} as never, []);
    expect(item.pass).toBe(false);
    expect(item.evidence.join('\n')).toContain('published "confidence" in its first "items" item');
  });
});
