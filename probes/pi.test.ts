/**
 * Hermetic probes of the real pi (`@mariozechner/pi-coding-agent`, pinned in probes/package.json)
 * against the Chat Completions mock on 127.0.0.1. Facts observed with pi 0.73.1; a failure after a
 * CLI upgrade is envelope drift to record, not a flaky test. No schema flag: the driver appends the
 * schema to the prompt on stdin.
 */
import { describe, expect, it } from 'vitest';
import type { ScenarioName } from '../src/mock/index.ts';
import { PI_PINNED_MODEL, PI_PROVIDER_ID, piDriver, runProbe, type ProbeResult } from '../src/probe/index.ts';
import { SCHEMA_PROMPT_LEAD } from '../src/routes/schemaPrompt.ts';
import { TEXT_ANSWERS, discoverProbeCli, expectChatCompletionsRun, expectKilledAtDeadline, jsonLines, readContractSchema, skipUnlessInstalled, stallDeadlines, type Json } from './_helpers.ts';

const povSchema = readContractSchema();

const { cli, skipReason } = await discoverProbeCli('pi', { file: 'pi.test.ts', pinned: 'pi' });

const PROBE_TIMEOUT_MS = 100_000;
const ROUTE = 'pi/json';

const events = jsonLines;

/** The `message` of every assistant `message_end`. */
function assistantEnds(r: ProbeResult): Json[] {
  return events(r)
    .filter((e) => e.type === 'message_end')
    .map((e) => e.message as Json)
    .filter((m) => m.role === 'assistant');
}

function probe(scenario: ScenarioName): Promise<ProbeResult> {
  return runProbe({ cli, driver: piDriver, route: ROUTE, scenario, schema: povSchema, timeoutMs: PROBE_TIMEOUT_MS });
}

function expectCompletedRun(r: ProbeResult): void {
  expectChatCompletionsRun(r, PI_PINNED_MODEL);
  expect(JSON.stringify((r.requests[0]!.body as Json).messages)).toContain(SCHEMA_PROMPT_LEAD.replace(/"/g, '\\"'));
  // Exit 0 whatever happened (json mode), and the session header first.
  expect(r.envelope.exitCode).toBe(0);
  expect(events(r)[0]).toMatchObject({ type: 'session', version: 3 });
  expect(events(r).map((e) => e.type)).toContain('agent_end');
}

describe.skipIf(!cli.bin)(`pi ${cli.version ?? '(not installed)'} hermetic probes`, () => {
  for (const [scenario, answer] of Object.entries(TEXT_ANSWERS) as [ScenarioName, string][]) {
    it(`scenario ${scenario}: the answer is the last assistant message_end text`, async () => {
      const r = await probe(scenario);
      expectCompletedRun(r);
      const ends = assistantEnds(r);
      expect(ends).toHaveLength(1);
      expect(ends[0]).toMatchObject({ api: 'openai-completions', provider: PI_PROVIDER_ID, model: PI_PINNED_MODEL, stopReason: 'stop' });
      expect(ends[0]!.content).toEqual([{ type: 'text', text: answer }]);
      expect(r.requests).toHaveLength(1);
    });
  }

  it('scenario api-400: exit 0, yet the assistant message_end has stopReason error and the status in errorMessage', async () => {
    const r = await probe('api-400');
    expectCompletedRun(r);
    const last = assistantEnds(r).at(-1)!;
    expect(last).toMatchObject({ stopReason: 'error', content: [], errorMessage: '400 routecert mock: invalid request (scenario api-400)' });
  });

  it('scenario api-529: exit 0 after 3 auto retries, each under the SDK\'s own 2 retries', async () => {
    const r = await probe('api-529');
    expectCompletedRun(r);
    expect(assistantEnds(r).map((m) => [m.stopReason, m.errorMessage])).toEqual(Array.from({ length: 4 }, () => ['error', '529 Overloaded']));
    expect(events(r).filter((e) => e.type === 'auto_retry_start')).toHaveLength(3);
    // The retry summary comes last, after agent_end.
    expect(events(r).at(-1)).toMatchObject({ type: 'auto_retry_end', success: false, finalError: '529 Overloaded' });
    expect(r.requests).toHaveLength(12);
  });

  it('scenario stall: the deadline kills the whole process group and marks timedOut', async () => {
    const r = await runProbe({ cli, driver: piDriver, route: ROUTE, scenario: 'stall', schema: povSchema, ...stallDeadlines(PROBE_TIMEOUT_MS) });
    expectKilledAtDeadline(r, { exitCode: false });
    expect(r.requests).toHaveLength(1);
    expect(r.unexpected).toEqual([]);
    expect(assistantEnds(r)).toEqual([]);
  });
});

skipUnlessInstalled(cli, 'pi hermetic probes', skipReason);
