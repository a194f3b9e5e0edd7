import { describe, expect, it } from 'vitest';
import { CHECKS } from './checks.ts';
import { configProblems } from './config.ts';
import { checksForContract, CONSUMER_CHECKS, CONSUMER_CONTRACT, cutBeforeTerminal, describeOutcome, expectProviderError, outcomeOf } from './consumer.ts';
import type { RunObservation } from './execute.ts';

const observation = (artifact: Partial<RunObservation['artifact']>): RunObservation =>
  ({ label: 'run', artifact: { path: '<tmp>/out/outcome.json', exists: true, text: '', value: undefined, parseError: null, ...artifact } }) as RunObservation;

describe('consumer contract', () => {
  it('selects the consumer checks (no finality, no retry checks) and keeps the pov checks for pov', () => {
    expect(checksForContract(CONSUMER_CONTRACT)).toBe(CONSUMER_CHECKS);
    expect(checksForContract('pov')).toBe(CHECKS);
    expect(checksForContract(undefined)).toBe(CHECKS);
    const ids = CONSUMER_CHECKS.map((c) => c.id);
    expect(ids).not.toContain('retry-once');
    expect(ids).toEqual(expect.arrayContaining(['provider-error', 'incomplete-stream', 'deadline', 'no-process-left', 'usage', 'forbidden-flags']));
  });

  it('is accepted by the config check; another object is refused with a sentence naming finality', () => {
    const config = { worker: { name: 'w', command: ['node', 'a.mjs'], prompt: 'stdin', windowEnv: { hardWindowS: 'H', retryMinS: 'R' } }, routes: ['codex/jsonl'] };
    expect(configProblems({ ...config, contract: CONSUMER_CONTRACT })).toEqual([]);
    expect(configProblems({ ...config, contract: { name: 'x' } }).join(' ')).toContain('contract definition (defineContract({ name, schema, anchor, finality, selection');
  });
});

describe('outcomeOf', () => {
  it('reads an outcome, and names what is wrong with a missing, non-JSON or kind-less file', () => {
    expect(outcomeOf(observation({ value: { kind: 'error', error: { message: 'boom' } } }))).toEqual({ kind: 'error', error: { message: 'boom' } });
    expect(outcomeOf(observation({ exists: false }))).toEqual({ problem: expect.stringContaining('no outcome file') });
    expect(outcomeOf(observation({ parseError: 'Unexpected token' }))).toEqual({ problem: expect.stringContaining('not JSON') });
    expect(outcomeOf(observation({ value: { answer: 1 } }))).toEqual({ problem: expect.stringContaining('no kind') });
    expect(describeOutcome({ kind: 'empty' })).toContain('empty success');
  });
});

describe('cutBeforeTerminal', () => {
  it('drops the last JSON line (the terminal event) and exits 0', () => {
    const cut = cutBeforeTerminal({ stdout: '{"type":"item.completed"}\n{"type":"turn.completed"}\n\n', stderr: '', exitCode: 1, source: 'case x attempt 0' });
    expect(cut.stdout).toBe('{"type":"item.completed"}\n');
    expect(cut.exitCode).toBe(0);
    expect(cut.source).toContain('cut before its last line');
  });
});

describe('expectProviderError', () => {
  const facts = { status: 400, message: 'routecert mock: invalid request (scenario api-400)' };
  const error = (e: { message: string; status?: number }) => observation({ value: { kind: 'error', error: e } });
  const body = '{"error":{"code":400,"message":"routecert mock: invalid request (scenario api-400)","status":"INVALID_ARGUMENT"}}';

  it("accepts the provider's status in the message or as the error's status field", () => {
    expect(expectProviderError(error({ message: body }), facts)).toEqual([]);
    expect(expectProviderError(error({ message: 'routecert mock: invalid request (scenario api-400)', status: 400 }), facts)).toEqual([]);
  });

  it("refuses a status field that is not the provider's, even when the message quotes the provider's body", () => {
    // ai-sdk-provider-gemini-cli 2.0.1 with its 400 mapping removed: APICallError statusCode 500 (retryable).
    expect(expectProviderError(error({ message: body, status: 500 }), facts).join('\n')).toContain('status 500 as its status field, but the provider answered 400');
  });
});
