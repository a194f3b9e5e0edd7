/**
 * Hermetic probes of the real GitHub Copilot CLI (pinned in probes/package.json) in BYOK mode
 * against the Chat Completions mock on 127.0.0.1. Facts observed with Copilot CLI 1.0.102; a failure
 * after a CLI upgrade is envelope drift to record, not a flaky test. No schema flag: the driver
 * appends the schema to the prompt on stdin.
 */
import { describe, expect, it } from 'vitest';
import type { ScenarioName } from '../src/mock/index.ts';
import { COPILOT_PINNED_MODEL, copilotDriver, runProbe, type ProbeResult } from '../src/probe/index.ts';
import { SCHEMA_PROMPT_LEAD } from '../src/routes/schemaPrompt.ts';
import { judgeCase } from '../src/contract/judgeCase.ts';
import { loadContract } from '../src/contract/registry.ts';
import { decoderFor } from '../src/routes/registry.ts';
import { TEXT_ANSWERS, discoverProbeCli, expectChatCompletionsRun, expectKilledAtDeadline, jsonLines, readContractSchema, skipUnlessInstalled, stallDeadlines, type Json } from './_helpers.ts';

const povSchema = readContractSchema();

const { cli, skipReason } = await discoverProbeCli('copilot', { file: 'copilot.test.ts', pinned: 'Copilot CLI' });

const PROBE_TIMEOUT_MS = 100_000;
const ROUTE = 'copilot/json';

const events = jsonLines;
const ofType = (r: ProbeResult, type: string) => events(r).filter((e) => e.type === type);

function probe(scenario: ScenarioName): Promise<ProbeResult> {
  return runProbe({ cli, driver: copilotDriver, route: ROUTE, scenario, schema: povSchema, timeoutMs: PROBE_TIMEOUT_MS });
}

function expectCompletedRun(r: ProbeResult, exitCode: 0 | 1): void {
  expectChatCompletionsRun(r, COPILOT_PINNED_MODEL);
  expect(JSON.stringify((r.requests[0]!.body as Json).messages)).toContain(SCHEMA_PROMPT_LEAD.replace(/"/g, '\\"'));
  expect(r.envelope.exitCode).toBe(exitCode);
  // Every run ends with a result event that repeats the exit code; it has no token counts.
  const last = events(r).at(-1)!;
  expect(last).toMatchObject({ type: 'result', exitCode });
  expect(last.usage).not.toHaveProperty('inputTokens');
}

describe.skipIf(!cli.bin)(`Copilot CLI ${cli.version ?? '(not installed)'} hermetic probes`, () => {
  for (const [scenario, answer] of Object.entries(TEXT_ANSWERS) as [ScenarioName, string][]) {
    it(`scenario ${scenario}: the answer is assistant.message data.content, exit 0`, async () => {
      const r = await probe(scenario);
      expectCompletedRun(r, 0);
      const messages = ofType(r, 'assistant.message');
      expect(messages).toHaveLength(1);
      expect((messages[0]!.data as Json).content).toBe(answer);
      expect((messages[0]!.data as Json).toolRequests).toEqual([]);
      // The deltas add up to the same content.
      expect(ofType(r, 'assistant.message_delta').map((e) => (e.data as Json).deltaContent).join('')).toBe(answer);
      expect(ofType(r, 'session.error')).toEqual([]);
      expect(r.requests).toHaveLength(1);
    });
  }

  it('scenario api-400: session.error with statusCode 400, result exitCode 1, no retry', async () => {
    const r = await probe('api-400');
    expectCompletedRun(r, 1);
    expect(ofType(r, 'session.error').map((e) => e.data)).toEqual([
      expect.objectContaining({ errorType: 'query', message: '400 routecert mock: invalid request (scenario api-400)', statusCode: 400 }),
    ]);
    expect(ofType(r, 'assistant.message')).toEqual([]);
    expect(r.requests).toHaveLength(1);
  });

  it('scenario api-529: retried 5 times, then session.error with statusCode 529', async () => {
    const r = await probe('api-529');
    expectCompletedRun(r, 1);
    const errors = ofType(r, 'session.error').map((e) => e.data as Json);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ statusCode: 529 });
    expect(String(errors[0]!.message)).toMatch(/retried 5 times .* Last error: 529 Overloaded$/);
    expect(r.requests).toHaveLength(6);
  });

  it('scenario stall: the deadline kills the whole process group and marks timedOut', async () => {
    const r = await runProbe({ cli, driver: copilotDriver, route: ROUTE, scenario: 'stall', schema: povSchema, ...stallDeadlines(PROBE_TIMEOUT_MS) });
    expectKilledAtDeadline(r, { exitCode: false });
    expect(r.requests).toHaveLength(1);
    expect(r.unexpected).toEqual([]);
    // On the reaper's SIGTERM Copilot CLI 1.0.102 may still print its shutdown `result` (exitCode 0,
    // no API time): whatever it printed after the deadline is discarded, the verdict is `timeout`.
    for (const e of ofType(r, 'result')) expect((e.usage as { totalApiDurationMs?: number } | undefined)?.totalApiDurationMs ?? 0).toBe(0);
    expect(judgeCase({ attempts: [r.envelope] }, await loadContract('pov'), decoderFor(ROUTE)).verdict.verdict).toBe('timeout');
  });
});

skipUnlessInstalled(cli, 'Copilot CLI hermetic probes', skipReason);
