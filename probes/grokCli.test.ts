/**
 * Hermetic probes of the real grok-cli (`@vibe-kit/grok-cli`, pinned in probes/package.json) against
 * the non-streaming Chat Completions mock on 127.0.0.1: what a user would notice about the envelope
 * of each scenario. The facts asserted here were observed with grok-cli 0.0.34 (whose `--version`
 * prints 1.0.1); a failure after a CLI upgrade is envelope drift to record, not a flaky test.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PAYLOADS, PROSE_ONLY_TEXT, SCENARIOS, fencedText, withoutFinal, type ScenarioName } from '../src/mock/index.ts';
import {
  GROK_CLI_PINNED_MODEL,
  GROK_CLI_TEST_API_KEY,
  PROMPT_PLACEHOLDER,
  SCHEMA_PROMPT_LEAD,
  grokCliDriver,
  runProbe,
  type ProbeResult,
} from '../src/probe/index.ts';
import { discoverProbeCli, expectGroupGone, expectKilledAtDeadline, jsonLines, readContractSchema, skipUnlessInstalled, stallDeadlines, type Json } from './_helpers.ts';

const povSchema = readContractSchema();

const { cli, skipReason } = await discoverProbeCli(grokCliDriver.cli, {
  file: 'grokCli.test.ts',
  label: 'grok (grok-cli)',
  pinned: '@vibe-kit/grok-cli',
  bin: grokCliDriver.bin,
});

/** Deadline of each non-stall probe (runs take 2-6 s on a loaded machine). */
const PROBE_TIMEOUT_MS = 60_000;
const ROUTE = 'grok-cli/jsonl';

function probe(scenario: ScenarioName, timeoutMs = PROBE_TIMEOUT_MS): Promise<ProbeResult> {
  return runProbe({ cli, driver: grokCliDriver, route: ROUTE, scenario, schema: povSchema, timeoutMs });
}

/** The JSONL messages of stdout (every line must be one). */
function messages(r: ProbeResult): Json[] {
  return jsonLines(r);
}

/** What every completed run shares: JSONL of a user line (the prompt with the schema) and one assistant line. */
function expectCompletedRun(r: ProbeResult, requests = 1): string {
  expect(r.fault).toBeUndefined();
  expect(r.envelope.timedOut).toBe(false);
  expect(r.envelope.signal).toBeNull();
  // API errors too end with exit 0.
  expect(r.envelope.exitCode).toBe(0);
  expect(r.envelope.stderr).toBe('');
  expect(r.argv).toEqual(['-p', PROMPT_PLACEHOLDER]);
  expect(r.unexpected, 'no request reached the 501 catch-all').toEqual([]);
  expect(r.requests).toHaveLength(requests);
  for (const q of r.requests) {
    expect(q.method).toBe('POST');
    expect(q.path).toBe('/v1/chat/completions');
    expect(q.headers.authorization).toBe('<redacted>');
    const body = q.body as Json;
    expect(body.model).toBe(GROK_CLI_PINNED_MODEL);
    expect(body).not.toHaveProperty('stream');
    expect((body.tools as unknown[]).length).toBeGreaterThan(0);
    expect(body.search_parameters).toEqual({ mode: 'off' });
  }
  const all = messages(r);
  expect(all.map((m) => m.role)).toEqual(['user', 'assistant']);
  expect(String(all[0]!.content)).toContain(SCHEMA_PROMPT_LEAD);
  expect(Object.keys(all[1]!)).toEqual(['role', 'content']);
  return String(all[1]!.content);
}

const ASSERT: Record<Exclude<ScenarioName, 'stall'>, (r: ProbeResult) => void> = {
  final: (r) => expect(expectCompletedRun(r)).toBe(JSON.stringify(DEFAULT_PAYLOADS.final)),
  'placeholder-then-final': (r) =>
    expect(expectCompletedRun(r)).toBe(`${JSON.stringify(DEFAULT_PAYLOADS.placeholder)}\n${JSON.stringify(DEFAULT_PAYLOADS.final)}`),
  'nonfinal-only': (r) => expect(expectCompletedRun(r)).toBe(JSON.stringify(DEFAULT_PAYLOADS.placeholder)),
  // Nothing validates the answer client-side.
  'missing-final': (r) => expect(expectCompletedRun(r)).toBe(JSON.stringify(withoutFinal(DEFAULT_PAYLOADS.final))),
  'prose-only': (r) => expect(expectCompletedRun(r)).toBe(PROSE_ONLY_TEXT),
  fenced: (r) => expect(expectCompletedRun(r)).toBe(fencedText(DEFAULT_PAYLOADS.final)),
  // The error becomes the assistant's answer, exit 0; the OpenAI SDK words it `<status> <message>`.
  'api-400': (r) => expect(expectCompletedRun(r)).toBe('Sorry, I encountered an error: Grok API error: 400 routecert mock: invalid request (scenario api-400)'),
  // 529 is retried twice by the OpenAI SDK (x-stainless-retry-count 0, 1, 2): three requests.
  'api-529': (r) => {
    expect(expectCompletedRun(r, 3)).toBe('Sorry, I encountered an error: Grok API error: 529 Overloaded');
    expect(r.requests.map((q) => q.headers['x-stainless-retry-count'])).toEqual(['0', '1', '2']);
  },
};

describe.skipIf(!cli.bin)(`grok-cli (grok ${cli.version ?? 'not installed'}) hermetic probes`, () => {
  it('is discovered; --version prints 1.0.1 although the npm package is 0.0.34', () => {
    expect(cli.source).not.toBeNull();
    expect(cli.version).toBe('1.0.1');
    const pkg = JSON.parse(readFileSync(new URL('./node_modules/@vibe-kit/grok-cli/package.json', import.meta.url), 'utf8')) as { version: string };
    expect(pkg.version).toBe('0.0.34');
  });

  it('hands the CLI only the test key, through the environment', async () => {
    const prepared = await grokCliDriver.prepare({
      route: ROUTE,
      schema: povSchema,
      prompt: 'p',
      mockUrl: 'http://127.0.0.1:1',
      workspace: { root: '<tmp>', home: '<tmp>/home', cwd: '<tmp>/work', tmpDir: '<tmp>/tmp' },
    });
    expect(prepared.env.GROK_API_KEY).toBe(GROK_CLI_TEST_API_KEY);
    expect(prepared.env.GROK_BASE_URL).toBe('http://127.0.0.1:1/v1');
    // -k / -u would save themselves into ~/.grok/user-settings.json: never passed.
    expect(prepared.argv).not.toContain('-k');
    expect(prepared.argv).not.toContain('-u');
  });

  for (const scenario of SCENARIOS) {
    if (scenario === 'stall') continue;
    it(`scenario ${scenario}`, async () => {
      ASSERT[scenario](await probe(scenario));
    });
  }

  it('scenario stall: the deadline kills the whole process group and marks timedOut', async () => {
    const r = await runProbe({ cli, driver: grokCliDriver, route: ROUTE, scenario: 'stall', schema: povSchema, ...stallDeadlines(PROBE_TIMEOUT_MS) });
    expectKilledAtDeadline(r);
    // grok-cli prints every message at the end: nothing before the kill.
    // On the reaper's SIGTERM it prints only its shutdown line (grok-cli 0.0.34: "Gracefully shutting down...").
    expect(r.envelope.stdout.trim()).toMatch(/^(?:Gracefully shutting down\.\.\.)?$/);
    expect(r.unexpected).toEqual([]);
    await expectGroupGone(r);
  });
});

skipUnlessInstalled(cli, 'grok-cli hermetic probes', skipReason);
