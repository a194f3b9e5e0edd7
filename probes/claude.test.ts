/**
 * Hermetic probes of the real Claude Code (pinned in probes/package.json) against the Anthropic
 * mock on 127.0.0.1: what a user would notice about the envelope of each scenario on each route.
 * The facts asserted here were observed with Claude Code 2.1.332; a failure after a CLI upgrade is
 * envelope drift to record, not a flaky test.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PAYLOADS,
  PROSE_ONLY_TEXT,
  SCENARIOS,
  STRUCTURED_OUTPUT_ENFORCE_PREFIX,
  fencedText,
  type ScenarioName,
} from '../src/mock/index.ts';
import {
  CLAUDE_PINNED_MODEL,
  CLAUDE_ROUTES,
  FORBIDDEN_FLAGS,
  SCHEMA_PLACEHOLDER,
  runProbe,
  runStartupProbe,
  type ClaudeRoute,
  type ProbeResult,
} from '../src/probe/index.ts';
import { discoverProbeCli, expectGroupGone, expectKilledAtDeadline, jsonObjectLines, readContractSchema, skipUnlessInstalled, stallDeadlines, type Json } from './_helpers.ts';

const povSchema = readContractSchema();

const { cli, skipReason } = await discoverProbeCli('claude', { file: 'claude.test.ts', pinned: 'Claude Code' });

/** Deadline of each non-stall probe (runs take 1-2 s). */
const PROBE_TIMEOUT_MS = 30_000;

/** Every stdout line that parses as a JSON object (json route: one line; stream-json: JSONL). */
function lines(result: ProbeResult): Json[] {
  return jsonObjectLines(result);
}

/** The terminal `type:"result"` object (the last one). */
function terminal(result: ProbeResult): Json {
  const found = lines(result).filter((o) => o.type === 'result');
  expect(found, 'one terminal result line').toHaveLength(1);
  return found[0]!;
}

/** The `content` blocks of each `type:"assistant"` / `type:"user"` stream event. */
function events(result: ProbeResult, type: 'assistant' | 'user'): { id: unknown; content: Json[]; event: Json }[] {
  return lines(result)
    .filter((o) => o.type === type)
    .map((o) => {
      const message = (o.message ?? {}) as Json;
      return { id: message.id, content: (Array.isArray(message.content) ? message.content : []) as Json[], event: o };
    });
}

/** The last user message of recorded request `i` (what the CLI sent the model). */
function lastUserBlocks(result: ProbeResult, i: number): Json[] {
  const body = result.requests[i]?.body as { messages?: { role: string; content: unknown }[] } | undefined;
  const last = body?.messages?.at(-1);
  if (!last) return [];
  return typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : (last.content as Json[]);
}

function probe(route: ClaudeRoute, scenario: ScenarioName): Promise<ProbeResult> {
  return runProbe({ cli, route, scenario, schema: povSchema, timeoutMs: PROBE_TIMEOUT_MS });
}

/** What every completed (not stalled) run shares. */
function expectCompletedRun(r: ProbeResult): void {
  expect(r.fault).toBeUndefined();
  expect(r.envelope.timedOut).toBe(false);
  expect(r.envelope.signal).toBeNull();
  expect(r.envelope.stderr).toBe('');
  expect(r.unexpected, 'no request reached the 501 catch-all').toEqual([]);
  expect(r.requests.length).toBeGreaterThan(0);
  for (const q of r.requests) {
    expect(q.method).toBe('POST');
    expect(q.path).toBe('/v1/messages?beta=true');
    expect(q.headers['x-api-key']).toBe('<redacted>');
    expect((q.body as Json).model).toBe(CLAUDE_PINNED_MODEL);
  }
}

/** The structured tool of request 0 carries the schema verbatim (one argv token survived intact). */
function expectSchemaOnTheWire(r: ProbeResult): void {
  const tools = ((r.requests[0]?.body as Json).tools ?? []) as Json[];
  const tool = tools.find((t) => t.name === 'StructuredOutput');
  expect(tool?.input_schema).toEqual(povSchema);
}

/** Stream routes: the init line first, the result line last. */
function expectStreamFraming(route: ClaudeRoute, r: ProbeResult): void {
  if (route !== 'claude-code/stream-json') {
    expect(lines(r)).toHaveLength(1);
    return;
  }
  const all = lines(r);
  expect(all[0]).toMatchObject({ type: 'system', subtype: 'init', claude_code_version: cli.version });
  expect(all.at(-1)?.type).toBe('result');
}

