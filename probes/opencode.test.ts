/**
 * Hermetic probes of the real opencode (pinned in probes/package.json) against the Chat Completions
 * mock on 127.0.0.1: what a user would notice about the envelope of each scenario. Facts observed
 * with opencode 1.18.33; a failure after a CLI upgrade is envelope drift to record, not a flaky test.
 * `opencode run` has no schema flag: the driver appends the schema to the prompt on stdin.
 */
import { describe, expect, it } from 'vitest';
import { TITLE_TEXT, type ScenarioName } from '../src/mock/index.ts';
import { OPENCODE_PINNED_MODEL, opencodeDriver, runProbe, type ProbeResult } from '../src/probe/index.ts';
import { SCHEMA_PROMPT_LEAD } from '../src/routes/schemaPrompt.ts';
import { TEXT_ANSWERS, discoverProbeCli, expectChatCompletionsRun, expectKilledAtDeadline, jsonLines, readContractSchema, skipUnlessInstalled, stallDeadlines, type Json } from './_helpers.ts';

const povSchema = readContractSchema();

const { cli, skipReason } = await discoverProbeCli('opencode', { file: 'opencode.test.ts', pinned: 'opencode' });

/** Deadline of each non-stall probe: opencode takes 5-25 s to start on a loaded 2-core machine. */
const PROBE_TIMEOUT_MS = 100_000;
const ROUTE = 'opencode/jsonl';

const events = jsonLines;

/** The text of the one `text` event. */
function text(r: ProbeResult): string {
  const texts = events(r).filter((e) => e.type === 'text');
  expect(texts).toHaveLength(1);
  return (texts[0]!.part as Json).text as string;
}

/** The model requests (not the title request). */
function turns(r: ProbeResult): Json[] {
  return r.requests.map((q) => q.body as Json).filter((b) => Array.isArray(b.tools));
}

function probe(scenario: ScenarioName): Promise<ProbeResult> {
  return runProbe({ cli, driver: opencodeDriver, route: ROUTE, scenario, schema: povSchema, timeoutMs: PROBE_TIMEOUT_MS });
}

function expectCompletedRun(r: ProbeResult): void {
  expectChatCompletionsRun(r, OPENCODE_PINNED_MODEL, { someRequests: false });
  // One title-generation request besides the turns, answered by content.
  const titles = r.requests.map((q) => q.body as Json).filter((b) => !Array.isArray(b.tools));
  expect(titles).toHaveLength(1);
  expect(JSON.stringify(titles[0]!.messages)).toContain('title generator');
  // The prompt carries the schema; no structured_output tool is offered.
  const first = turns(r)[0]!;
  expect(JSON.stringify(first.messages)).toContain(SCHEMA_PROMPT_LEAD.replace(/"/g, '\\"'));
  expect((first.tools as Json[]).map((t) => (t.function as Json).name)).not.toContain('structured_output');
}

describe.skipIf(!cli.bin)(`opencode ${cli.version ?? '(not installed)'} hermetic probes`, () => {
  for (const [scenario, answer] of Object.entries(TEXT_ANSWERS) as [ScenarioName, string][]) {
    it(`scenario ${scenario}: the answer is the text part, exit 0, nothing validates it`, async () => {
      const r = await probe(scenario);
      expectCompletedRun(r);
      expect(r.envelope.exitCode).toBe(0);
      expect(events(r).map((e) => e.type)).toEqual(['step_start', 'text', 'step_finish']);
      expect(text(r)).toBe(answer);
      expect(text(r)).not.toContain(TITLE_TEXT);
      expect((events(r)[2]!.part as Json).reason).toBe('stop');
      expect(turns(r)).toHaveLength(1);
    });
  }

  it('scenario api-400: one error event with statusCode 400, exit 1', async () => {
    const r = await probe('api-400');
    expectCompletedRun(r);
    expect(r.envelope.exitCode).toBe(1);
    const e = events(r);
    expect(e).toHaveLength(1);
    expect(e[0]).toMatchObject({ type: 'error', error: { name: 'APIError', data: { message: 'routecert mock: invalid request (scenario api-400)', statusCode: 400, isRetryable: false } } });
    expect(turns(r)).toHaveLength(1);
  });

  it('scenario api-529: retried 5 times, then one error event with statusCode 529, exit 1', async () => {
    const r = await probe('api-529');
    expectCompletedRun(r);
    expect(r.envelope.exitCode).toBe(1);
    expect(events(r)).toEqual([expect.objectContaining({ type: 'error', error: expect.objectContaining({ name: 'APIError', data: expect.objectContaining({ statusCode: 529, isRetryable: true }) }) })]);
    expect(turns(r)).toHaveLength(6);
  });

  it('scenario stall: the deadline kills the whole process group and marks timedOut', async () => {
    const r = await runProbe({ cli, driver: opencodeDriver, route: ROUTE, scenario: 'stall', schema: povSchema, ...stallDeadlines(PROBE_TIMEOUT_MS) });
    expectKilledAtDeadline(r);
    expect(turns(r)).toHaveLength(1);
    expect(r.unexpected).toEqual([]);
  });
});

skipUnlessInstalled(cli, 'opencode hermetic probes', skipReason);
