import { describe, expect, it } from 'vitest';
import { judgeCase } from './judgeCase.ts';
import { presetContract } from './presets.ts';
import { decoderFor } from '#src/routes/registry.ts';
import { failedRunReason, noAnswerVerdictName } from './outcome.ts';
import { renderPlan } from '#src/arbitraries/_internals/render.ts';
import { expectedOf } from '#src/arbitraries/_internals/truth.ts';
import type { ClaudeJsonPlan } from '#src/arbitraries/types.ts';

describe('failure evidence keeps the CLI\'s own error words (issue 21.6)', () => {
  it('a Gemini stream-json error frame in the middle of a long stream reaches the verdict evidence', () => {
    const message = 'Invalid stream: The model returned an empty response or malformed tool call.';
    const events = [
      { type: 'init', timestamp: 't', session_id: 's', model: 'gemini-2.5-pro' },
      { type: 'message', timestamp: 't', role: 'user', content: 'question' },
      ...Array.from({ length: 30 }, (_, i) => ({ type: 'message', timestamp: 't', role: 'assistant', content: `Thinking aloud, part ${i}, with no JSON at all. `.repeat(3), delta: true })),
      { type: 'error', timestamp: 't', severity: 'error', message },
      { type: 'result', timestamp: 't', status: 'success', stats: { total_tokens: 10, input_tokens: 5, output_tokens: 5, duration_ms: 1, tool_calls: 0 } },
    ];
    const stdout = `${events.map((e) => JSON.stringify(e)).join('\n')}\n`;
    const verdict = judgeCase({ attempts: [{ stdout, stderr: '', exitCode: 0, elapsedMs: 1000 }] }, presetContract('pov', {}), decoderFor('gemini-cli/stream-json')).verdict;
    expect(verdict.verdict).toBe('dropped-unusable');
    // The frame ends the run (Gemini CLI stops it itself), so its words lead the skip evidence, whole;
    // `peer error: ...` repeats them only where the clipped evidence would lose them.
    expect(verdict.evidence.some((line) => line.includes(message))).toBe(true);
  });
});

describe('the failed-run rules, one copy for the judge and the generators\' ground truth (issues 19, 24.4)', () => {
  it('failedRunReason names the failure: status kind, is_error, signal, non-zero exit; null for a clean run', () => {
    const clean = { exitCode: 0, signal: null };
    expect(failedRunReason({ kind: 'ok' }, clean)).toBeNull();
    expect(failedRunReason({ kind: 'provider-error', apiErrorStatus: 529 }, clean)).toBe('the run reports provider-error');
    expect(failedRunReason({ kind: 'cli-error' }, clean)).toBe('the run reports cli-error');
    expect(failedRunReason({ kind: 'ok', isError: true }, clean)).toBe('the envelope says is_error: true');
    expect(failedRunReason({ kind: 'ok' }, { exitCode: 1, signal: null })).toBe('the CLI exited with code 1');
    expect(failedRunReason({ kind: 'ok' }, { exitCode: null, signal: 'SIGKILL' })).toBe('the CLI ended on SIGKILL');
  });

  it('noAnswerVerdictName: provider-error and crashed keep their kind, anything else is dropped-unusable', () => {
    expect(noAnswerVerdictName({ kind: 'provider-error' })).toBe('provider-error');
    expect(noAnswerVerdictName({ kind: 'crashed' })).toBe('crashed');
    expect(noAnswerVerdictName({ kind: 'cli-error' })).toBe('dropped-unusable');
    expect(noAnswerVerdictName({ kind: 'ok' })).toBe('dropped-unusable');
  });

  it('the ground truth of a generated plan follows them: a final answer with exit 1 is not accepted; a 400 naming input_schema is startup-rejected', () => {
    const process = { stderr: '', exitCode: 1, signal: null, timedOut: false, elapsedMs: 0, bom: false, lineEnd: '\n' as const, trailingNewline: false };
    const answer = { finality: 'final' as const, value: { voice: 'peer', position: 'A', reasoning: 'r', evidence: [], external_check: 'ran', mode: 'independent', movement: 'initial', final: true } };
    const plan: ClaudeJsonPlan = {
      family: 'claude-code/json',
      process,
      body: 'result',
      structured: { key: 'structured_output', answer, style: { escapeUnicode: false, duplicateKeys: false }, asString: false },
      structuredFirst: false,
      result: { pieces: [] },
      failure: null,
      deepNoise: 0,
    };
    const judged = (p: ClaudeJsonPlan) => judgeCase({ attempts: [renderPlan(p)] }, presetContract('pov', {}), decoderFor('claude-code/json')).verdict.verdict;
    expect(expectedOf(plan).verdict).toBe('dropped-unusable');
    expect(judged(plan)).toBe('dropped-unusable');
    expect(expectedOf({ ...plan, process: { ...process, exitCode: 0 } }).verdict).toBe('accepted');
    const refused: ClaudeJsonPlan = {
      ...plan,
      process: { ...process, exitCode: 0 },
      structured: null,
      failure: { kind: 'provider-error', status: 400, message: 'API Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"tools.0.custom.input_schema: JSON schema is invalid"}}' },
    };
    expect(expectedOf(refused).verdict).toBe('startup-rejected');
    expect(judged(refused)).toBe('startup-rejected');
    expect(expectedOf({ ...refused, failure: { kind: 'provider-error', status: 529, message: 'API Error: 529 Overloaded' } }).verdict).toBe('provider-error');
  });
});

describe('a timed-out run', () => {
  it('says its elapsed time when recorded, and that it was not when a capture gave none (`--- timed out ---`: "after 0 ms" read as if it timed out at once)', () => {
    const judge = (elapsedMs: number) => judgeCase({ attempts: [{ stdout: '', stderr: '', exitCode: null, signal: 'SIGKILL', timedOut: true, elapsedMs }] }, presetContract('pov', {}), decoderFor('claude-code/json')).verdict;
    expect(judge(600_000).evidence[0]).toBe('peer exceeded its deadline after 600000 ms; output discarded');
    const unknown = judge(0);
    expect(unknown.verdict).toBe('timeout');
    expect(unknown.evidence[0]).toBe('peer exceeded its deadline (its elapsed time was not recorded); output discarded');
  });
});
