/**
 * Hermetic probes of the real Gemini CLI (pinned in probes/package.json) against the Gemini API mock
 * on 127.0.0.1: what a user would notice about the envelope of each scenario on each route. The
 * facts asserted here were observed with Gemini CLI 0.61.0; a failure after a CLI upgrade is
 * envelope drift to record, not a flaky test.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PAYLOADS, PROSE_ONLY_TEXT, SCENARIOS, fencedText, withoutFinal, type ScenarioName } from '../src/mock/index.ts';
import { REDACTED } from '../src/mock/server.ts';
import {
  GEMINI_PINNED_MODEL,
  GEMINI_ROUTES,
  SCHEMA_PROMPT_LEAD,
  geminiDriver,
  runProbe,
  type GeminiRoute,
  type ProbeResult,
} from '../src/probe/index.ts';
import { discoverProbeCli, expectGroupGone, expectKilledAtDeadline, jsonObjectLines, readContractSchema, skipUnlessInstalled, stallDeadlines, type Json } from './_helpers.ts';

const povSchema = readContractSchema();

const { cli, skipReason } = await discoverProbeCli('gemini', { file: 'gemini.test.ts', pinned: 'Gemini CLI' });

/** Deadline of each non-stall probe (runs take 4-13 s on a loaded machine). */
const PROBE_TIMEOUT_MS = 60_000;

function probe(route: GeminiRoute, scenario: ScenarioName, timeoutMs = PROBE_TIMEOUT_MS): Promise<ProbeResult> {
  return runProbe({ cli, driver: geminiDriver, route, scenario, schema: povSchema, timeoutMs });
}

/** Every stdout line that parses as a JSON object (stream-json). */
function events(r: ProbeResult): Json[] {
  return jsonObjectLines(r);
}

/** The model's answer text as the route delivers it: `response` (json) or the joined assistant deltas (stream-json). */
function answerText(route: GeminiRoute, r: ProbeResult): string {
  if (route === 'gemini-cli/json') return String((JSON.parse(r.envelope.stdout) as Json).response);
  return events(r)
    .filter((e) => e.type === 'message' && e.role === 'assistant')
    .map((e) => {
      expect(e.delta).toBe(true);
      return String(e.content);
    })
    .join('');
}

/** The error object the CLI reports: stderr's last pretty JSON object (json), the result event's `error` (stream-json). */
function reportedError(route: GeminiRoute, r: ProbeResult): Json {
  if (route === 'gemini-cli/json') {
    expect(r.envelope.stdout).toBe('');
    const start = r.envelope.stderr.lastIndexOf('\n{\n');
    const report = JSON.parse(r.envelope.stderr.slice(start + 1)) as Json;
    expect(Object.keys(report)).toEqual(['session_id', 'error']);
    return report.error as Json;
  }
  const result = events(r).at(-1)!;
  expect(result).toMatchObject({ type: 'result', status: 'error' });
  return result.error as Json;
}

/** What every completed (not stalled) run shares: one request to the pinned model, nothing unexpected. */
function expectCompletedRun(route: GeminiRoute, r: ProbeResult): void {
  expect(r.fault).toBeUndefined();
  expect(r.envelope.timedOut).toBe(false);
  expect(r.envelope.signal).toBeNull();
  expect(r.argv).toEqual(['-m', GEMINI_PINNED_MODEL, '-o', route === 'gemini-cli/json' ? 'json' : 'stream-json']);
  expect(r.unexpected, 'no request reached the 501 catch-all').toEqual([]);
  // -m pins the model (no router call) and general.maxAttempts: 1 stops retries: one request.
  expect(r.requests).toHaveLength(1);
  const q = r.requests[0]!;
  expect(q.method).toBe('POST');
  expect(q.path).toBe(`/v1beta/models/${GEMINI_PINNED_MODEL}:streamGenerateContent?alt=sse`);
  // The key travels in x-goog-api-key, which the loopback server's request log redacts.
  expect(q.headers['x-goog-api-key']).toBe(REDACTED);
  // The prompt went in on stdin, with the schema appended (no schema flag).
  const contents = (q.body as { contents: { role: string; parts: { text?: string }[] }[] }).contents;
  const prompt = contents.at(-1)!.parts.map((p) => p.text ?? '').join('');
  expect(prompt).toContain(SCHEMA_PROMPT_LEAD);
  expect(prompt).toContain('"external_check"');
  if (route === 'gemini-cli/stream-json') {
    const all = events(r);
    expect(all[0]).toMatchObject({ type: 'init', model: GEMINI_PINNED_MODEL });
    expect(all[1]).toMatchObject({ type: 'message', role: 'user' });
    expect(String(all[1]!.content)).toContain(SCHEMA_PROMPT_LEAD);
    expect(all.at(-1)?.type).toBe('result');
  }
}