const ASSERT: Record<Exclude<ScenarioName, 'stall'>, (route: ClaudeRoute, r: ProbeResult) => void> = {
  final(route, r) {
    const t = terminal(r);
    expect(r.envelope.exitCode).toBe(0);
    expect(t).toMatchObject({ subtype: 'success', is_error: false, terminal_reason: 'completed', api_error_status: null, stop_reason: 'tool_use', num_turns: 2 });
    expect(t.structured_output).toEqual(DEFAULT_PAYLOADS.final);
    expect(JSON.parse(t.result as string)).toEqual(DEFAULT_PAYLOADS.final);
    expect(r.requests).toHaveLength(1);
    if (route === 'claude-code/stream-json') {
      const tool = events(r, 'assistant').flatMap((e) => e.content).find((b) => b.type === 'tool_use');
      expect(tool).toMatchObject({ name: 'StructuredOutput', input: DEFAULT_PAYLOADS.final });
      const ack = events(r, 'user').flatMap((e) => e.content).find((b) => b.type === 'tool_result');
      expect(ack?.content).toBe('Structured output provided successfully');
    }
  },
  'placeholder-then-final'(route, r) {
    const t = terminal(r);
    expect(r.envelope.exitCode).toBe(0);
    expect(t).toMatchObject({ subtype: 'success', is_error: false, terminal_reason: 'completed' });
    expect(t.structured_output).toEqual(DEFAULT_PAYLOADS.final);
    expect(r.requests).toHaveLength(1);
    const placeholderText = JSON.stringify(DEFAULT_PAYLOADS.placeholder);
    if (route === 'claude-code/json') {
      // The json route keeps only the final answer: the placeholder text is nowhere in stdout.
      expect(r.envelope.stdout).not.toContain('blocked: gathering subject evidence');
    } else {
      // One assistant event per content block, sharing message.id: the text, then the tool call.
      const assistant = events(r, 'assistant');
      expect(assistant).toHaveLength(2);
      expect(assistant[0]!.id).toBe(assistant[1]!.id);
      expect(assistant[0]!.content).toEqual([{ type: 'text', text: placeholderText }]);
      expect(assistant[1]!.content[0]).toMatchObject({ type: 'tool_use', name: 'StructuredOutput', input: DEFAULT_PAYLOADS.final });
    }
  },
  'nonfinal-only'(_route, r) {
    const t = terminal(r);
    // The CLI is content with a schema-valid placeholder: success, exit 0, final:false in structured_output.
    expect(r.envelope.exitCode).toBe(0);
    expect(t).toMatchObject({ subtype: 'success', is_error: false, terminal_reason: 'completed' });
    expect(t.structured_output).toEqual(DEFAULT_PAYLOADS.placeholder);
    expect(r.requests).toHaveLength(1);
  },
  'missing-final'(route, r) {
    const t = terminal(r);
    // Client-side Ajv rejects each tool input; after 5 failed requests the CLI gives up.
    expect(r.envelope.exitCode).toBe(1);
    expect(t).toMatchObject({
      subtype: 'error_max_structured_output_retries',
      is_error: true,
      terminal_reason: 'structured_output_retry_exhausted',
      num_turns: 6,
    });
    expect(t).not.toHaveProperty('structured_output');
    expect(t).not.toHaveProperty('result');
    expect(t.errors).toEqual([
      "Failed to provide valid structured output after 5 attempts — last StructuredOutput error: Output does not match required schema: root: must have required property 'final'",
    ]);
    expect(r.requests).toHaveLength(5);
    for (let i = 1; i < r.requests.length; i++) {
      expect(lastUserBlocks(r, i).find((b) => b.type === 'tool_result')).toMatchObject({ is_error: true });
    }
    if (route === 'claude-code/stream-json') {
      const errs = events(r, 'user').flatMap((e) => e.content).filter((b) => b.type === 'tool_result' && b.is_error === true);
      expect(errs).toHaveLength(5);
    }
  },
  'prose-only'(route, r) {
    const t = terminal(r);
    // Success without structured_output: the answer is the prose in `result`.
    expect(r.envelope.exitCode).toBe(0);
    expect(t).toMatchObject({ subtype: 'success', is_error: false, terminal_reason: 'completed', stop_reason: 'end_turn', num_turns: 2 });
    expect(t).not.toHaveProperty('structured_output');
    expect(t.result).toBe(PROSE_ONLY_TEXT);
    // The second request is the CLI's enforcement nudge.
    expect(r.requests).toHaveLength(2);
    const nudge = lastUserBlocks(r, 1).find((b) => b.type === 'text');
    expect(String(nudge?.text)).toContain(STRUCTURED_OUTPUT_ENFORCE_PREFIX);
    if (route === 'claude-code/stream-json') {
      expect(events(r, 'assistant')).toHaveLength(2);
      const userText = events(r, 'user').flatMap((e) => e.content).find((b) => b.type === 'text');
      expect(String(userText?.text)).toContain(STRUCTURED_OUTPUT_ENFORCE_PREFIX);
    }
  },
  fenced(_route, r) {
    const t = terminal(r);
    expect(r.envelope.exitCode).toBe(0);
    expect(t).toMatchObject({ subtype: 'success', is_error: false, terminal_reason: 'completed', stop_reason: 'end_turn' });
    expect(t).not.toHaveProperty('structured_output');
    expect(t.result).toBe(fencedText(DEFAULT_PAYLOADS.final));
    expect(r.requests).toHaveLength(2);
  },
  'api-400'(route, r) {
    const t = terminal(r);
    expect(r.envelope.exitCode).toBe(1);
    expect(t).toMatchObject({
      subtype: 'success',
      is_error: true,
      terminal_reason: 'api_error',
      api_error_status: 400,
      api_error_type: 'invalid_request_error',
      num_turns: 1,
    });
    expect(t).not.toHaveProperty('structured_output');
    expect(t.result).toBe('API Error: 400 routecert mock: invalid request (scenario api-400)');
    // With CLAUDE_CODE_MAX_RETRIES=0 a 400 is still re-sent 5 times with fewer beta features
    // (anthropic-beta and thinking.display vary): 6 requests in all.
    expect(r.requests).toHaveLength(6);
    if (route === 'claude-code/stream-json') {
      const a = events(r, 'assistant');
      expect(a).toHaveLength(1);
      expect(a[0]!.event.error).toBe('unknown');
    }
  },
  'api-529'(route, r) {
    const t = terminal(r);
    expect(r.envelope.exitCode).toBe(1);
    expect(t).toMatchObject({
      subtype: 'success',
      is_error: true,
      terminal_reason: 'api_error',
      api_error_status: 529,
      api_error_type: 'overloaded_error',
      num_turns: 1,
    });
    expect(t).not.toHaveProperty('structured_output');
    expect(String(t.result)).toMatch(/^API Error: 529 Overloaded\./);
    expect(r.requests).toHaveLength(1);
    if (route === 'claude-code/stream-json') {
      const a = events(r, 'assistant');
      expect(a).toHaveLength(1);
      expect(a[0]!.event.error).toBe('server_error');
    }
  },
};

