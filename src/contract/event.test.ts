import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineContract } from '#src/contract/define.ts';
import type { EventContract } from '#src/contract/event.ts';
import { presetDefinition, PRESET_DIR } from '#src/contract/presets.ts';
import { decoderFor } from '#src/routes/registry.ts';
import type { Envelope } from '#src/envelope/types.ts';
import { projectPath } from '#src/paths.ts';

const schema = JSON.parse(readFileSync(projectPath('schemas/contracts/event.schema.json'), 'utf8')) as Record<string, unknown>;
const eventContract = (s: Record<string, unknown>, codec: { allowedKinds: string[] }) =>
  defineContract({ ...presetDefinition('event'), schema: s, extensions: { codec: { kind: 'event', ...codec } } }, PRESET_DIR) as EventContract;
const contract = eventContract(schema, { allowedKinds: ['progress', 'finding', 'done'] });
const EVENT = { kind: 'finding', text: 'The cache is never invalidated.', ref: 'src/cache.ts:40' };

function judgeText(text: string) {
  const envelope: Envelope = { stdout: JSON.stringify({ text }), stderr: '', exitCode: 0, elapsedMs: 5 };
  return contract.judge(decoderFor('grok/json').decode(envelope, contract.decodeOptions), { attempt: 0, elapsedMs: 5 });
}

describe('event: parser tiers', () => {
  it('reads a reply that is one JSON object as strict-json', () => {
    expect(contract.evaluate(`  ${JSON.stringify(EVENT)}\n`, 'text')).toMatchObject({ tier: 'strict-json', value: EVENT, problems: [] });
  });

  it('reads an object in prose or in a fence as embedded-block, the last one with a kind winning', () => {
    const text = `Context {"note":1}\n\`\`\`json\n${JSON.stringify(EVENT)}\n\`\`\`\nThen {"other":true}`;
    expect(contract.evaluate(text, 'text')).toMatchObject({ tier: 'embedded-block', value: EVENT, fenced: true, problems: [] });
  });

  it('wraps prose as a raw-fallback event that always carries a problem', () => {
    const reading = contract.evaluate('  still reading files  ', 'text');
    expect(reading).toMatchObject({ tier: 'raw-fallback', value: { kind: 'progress', text: 'still reading files', ref: null } });
    expect(reading.problems).toHaveLength(1);
  });

  it('never accepts a raw-fallback reply, whatever its text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }).filter((s) => !s.includes('{') && s.trim() !== ''), (text) => {
        const verdict = judgeText(text);
        expect(verdict.verdict).toBe('dropped-unusable');
        expect(verdict).toMatchObject({ tier: 'raw-fallback' });
      }),
      { numRuns: 200 },
    );
  });
});

describe('event: kinds', () => {
  it('accepts a kind the agent may emit and records the tier on the verdict', () => {
    expect(judgeText(JSON.stringify(EVENT))).toMatchObject({ verdict: 'accepted', tier: 'strict-json', value: EVENT, score: 2 });
  });

  it('rejects a schema-valid kind outside the allowed ones, naming it', () => {
    const verdict = judgeText(JSON.stringify({ ...EVENT, kind: 'question' }));
    expect(verdict).toMatchObject({ verdict: 'dropped-unusable', tier: 'strict-json' });
    expect(verdict.evidence[0]).toContain('kind "question" is not one of this agent\'s allowed kinds (progress, finding, done)');
  });

  it('refuses to build without an allowed kind', () => {
    expect(() => eventContract(schema, { allowedKinds: [] })).toThrow(/at least one allowed kind/);
  });

  it('re-asks with the problem and the allowed kinds', () => {
    const message = contract.reask(contract.evaluate(JSON.stringify({ ...EVENT, kind: 'question' }), 'content'));
    expect(message).toContain('kind "question"');
    expect(message).toContain('"progress", "finding", "done"');
  });
});