/** A successful run: exit 0 and the answer text the scenario scripted, unvalidated. */
function expectAnswer(route: GeminiRoute, r: ProbeResult, text: string): void {
  expect(r.envelope.exitCode).toBe(0);
  expect(answerText(route, r)).toBe(text);
  if (route === 'gemini-cli/json') {
    // One pretty-printed, multi-line object; its stats are keyed by the model version the mock reported.
    expect(r.envelope.stdout.split('\n').length).toBeGreaterThan(10);
    const envelope = JSON.parse(r.envelope.stdout) as Json;
    expect(Object.keys(envelope)).toEqual(['session_id', 'response', 'stats']);
    expect(Object.keys((envelope.stats as { models: Json }).models)).toEqual([GEMINI_PINNED_MODEL]);
  } else {
    expect(events(r).at(-1)).toMatchObject({ type: 'result', status: 'success' });
  }
}

const ASSERT: Record<Exclude<ScenarioName, 'stall'>, (route: GeminiRoute, r: ProbeResult) => void> = {
  final: (route, r) => expectAnswer(route, r, JSON.stringify(DEFAULT_PAYLOADS.final)),
  // The CLI joins the parts of all chunks without a separator: two objects back to back.
  'placeholder-then-final': (route, r) => expectAnswer(route, r, JSON.stringify(DEFAULT_PAYLOADS.placeholder) + JSON.stringify(DEFAULT_PAYLOADS.final)),
  'nonfinal-only': (route, r) => expectAnswer(route, r, JSON.stringify(DEFAULT_PAYLOADS.placeholder)),
  // Nothing validates the answer client-side: an object without `final` passes through, exit 0.
  'missing-final': (route, r) => expectAnswer(route, r, JSON.stringify(withoutFinal(DEFAULT_PAYLOADS.final))),
  'prose-only': (route, r) => expectAnswer(route, r, PROSE_ONLY_TEXT),
  fenced: (route, r) => expectAnswer(route, r, fencedText(DEFAULT_PAYLOADS.final)),
  'api-400'(route, r) {
    // The process exits with the HTTP status & 0xFF.
    expect(r.envelope.exitCode).toBe(400 & 0xff);
    const error = reportedError(route, r);
    expect(String(error.message)).toContain('"code":400');
    expect(String(error.message)).toContain('routecert mock: invalid request (scenario api-400)');
    if (route === 'gemini-cli/json') expect(error).toMatchObject({ type: 'Error', code: 400 });
    else expect(error.type).toBe('unknown');
  },
  'api-529'(route, r) {
    expect(r.envelope.exitCode).toBe(529 & 0xff);
    const error = reportedError(route, r);
    expect(String(error.message)).toContain('"code":529');
    if (route === 'gemini-cli/json') expect(error).toMatchObject({ type: 'Error', code: 529 });
    expect(r.envelope.stderr).toContain('Max attempts reached');
  },
};

describe.skipIf(!cli.bin)(`Gemini CLI ${cli.version ?? '(not installed)'} hermetic probes`, () => {
  it('is discovered with its version', () => {
    expect(cli.source).not.toBeNull();
    expect(cli.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  for (const route of GEMINI_ROUTES) {
    describe(route, () => {
      for (const scenario of SCENARIOS) {
        if (scenario === 'stall') continue;
        it(`scenario ${scenario}`, async () => {
          const r = await probe(route, scenario);
          expectCompletedRun(route, r);
          ASSERT[scenario](route, r);
        });
      }

      it('scenario stall: the deadline kills the whole process group and marks timedOut', async () => {
        const r = await runProbe({ cli, driver: geminiDriver, route, scenario: 'stall', schema: povSchema, ...stallDeadlines(PROBE_TIMEOUT_MS) });
        expectKilledAtDeadline(r);
        // json prints nothing before the end; stream-json may have printed its init and user lines.
        if (route === 'gemini-cli/json') expect(r.envelope.stdout).toBe('');
        else expect(events(r).every((e) => e.type === 'init' || (e.type === 'message' && e.role !== 'assistant') || e.content === '')).toBe(true);
        expect(r.unexpected).toEqual([]);
        await expectGroupGone(r);
      });
    });
  }
});

skipUnlessInstalled(cli, 'Gemini CLI hermetic probes', skipReason);
