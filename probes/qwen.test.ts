/**
 * Hermetic probes of the real Qwen Code (pinned in probes/package.json) against the Chat Completions
 * mock on 127.0.0.1: what a user would notice about the envelope of each scenario on each route.
 * The facts asserted here were observed with Qwen Code 0.24.4 on Node 20 (the package declares
 * node >= 22 and runs anyway); a failure after a CLI upgrade is envelope drift to record, not a
 * flaky test.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PAYLOADS, PROSE_ONLY_TEXT, fencedText, withoutFinal, type ScenarioName } from '../src/mock/index.ts';
import {
  QWEN_PINNED_MODEL,
  QWEN_ROUTES,
  QWEN_SCHEMA_PLACEHOLDER,
  qwenDriver,
  runProbe,
  runStartupProbe,
  type ProbeResult,
  type QwenProbeRoute,
} from '../src/probe/index.ts';
import { discoverProbeCli, expectChatCompletionsRun, expectKilledAtDeadline, readContractSchema, skipUnlessInstalled, stallDeadlines, type Json } from './_helpers.ts';

const povSchema = readContractSchema();

const { cli, skipReason } = await discoverProbeCli('qwen', { file: 'qwen.test.ts', pinned: 'Qwen Code' });

/** Deadline of each non-stall probe: Qwen Code takes 5-25 s to start on a loaded 2-core machine. */
const PROBE_TIMEOUT_MS = 100_000;

/** Every message of the envelope: the json route's array, or the stream-json lines. */
function messages(r: ProbeResult): Json[] {
  const out = r.envelope.stdout.trim();
  if (out === '') return [];
  if (out.startsWith('[')) return JSON.parse(out) as Json[];
  return out.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Json);
}

function terminal(r: ProbeResult): Json {
  const found = messages(r).filter((m) => m.type === 'result');
  expect(found, 'one result object').toHaveLength(1);
  return found[0]!;
}

/** The content blocks of every assistant message, in order. */
function assistantBlocks(r: ProbeResult): Json[] {
  return messages(r)
    .filter((m) => m.type === 'assistant')
    .flatMap((m) => ((m.message as Json).content ?? []) as Json[]);
}

function probe(route: QwenProbeRoute, scenario: ScenarioName): Promise<ProbeResult> {
  return runProbe({ cli, driver: qwenDriver, route, scenario, schema: povSchema, timeoutMs: PROBE_TIMEOUT_MS });
}

function expectCompletedRun(route: QwenProbeRoute, r: ProbeResult): void {
  expectChatCompletionsRun(r, QWEN_PINNED_MODEL);
  for (const q of r.requests) expect((q.body as Json).stream).toBe(true);
  // The schema is offered as the structured_output function tool.
  const tools = ((r.requests[0]!.body as Json).tools ?? []) as Json[];
  const tool = tools.map((t) => t.function as Json).find((f) => f.name === 'structured_output');
  expect((tool?.parameters as Json).properties).toEqual(povSchema.properties);
  const all = messages(r);
  expect(all[0]).toMatchObject({ type: 'system', subtype: 'init', qwen_code_version: cli.version });
  if (route === 'qwen-code/json') expect(r.envelope.stdout.trim().startsWith('[')).toBe(true);
  else expect(all.some((m) => m.type === 'stream_event')).toBe(true);
}

const PLAIN_TEXT = 'Model produced plain text instead of calling the structured_output tool as required by --json-schema after 1 turn(s).';

