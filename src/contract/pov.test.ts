import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { claudeDecoder } from '#src/routes/claude/decoder.ts';
import { genericDecoder } from '#src/routes/generic/decoder.ts';
import type { Envelope } from '#src/envelope/types.ts';
import { projectPath } from '#src/paths.ts';
import { povContract } from './pov.ts';
import { judgeCase } from './judgeCase.ts';

const schema = JSON.parse(readFileSync(projectPath('schemas/contracts/pov.schema.json'), 'utf8')) as Record<string, unknown>;
const pov = povContract(schema);
const claude = claudeDecoder('claude-code/json');
const grok = genericDecoder('grok/json');

const FINAL = { voice: 'peer', position: 'Choose A', reasoning: 'r', evidence: ['src/a.ts:1'], external_check: 'ran', mode: 'independent', movement: 'initial', final: true };
const PLACEHOLDER = { ...FINAL, position: 'blocked: gathering subject evidence', final: false };
const { final: _omit, ...MISSING_FINAL } = FINAL;

function env(stdout: unknown, extra: Partial<Envelope> = {}): Envelope {
  return { stdout: typeof stdout === 'string' ? stdout : JSON.stringify(stdout), stderr: '', exitCode: 0, elapsedMs: 20_000, ...extra };
}
function judge(envelope: Envelope, decoder = claude, attempt = 0, elapsedMs = envelope.elapsedMs) {
  return pov.judge(decoder.decode(envelope, pov.decodeOptions), { attempt, elapsedMs });
}

describe('pov contract: a run that says it failed never yields an accepted answer (issue 19 point 1)', () => {
  const ok = { type: 'result', subtype: 'success', is_error: false, result: JSON.stringify(FINAL), structured_output: FINAL };
  it('refuses a schema-valid final answer beside is_error: true', () => {
    const v = judge(env({ ...ok, is_error: true }));
    expect(v.verdict).not.toBe('accepted');
  });
  it('refuses a schema-valid final answer from a CLI that exited 1', () => {
    const v = judge(env(ok, { exitCode: 1 }));
    expect(v.verdict).not.toBe('accepted');
    expect(v.evidence.join('\n')).toContain('exited with code 1');
  });
  it('still accepts the same envelope from a run that succeeded', () => {
    expect(judge(env(ok)).verdict).toBe('accepted');
  });
});

describe('pov contract: selection', () => {
  it('accepts a final structured_output and names its origin', () => {
    const v = judge(env({ type: 'result', subtype: 'success', is_error: false, result: JSON.stringify(FINAL), structured_output: FINAL }));
    expect(v).toMatchObject({ verdict: 'accepted', origin: 'structured_output', value: FINAL });
  });

  it('reads camelCase structuredOutput the same way (grok)', () => {
    const v = judge(env({ text: JSON.stringify(FINAL), structuredOutput: FINAL }), grok);
    expect(v).toMatchObject({ verdict: 'accepted', origin: 'structuredOutput' });
  });

  it('lets structuredOutput win over a placeholder concatenated before the final in text', () => {
    const text = JSON.stringify(PLACEHOLDER) + JSON.stringify(FINAL);
    const v = judge(env({ text, structuredOutput: FINAL }), grok);
    expect(v).toMatchObject({ verdict: 'accepted', origin: 'structuredOutput', value: FINAL });
  });

  it('finds the final object in text when it comes before the placeholder', () => {
    const text = `${JSON.stringify(FINAL)}\n${JSON.stringify(PLACEHOLDER)}`;
    const v = judge(env({ text }), grok);
    expect(v).toMatchObject({ verdict: 'accepted', origin: 'text', value: FINAL });
  });

  it('lets a settled final object in text beat a non-final structuredOutput', () => {
    const v = judge(env({ text: JSON.stringify(FINAL), structuredOutput: PLACEHOLDER }), grok);
    expect(v).toMatchObject({ verdict: 'accepted', origin: 'text', value: FINAL });
  });

  it('does not let a bare {"final":true} stub beat a complete final POV in text', () => {
    const v = judge(env({ text: JSON.stringify(FINAL), structuredOutput: { final: true } }), grok);
    expect(v).toMatchObject({ verdict: 'accepted', origin: 'text' });
  });

  it('does not let a later fully keyed but invalid draft outrank a valid final', () => {
    const invalid = { ...FINAL, mode: 'nonsense', evidence: [1] };
    const v = judge(env({ text: JSON.stringify(FINAL) + JSON.stringify(invalid) }), grok);
    expect(v).toMatchObject({ verdict: 'accepted', value: FINAL });
  });

  it('accepts a fenced final POV in the result string', () => {
    const v = judge(env({ type: 'result', subtype: 'success', is_error: false, result: `Here it is:\n\`\`\`json\n${JSON.stringify(FINAL, null, 2)}\n\`\`\`` }));
    expect(v).toMatchObject({ verdict: 'accepted', origin: 'result' });
  });

  it('accepts a settled "Blocked — ..." position whatever its wording', () => {
    const blocked = { ...FINAL, position: 'Blocked — the repository cannot be read' };
    expect(judge(env({ type: 'result', structured_output: blocked }))).toMatchObject({ verdict: 'accepted', value: blocked });
  });
});