describe.skipIf(!cli.bin)(`Claude Code ${cli.version ?? '(not installed)'} hermetic probes`, () => {
  it('is discovered with its version', () => {
    expect(cli.source).not.toBeNull();
    expect(cli.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  for (const route of CLAUDE_ROUTES) {
    describe(route, () => {
      for (const scenario of SCENARIOS) {
        if (scenario === 'stall') continue;
        it(`scenario ${scenario}`, async () => {
          const r = await probe(route, scenario);
          expect(r.argv).toContain(SCHEMA_PLACEHOLDER);
          for (const flag of FORBIDDEN_FLAGS) expect(r.argv.join(' ')).not.toContain(flag);
          expectCompletedRun(r);
          expectSchemaOnTheWire(r);
          expectStreamFraming(route, r);
          ASSERT[scenario](route, r);
        });
      }

      it('scenario stall: the deadline kills the whole process group and marks timedOut', async () => {
        const r = await runProbe({ cli, route, scenario: 'stall', schema: povSchema, ...stallDeadlines(PROBE_TIMEOUT_MS) });
        expectKilledAtDeadline(r);
        // Before the kill: json printed nothing (it buffers); stream-json printed its init line only.
        if (route === 'claude-code/json') expect(r.envelope.stdout).toBe('');
        else expect(lines(r).map((o) => `${String(o.type)}/${String(o.subtype)}`)).toEqual(['system/init']);
        expect(r.requests).toHaveLength(1);
        expect(r.unexpected).toEqual([]);
        await expectGroupGone(r);
      });

      it('startup: the pov schema is accepted', async () => {
        const r = await runStartupProbe(cli, route, povSchema, { timeoutMs: PROBE_TIMEOUT_MS });
        expect(r.fault).toBeUndefined();
        expect(r.schemaAccepted).toBe(true);
        expect(r.rejection).toBeNull();
        expect(r.envelope.exitCode).toBe(0);
        expect(terminal(r).structured_output).toEqual(DEFAULT_PAYLOADS.final);
      });

      it('startup: the pov schema with a root `_meta` member is rejected before any request', async () => {
        const r = await runStartupProbe(cli, route, { ...povSchema, _meta: { owner: 'routecert' } }, { timeoutMs: PROBE_TIMEOUT_MS });
        expect(r.fault).toBeUndefined();
        expect(r.schemaAccepted).toBe(false);
        expect(r.envelope.exitCode).toBe(1);
        expect(r.envelope.stdout).toBe('');
        expect(r.envelope.stderr).toContain('strict mode: unknown keyword: "_meta"');
        expect(r.rejection).toBe('Error: --json-schema is not a valid JSON Schema: strict mode: unknown keyword: "_meta"');
        expect(r.requests).toEqual([]);
        expect(r.unexpected).toEqual([]);
      });
    });
  }
});

skipUnlessInstalled(cli, 'Claude Code hermetic probes', skipReason);