const ASSERT: Partial<Record<ScenarioName, (r: ProbeResult) => void>> = {
  final(r) {
    expect(r.envelope.exitCode).toBe(0);
    const t = terminal(r);
    expect(t).toMatchObject({ subtype: 'success', is_error: false, num_turns: 1 });
    expect(t.structured_result).toEqual(DEFAULT_PAYLOADS.final);
    expect(t).not.toHaveProperty('structured_output');
    expect(JSON.parse(t.result as string)).toEqual(DEFAULT_PAYLOADS.final);
    expect(r.requests).toHaveLength(1);
  },
  'placeholder-then-final'(r) {
    expect(r.envelope.exitCode).toBe(0);
    expect(terminal(r).structured_result).toEqual(DEFAULT_PAYLOADS.final);
    // The text and the tool call arrive as two assistant messages, text first.
    expect(assistantBlocks(r).map((b) => b.type)).toEqual(['text', 'tool_use']);
    expect(JSON.parse(assistantBlocks(r)[0]!.text as string)).toEqual(DEFAULT_PAYLOADS.placeholder);
  },
  'nonfinal-only'(r) {
    expect(r.envelope.exitCode).toBe(0);
    expect(terminal(r)).toMatchObject({ subtype: 'success', structured_result: DEFAULT_PAYLOADS.placeholder });
  },
  'missing-final'(r) {
    // Client-side validation rejects every call; loop detection stops the 5th request's identical call.
    expect(r.envelope.exitCode).toBe(1);
    const t = terminal(r);
    expect(t).toMatchObject({ subtype: 'error_during_execution', is_error: true });
    expect(String((t.error as Json).message)).toMatch(/^Loop detection halted the run/);
    expect(t).not.toHaveProperty('structured_result');
    const calls = assistantBlocks(r).filter((b) => b.type === 'tool_use');
    expect(calls.length).toBeGreaterThanOrEqual(2);
    for (const c of calls) expect(c.input).toEqual(withoutFinal(DEFAULT_PAYLOADS.final));
    const rejections = messages(r).filter((m) => m.type === 'user').flatMap((m) => ((m.message as Json).content ?? []) as Json[]);
    expect(rejections[0]).toMatchObject({ type: 'tool_result', is_error: true, content: "params must have required property 'final'" });
  },
  'prose-only'(r) {
    expect(r.envelope.exitCode).toBe(1);
    const t = terminal(r);
    expect(t).toMatchObject({ subtype: 'error_during_execution', is_error: true });
    expect(String((t.error as Json).message)).toContain(PLAIN_TEXT);
    expect(assistantBlocks(r)).toEqual([{ type: 'text', text: PROSE_ONLY_TEXT }]);
    // No nudge turn and no memory subagent (disabled in settings): one request.
    expect(r.requests).toHaveLength(1);
  },
  fenced(r) {
    expect(r.envelope.exitCode).toBe(1);
    expect(String(((terminal(r).error as Json).message))).toContain(PLAIN_TEXT);
    expect(assistantBlocks(r)).toEqual([{ type: 'text', text: fencedText(DEFAULT_PAYLOADS.final) }]);
  },
  'api-400'(r) {
    expect(r.envelope.exitCode).toBe(1);
    const text = '[API Error: 400 routecert mock: invalid request (scenario api-400)]';
    expect(terminal(r)).toMatchObject({ subtype: 'error_during_execution', is_error: true, error: { message: text } });
    expect(assistantBlocks(r)).toEqual([{ type: 'text', text }]);
    expect(r.requests).toHaveLength(1);
  },
  'api-529'(r) {
    // The driver's mock answers 503 with retry-after-ms: 1; the CLI makes 7 attempts, then gives up.
    expect(r.envelope.exitCode).toBe(1);
    expect(terminal(r)).toMatchObject({ error: { message: '[API Error: 503 The server is overloaded or not ready yet.]' } });
    expect(r.requests).toHaveLength(7);
  },
};

describe.skipIf(!cli.bin)(`Qwen Code ${cli.version ?? '(not installed)'} hermetic probes`, () => {
  for (const route of QWEN_ROUTES) {
    describe(route, () => {
      for (const [scenario, check] of Object.entries(ASSERT) as [ScenarioName, (r: ProbeResult) => void][]) {
        it(`scenario ${scenario}`, async () => {
          const r = await probe(route, scenario);
          expect(r.argv).toContain(QWEN_SCHEMA_PLACEHOLDER);
          expect(r.argv.join(' ')).not.toMatch(/--yolo|-y\b|approval-mode/);
          expectCompletedRun(route, r);
          check(r);
        });
      }

      it('scenario stall: the deadline kills the whole process group and marks timedOut', async () => {
        const r = await runProbe({ cli, driver: qwenDriver, route, scenario: 'stall', schema: povSchema, ...stallDeadlines(PROBE_TIMEOUT_MS) });
        expectKilledAtDeadline(r);
        expect(r.requests).toHaveLength(1);
        expect(r.unexpected).toEqual([]);
        // json buffers everything until the end; stream-json has printed its init line.
        if (route === 'qwen-code/json') expect(r.envelope.stdout).toBe('');
        else expect(messages(r)[0]).toMatchObject({ type: 'system', subtype: 'init' });
      });

      it('startup: the pov schema is accepted', async () => {
        const r = await runStartupProbe(cli, route, povSchema, { timeoutMs: PROBE_TIMEOUT_MS, driver: qwenDriver });
        expect(r.fault).toBeUndefined();
        expect(r.schemaAccepted).toBe(true);
        expect(r.rejection).toBeNull();
      });

      it('startup: a root `_meta` member is rejected before any request (exit 52)', async () => {
        const r = await runStartupProbe(cli, route, { ...povSchema, _meta: { owner: 'routecert' } }, { timeoutMs: PROBE_TIMEOUT_MS, driver: qwenDriver });
        expect(r.fault).toBeUndefined();
        expect(r.schemaAccepted).toBe(false);
        expect(r.envelope.exitCode).toBe(52);
        expect(r.envelope.stdout).toBe('');
        expect(r.rejection).toBe('--json-schema is not a valid JSON Schema: strict mode: unknown keyword: "_meta"');
        expect(r.requests).toEqual([]);
      });
    });
  }
});

skipUnlessInstalled(cli, 'Qwen Code hermetic probes', skipReason);
