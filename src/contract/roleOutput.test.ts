import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { judgeCase } from '#src/contract/judgeCase.ts';
import { presetContract } from '#src/contract/presets.ts';
import { jsonObjectCodec } from '#src/contract/roleOutput.ts';
import { compileValidator } from '#src/contract/validator.ts';
import { decoderFor } from '#src/routes/registry.ts';
import type { Envelope } from '#src/envelope/types.ts';
import { projectPath } from '#src/paths.ts';

const schema = JSON.parse(readFileSync(projectPath('schemas/contracts/role-output.schema.json'), 'utf8')) as Record<string, unknown>;
const VALID = { role: 'planner', status: 'done', summary: 'Split the work in two.', artifacts: [], question: null };
const grok = decoderFor('grok/json');
const roleOutput = (change: Parameters<typeof presetContract>[1] = {}) => presetContract('role-output', change);
const codec = jsonObjectCodec(compileValidator(schema), 'role');
const readTurn = (envelope: Envelope) => codec.readReply(grok.decode(envelope).reply);
const readClaude = (envelope: Envelope) => codec.readReply(decoderFor('claude-code/json').decode(envelope).reply);

/** A grok/json turn whose text is `text` and whose usage is `usage`. */
function turn(text: string, usage: Record<string, unknown> = { input_tokens: 100, output_tokens: 10 }): Envelope {
  return { stdout: JSON.stringify({ text, usage }), stderr: '', exitCode: 0, elapsedMs: 1000 };
}

describe('role-output: reading a reply', () => {
  it.each([
    ['prose', 'I split the work in two.'],
    ['prose', ''],
    ['scalar-or-array', 'null'],
    ['scalar-or-array', '[]'],
    ['scalar-or-array', '"done"'],
    ['scalar-or-array', '42'],
    ['scalar-or-array', 'Here: [1, 2]'],
    ['schema-echo', JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', ...VALID })],
    ['schema-echo', JSON.stringify({ type: 'object', properties: { role: { type: 'string' } } })],
    ['schema-echo', `${JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#' })}\n${JSON.stringify(VALID)}`],
    ['schema-echo', `Schema:\n${JSON.stringify({ $schema: 'x', type: 'object', properties: { role: { type: 'string' } } })}\nAnswer:\n${JSON.stringify(VALID)}`],
    ['missing-required', JSON.stringify({ ...VALID, summary: undefined })],
    ['schema-invalid', JSON.stringify({ ...VALID, status: 'finished' })],
    ['valid', JSON.stringify(VALID)],
    ['valid', `Done.\n\`\`\`json\n${JSON.stringify(VALID)}\n\`\`\``],
  ])('reads %s from %j', (shape, text) => {
    expect(readTurn(turn(text)).shape).toBe(shape);
  });

  it('reads a structured field that is null as a scalar, whatever the text says', () => {
    const envelope: Envelope = { stdout: JSON.stringify({ type: 'result', result: JSON.stringify(VALID), structured_output: null }), stderr: '', exitCode: 0, elapsedMs: 1 };
    expect(readClaude(envelope).shape).toBe('scalar-or-array');
  });

  it('names the missing field in the correction, and restates the whole schema', () => {
    const verdict = judgeCase({ attempts: [turn(JSON.stringify({ ...VALID, summary: undefined }))] }, roleOutput(), grok).verdict;
    if (verdict.verdict !== 'retry') throw new Error('expected a correction');
    const message = verdict.addendum;
    expect(message).toContain('"summary"');
    expect(message).toContain(JSON.stringify(schema));
  });
});

describe('role-output: corrections', () => {
  it('sends at most two corrections, then gives invalid_structured_output with every shape', () => {
    const contract = roleOutput();
    const judged = judgeCase({ attempts: [turn('prose'), turn('[]'), turn('{"$schema":"x"}'), turn(JSON.stringify(VALID))] }, contract, grok);
    expect(judged.attempts.map((a) => a.verdict.verdict)).toEqual(['retry', 'retry', 'invalid_structured_output']);
    expect(judged.unusedAttempts).toBe(1);
    expect(judged.verdict).toMatchObject({ corrections: 2, shapes: ['prose', 'scalar-or-array', 'schema-echo'] });
    expect(judged.attempts[0]!.verdict).toMatchObject({ reason: 'correction: prose' });
  });

  it('honours a smaller correction budget', () => {
    const contract = roleOutput({ corrections: { budget: 0 } });
    expect(judgeCase({ attempts: [turn('prose')] }, contract, grok).verdict.verdict).toBe('invalid_structured_output');
  });

  it('does not correct a schema-valid reply that fails a check; it is dropped with the problem', () => {
    const contract = roleOutput({ extensions: { ...presetContract('role-output').definition.extensions, checks: { commits: ['3f2a9c1e0b7d'] } } });
    const bad = { ...VALID, summary: 'Committed as deadbee1.' };
    const good = { ...VALID, summary: 'Committed as 3f2a9c1.' };
    const judged = judgeCase({ attempts: [turn(JSON.stringify(bad)), turn(JSON.stringify(good))] }, contract, grok);
    expect(judged.verdict.verdict).toBe('dropped-unusable');
    expect(judged.verdict.evidence[0]).toContain('commit deadbee1 does not resolve');
    expect(judged.unusedAttempts).toBe(1);
    expect(judgeCase({ attempts: [turn(JSON.stringify(good))] }, contract, grok).verdict.verdict).toBe('accepted');
  });
});

describe('role-output: usage', () => {
  it('sums every turn on every verdict, including the exhausted one', () => {
    const contract = roleOutput();
    const judged = judgeCase({ attempts: [turn('a', { input_tokens: 100 }), turn('b', { input_tokens: 110 }), turn('c', { input_tokens: 120, cache: { read: 5 } })] }, contract, grok);
    expect(judged.attempts.map((a) => a.verdict.usage?.input_tokens)).toEqual([100, 210, 330]);
    expect(judged.verdict.usage).toEqual({ input_tokens: 330, 'cache.read': 5 });
  });

  it('starts a new session on attempt 0, so two cases never share a ledger', () => {
    const contract = roleOutput();
    judgeCase({ attempts: [turn('a'), turn('b')] }, contract, grok);
    expect(judgeCase({ attempts: [turn(JSON.stringify(VALID))] }, contract, grok).verdict.usage).toEqual({ input_tokens: 100, output_tokens: 10 });
  });

  it('does not count a turn twice when a session is replayed from a saved cursor', () => {
    const turns = [turn('a', { input_tokens: 100 }), turn('b', { input_tokens: 110 }), turn(JSON.stringify(VALID), { input_tokens: 120 })];
    const first = roleOutput();
    judgeCase({ attempts: turns.slice(0, 2) }, first, grok);
    const saved = first.save();
    expect(saved.ledger.cursor).toBe(1);
    const replay = roleOutput();
    replay.resume(saved);
    const judged = judgeCase({ attempts: turns }, replay, grok);
    expect(judged.verdict).toMatchObject({ verdict: 'accepted', attempt: 2, usage: { input_tokens: 330 } });
  });
});
