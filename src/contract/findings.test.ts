import { describe, expect, it } from 'vitest';
import { presetContract } from '#src/contract/presets.ts';
import { decoderFor } from '#src/routes/registry.ts';
import type { Envelope } from '#src/envelope/types.ts';

const contract = presetContract('findings-code');

const FINDING = {
  title: 'Off by one',
  severity: 'P1',
  file: 'src/a.ts',
  line: 3,
  why_it_matters: 'Drops the last item.',
  autofix_class: 'manual',
  owner: 'human',
  requires_verification: true,
  confidence: 75,
  evidence: ['src/a.ts:3'],
  pre_existing: false,
};
const REVIEW = { reviewer: 'r', findings: [FINDING], residual_risks: [], testing_gaps: [] };
const EMPTY = { reviewer: 'r', findings: [], residual_risks: [], testing_gaps: [] };
const STUB = { findings: [] };

function judge(route: string, stdout: string) {
  const envelope: Envelope = { stdout, stderr: '', exitCode: 0, elapsedMs: 10 };
  const decoded = decoderFor(route).decode(envelope, contract.decodeOptions);
  const verdict = contract.judge(decoded, { attempt: 0, elapsedMs: 10 });
  const rule = / rule ([a-z-]+)/.exec(verdict.evidence.join('\n'))?.[1];
  return { verdict, selection: rule === undefined ? null : { rule } };
}

const grok = (fields: Record<string, unknown>) => JSON.stringify(fields);

describe('findings selection', () => {
  it('takes a populated structured field first (rule structured-populated)', () => {
    const { verdict, selection } = judge('grok/json', grok({ text: JSON.stringify(EMPTY), structuredOutput: REVIEW }));
    expect(selection?.rule).toBe('structured-populated');
    expect(verdict).toMatchObject({ verdict: 'accepted', origin: 'structuredOutput', value: REVIEW, score: 2 });
  });

  it('lets a populated review in text beat an empty structured stub (rule reply-populated)', () => {
    const { verdict, selection } = judge('grok/json', grok({ text: JSON.stringify(REVIEW), structuredOutput: STUB }));
    expect(selection?.rule).toBe('reply-populated');
    expect(verdict).toMatchObject({ verdict: 'accepted', origin: 'text', value: REVIEW });
  });

  it('prefers the populated review in one string whichever comes first', () => {
    for (const text of [JSON.stringify(STUB) + JSON.stringify(REVIEW), JSON.stringify(REVIEW) + JSON.stringify(STUB)]) {
      expect(judge('grok/json', grok({ text })).verdict).toMatchObject({ verdict: 'accepted', value: REVIEW });
    }
  });

  it('accepts an empty structured field alone as "found nothing" and fills the publish defaults', () => {
    const { verdict, selection } = judge('grok/json', grok({ text: 'nothing to report', structuredOutput: STUB }));
    expect(selection?.rule).toBe('structured-empty');
    expect(verdict).toMatchObject({ verdict: 'accepted', score: 1, value: { reviewer: 'peer', findings: [], residual_risks: [], testing_gaps: [] } });
    expect(verdict.evidence.join('\n')).toContain('found nothing');
  });

  it('recovers from the whole of stdout when no decoder candidate is shaped; the last top-level review wins', () => {
    const { verdict, selection } = judge('generic', `${JSON.stringify(REVIEW)}\n${JSON.stringify(EMPTY)}\n`);
    expect(selection?.rule).toBe('recovered');
    expect(verdict).toMatchObject({ verdict: 'accepted', origin: 'stdout', value: EMPTY });
  });

  it('in recovery, prefers the last populated review nested in a string over top-level ones', () => {
    const events = [
      { type: 'item.completed', item: { type: 'agent_message', text: JSON.stringify(REVIEW) } },
      { type: 'item.completed', item: { type: 'agent_message', text: 'done' } },
      { type: 'turn.completed', findings: [] },
    ];
    const { verdict, selection } = judge('generic', events.map((e) => JSON.stringify(e)).join('\n'));
    expect(selection?.rule).toBe('recovered');
    expect(verdict).toMatchObject({ verdict: 'accepted', value: REVIEW });
  });

  it('does not fall back to another candidate when the chosen review is not schema-valid', () => {
    const bad = { ...REVIEW, findings: [{ ...FINDING, line: 0 }] };
    const { verdict } = judge('grok/json', grok({ text: JSON.stringify(EMPTY), structuredOutput: bad }));
    expect(verdict.verdict).toBe('dropped-unusable');
    expect(verdict.evidence.join('\n')).toContain('/findings/0/line must be >= 1');
  });

  it('drops an envelope where no object has a findings array, and says so', () => {
    const { verdict, selection } = judge('grok/json', grok({ text: '{"summary":"looks fine"}' }));
    expect(selection).toBeNull();
    expect(verdict.verdict).toBe('dropped-unusable');
    expect(verdict.evidence[0]).toContain('no object with a findings array');
  });

  it('treats findings that is not an array as unshaped', () => {
    expect(judge('grok/json', grok({ structuredOutput: { findings: 'none' } })).verdict.verdict).toBe('dropped-unusable');
  });
});
