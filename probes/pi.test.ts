/**
 * Hermetic probes of the real pi (`@mariozechner/pi-coding-agent`, pinned in probes/package.json)
 * against the Chat Completions mock on 127.0.0.1. Facts observed with pi 0.73.1; a failure after a
 * CLI upgrade is envelope drift to record, not a flaky test. No schema flag: the driver appends the
 * schema to the prompt on stdin.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PAYLOADS, PROSE_ONLY_TEXT, fencedText, withoutFinal, type ScenarioName } from '../src/mock/index.ts';
import { PI_PINNED_MODEL, PI_PROVIDER_ID, discoverCli, piDriver, runProbe, type ProbeResult } from '../src/probe/index.ts';
import { SCHEMA_PROMPT_LEAD } from '../src/probe/schemaPrompt.ts';

const povSchema = JSON.parse(readFileSync(new URL('../schemas/contracts/pov.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;

const cli = await discoverCli('pi');
const skipReason = `pi is not installed: run \`${cli.installHint}\` to install the pinned pi`;
if (!cli.bin) console.warn(`[routecert] probes/pi.test.ts skipped: ${skipReason}`);

const PROBE_TIMEOUT_MS = 100_000;
const STALL_TIMEOUT_MS = 20_000;
const ROUTE = 'pi/json';

type Json = Record<string, unknown>;

function events(r: ProbeResult): Json[] {
  return r.envelope.stdout.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Json);
}

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
  expect(r.fault).toBeUndefined();
  expect(r.envelope.timedOut).toBe(false);
  expect(r.unexpected, 'no request reached the 501 catch-all').toEqual([]);
  expect(r.requests.length).toBeGreaterThan(0);
  for (const q of r.requests) {
    expect(`${q.method} ${q.path}`).toBe('POST /v1/chat/completions');
    expect(q.headers.authorization).toBe('<redacted>');
    expect((q.body as Json).model).toBe(PI_PINNED_MODEL);
  }
  expect(JSON.stringify((r.requests[0]!.body as Json).messages)).toContain(SCHEMA_PROMPT_LEAD.replace(/"/g, '\\"'));
  // Exit 0 whatever happened (json mode), and the session header first.
  expect(r.envelope.exitCode).toBe(0);
  expect(events(r)[0]).toMatchObject({ type: 'session', version: 3 });
  expect(events(r).map((e) => e.type)).toContain('agent_end');
}

const TEXT_ANSWERS: Partial<Record<ScenarioName, string>> = {
  final: JSON.stringify(DEFAULT_PAYLOADS.final),
  'placeholder-then-final': `${JSON.stringify(DEFAULT_PAYLOADS.placeholder)}\n\n${JSON.stringify(DEFAULT_PAYLOADS.final)}`,
  'nonfinal-only': JSON.stringify(DEFAULT_PAYLOADS.placeholder),
  'missing-final': JSON.stringify(withoutFinal(DEFAULT_PAYLOADS.final)),
  'prose-only': PROSE_ONLY_TEXT,
  fenced: fencedText(DEFAULT_PAYLOADS.final),
};

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
    const r = await runProbe({ cli, driver: piDriver, route: ROUTE, scenario: 'stall', schema: povSchema, timeoutMs: STALL_TIMEOUT_MS });
    expect(r.fault).toBeUndefined();
    expect(r.envelope.timedOut).toBe(true);
    expect(r.envelope.signal).toBe('SIGKILL');
    expect(r.requests).toHaveLength(1);
    expect(r.unexpected).toEqual([]);
    expect(assistantEnds(r)).toEqual([]);
  });
});

if (!cli.bin) {
  describe.skip(`pi hermetic probes: ${skipReason}`, () => {
    it(skipReason, () => undefined);
  });
}