describe('pov contract: finality fails closed', () => {
  it('treats a missing final as non-final and asks for a retry', () => {
    const v = judge(env({ type: 'result', structured_output: MISSING_FINAL }));
    expect(v).toMatchObject({ verdict: 'retry', reason: 'non-final' });
  });

  it('treats a non-boolean final ("true") as non-final', () => {
    const v = judge(env({ type: 'result', structured_output: { ...FINAL, final: 'true' } }));
    expect(v.verdict).toBe('retry');
  });

  it('drops a non-final answer when less than the minimum retry window remains', () => {
    const v = judge(env({ type: 'result', structured_output: PLACEHOLDER }), claude, 0, 545_000);
    expect(v.verdict).toBe('dropped-nonfinal');
    expect(v.evidence).toContain('peer skip evidence: non-final position: blocked: gathering subject evidence');
    expect(v.evidence[0]).toContain('with 55s of the 600s window left; not retrying');
  });

  it('retries when exactly the minimum retry window remains', () => {
    expect(judge(env({ type: 'result', structured_output: PLACEHOLDER }), claude, 0, 540_000).verdict).toBe('retry');
  });

  it('drops a second non-final answer with the skip evidence line', () => {
    const v = judge(env({ type: 'result', structured_output: PLACEHOLDER }), claude, 1, 40_000);
    expect(v).toMatchObject({ verdict: 'dropped-nonfinal' });
    expect(v.evidence).toContain('peer skip evidence: non-final position: blocked: gathering subject evidence');
  });

  it('clips the position in the skip evidence to 200 characters', () => {
    const long = { ...PLACEHOLDER, position: 'p'.repeat(500) };
    const v = judge(env({ type: 'result', structured_output: long }), claude, 1);
    expect(v.evidence).toContain(`peer skip evidence: non-final position: ${'p'.repeat(200)}`);
  });

  it('a shaped non-final in text beside an empty structured_output stub still reaches the retry', () => {
    const v = judge(env({ text: JSON.stringify(PLACEHOLDER), structured_output: {} }), grok);
    expect(v.verdict).toBe('retry');
  });
});

describe('pov contract: failures keep their evidence', () => {
  it('classifies a schema rejected at startup with the CLI message verbatim', () => {
    const message = 'Error: --json-schema is not a valid JSON Schema: strict mode: unknown keyword: "_meta"';
    const v = judge(env('', { stderr: `${message}\n`, exitCode: 1 }));
    expect(v).toMatchObject({ verdict: 'startup-rejected', message });
    expect(v.evidence.join('\n')).toContain('strict mode: unknown keyword: "_meta"');
  });

  it('classifies an API error reported as subtype success with is_error true', () => {
    const v = judge(env({ type: 'result', subtype: 'success', is_error: true, api_error_status: 529, terminal_reason: 'api_error', result: 'API Error: overloaded' }, { exitCode: 1 }));
    expect(v).toMatchObject({ verdict: 'provider-error', status: 529 });
    expect(v.evidence).toContain('peer skip evidence: API Error: overloaded api_error_status=529 terminal_reason=api_error');
  });

  it('shows a short stderr verbatim when nothing usable came back', () => {
    const v = judge(env('', { stderr: 'schema invalid', exitCode: 1 }));
    expect(v.evidence).toContain('peer skip evidence (stderr): schema invalid');
  });

  it('drops success without structured_output as unusable (the model never called the tool)', () => {
    const v = judge(env({ type: 'result', subtype: 'success', is_error: false, result: 'I think A is better.' }));
    expect(v.verdict).toBe('dropped-unusable');
    expect(v.evidence).toContain('peer skip evidence: I think A is better.');
  });

  it('discards schema-valid output from a peer that timed out', () => {
    const v = judge(env({ type: 'result', structured_output: FINAL }, { timedOut: true, exitCode: null, signal: 'SIGKILL' }));
    expect(v.verdict).toBe('timeout');
  });

  it('reports a process killed by a signal without output as crashed', () => {
    const v = judge(env('', { exitCode: null, signal: 'SIGSEGV' }));
    expect(v).toMatchObject({ verdict: 'crashed', signal: 'SIGSEGV' });
  });
});

describe('judgeCase', () => {
  it('moves to the recorded retry attempt and accepts its final answer', () => {
    const j = judgeCase({ attempts: [env({ type: 'result', structured_output: PLACEHOLDER }), env({ type: 'result', structured_output: FINAL })] }, pov, claude);
    expect(j.verdict).toMatchObject({ verdict: 'accepted', attempt: 1 });
    expect(j.attempts.map((a) => a.verdict.verdict)).toEqual(['retry', 'accepted']);
  });

  it('counts the time of earlier attempts against the hard window', () => {
    const slow = env({ type: 'result', structured_output: PLACEHOLDER }, { elapsedMs: 550_000 });
    const j = judgeCase({ attempts: [slow] }, pov, claude);
    expect(j.verdict.verdict).toBe('dropped-nonfinal');
  });
});
