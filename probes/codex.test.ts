/**
 * Hermetic probes of the real Codex (pinned in probes/package.json) against the OpenAI Responses
 * mock on 127.0.0.1, which enforces OpenAI's strict structured-output rules: what a user would
 * notice about the envelope of each scenario. The facts asserted here were observed with Codex
 * 0.171.0; a failure after a CLI upgrade is envelope drift to record, not a flaky test.
 */
import { describe, expect, it } from 'vitest';
import { codexDecoder } from '../src/routes/decoders.ts';
import { DEFAULT_PAYLOADS, PROSE_ONLY_TEXT, fencedText, withoutFinal, type ScenarioName } from '../src/mock/index.ts';
import {
  CODEX_FORBIDDEN_FLAGS,
  CODEX_LAST_MESSAGE_PLACEHOLDER,
  CODEX_PINNED_MODEL,
  CODEX_SCHEMA_PLACEHOLDER,
  codexDriver,
  runProbe,
  type ProbeResult,
} from '../src/probe/index.ts';
import { discoverProbeCli, expectGroupGone, expectKilledAtDeadline, jsonObjectLines, readContractSchema, skipUnlessInstalled, stallDeadlines, type Json } from './_helpers.ts';

/** What the probes send: the pov schema in OpenAI's strict subset. */
const strictSchema = readContractSchema('pov.openai-strict.schema.json');
/** The production pov schema: optional receipt properties, so not OpenAI-strict. */
const productionSchema = readContractSchema();

const { cli, skipReason } = await discoverProbeCli('codex', { file: 'codex.test.ts', pinned: 'Codex' });

/** Deadline of each non-stall probe (runs take about 0.5 s). */
const PROBE_TIMEOUT_MS = 30_000;

/** Every stdout line that parses as a JSON object (JSONL events). */
function events(r: ProbeResult): Json[] {
  return jsonObjectLines(r);
}

/** The `item` of every `item.completed` event of type `type`. */
function items(r: ProbeResult, type: string): Json[] {
  return events(r)
    .filter((e) => e.type === 'item.completed')
    .map((e) => e.item as Json)
    .filter((item) => item.type === type);
}

/** The texts of the agent messages, in order. */
function agentTexts(r: ProbeResult): string[] {
  return items(r, 'agent_message').map((i) => String(i.text));
}

function probe(scenario: ScenarioName, schema: Json = strictSchema, timeoutMs = PROBE_TIMEOUT_MS): Promise<ProbeResult> {
  return runProbe({ cli, driver: codexDriver, route: 'codex/jsonl', scenario, schema, timeoutMs });
}

/** What every run that reached the mock shares: one POST /v1/responses carrying the schema verbatim as strict text.format. */
function expectHermeticRequest(r: ProbeResult, schema: Json): void {
  expect(r.fault).toBeUndefined();
  expect(r.unexpected, 'no request reached the 501 catch-all').toEqual([]);
  // request_max_retries = 0 and stream_max_retries = 0: one request, whatever the answer.
  expect(r.requests).toHaveLength(1);
  const q = r.requests[0]!;
  expect(q.method).toBe('POST');
  expect(q.path).toBe('/v1/responses');
  expect(q.headers.authorization).toBe('<redacted>');
  expect(q.headers.originator).toBe('codex_exec');
  expect(q.headers['user-agent']).toContain(`codex_exec/${cli.version}`);
  const body = q.body as Json;
  expect(body.model).toBe(CODEX_PINNED_MODEL);
  expect(body.stream).toBe(true);
  expect((body.text as Json).format).toEqual({ type: 'json_schema', name: 'codex_output_schema', strict: true, schema });
  // No structured-output tool: the schema travels only as text.format.
  expect(JSON.stringify(body.tools ?? [])).not.toContain('codex_output_schema');
}

/** What every completed (not stalled) run shares: JSONL framing from thread.started to the turn's end, nothing on stderr. */
function expectCompletedRun(r: ProbeResult, end: 'turn.completed' | 'turn.failed'): void {
  expect(r.envelope.timedOut).toBe(false);
  expect(r.envelope.signal).toBeNull();
  expect(r.envelope.stderr).toBe('');
  const all = events(r);
  expect(all[0]).toMatchObject({ type: 'thread.started' });
  expect(all[1]).toEqual({ type: 'turn.started' });
  expect(all.at(-1)?.type).toBe(end);
  // The pinned model is one Codex knows: no "Model metadata ... not found" error item.
  expect(items(r, 'error')).toEqual([]);
}

/** A successful turn: exit 0, usage from the mock's response.completed, the -o file = the last agent message. */
function expectAnsweredTurn(r: ProbeResult, texts: string[]): void {
  expectHermeticRequest(r, strictSchema);
  expectCompletedRun(r, 'turn.completed');
  expect(r.envelope.exitCode).toBe(0);
  expect(agentTexts(r)).toEqual(texts);
  expect(r.envelope.files?.['last-message']).toBe(texts.at(-1));
  const usage = events(r).at(-1)!.usage as Json;
  expect(Object.keys(usage).sort()).toEqual(['cache_write_input_tokens', 'cached_input_tokens', 'input_tokens', 'output_tokens', 'reasoning_output_tokens']);
  expect(usage.input_tokens).toBe(100);
}

/** A failed turn: exit 1, an `error` event and `turn.failed` with the same message, an empty -o file. */
function failureMessage(r: ProbeResult, schema: Json = strictSchema): string {
  expectHermeticRequest(r, schema);
  expectCompletedRun(r, 'turn.failed');
  expect(r.envelope.exitCode).toBe(1);
  expect(agentTexts(r)).toEqual([]);
  expect(r.envelope.files?.['last-message']).toBe('');
  const all = events(r);
  const failed = all.at(-1)!.error as Json;
  expect(all.at(-2)).toEqual({ type: 'error', message: failed.message });
  return String(failed.message);
}

describe.skipIf(!cli.bin)(`Codex ${cli.version ?? '(not installed)'} hermetic probes (codex/jsonl)`, () => {
  it('is discovered with its version', () => {
    expect(cli.source).not.toBeNull();
    expect(cli.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('scenario final: one agent message holding the final POV as a JSON string, mirrored in the -o file', async () => {
    const r = await probe('final');
    expect(r.argv).toContain(CODEX_SCHEMA_PLACEHOLDER);
    expect(r.argv).toContain(CODEX_LAST_MESSAGE_PLACEHOLDER);
    for (const flag of CODEX_FORBIDDEN_FLAGS) expect(r.argv).not.toContain(flag);
    expectAnsweredTurn(r, [JSON.stringify(DEFAULT_PAYLOADS.final)]);
    expect(JSON.parse(agentTexts(r)[0]!)).toEqual(DEFAULT_PAYLOADS.final);
  });

  it('scenario placeholder-then-final: the placeholder is an earlier agent message; only the final one reaches the -o file', async () => {
    const r = await probe('placeholder-then-final');
    expectAnsweredTurn(r, [JSON.stringify(DEFAULT_PAYLOADS.placeholder), JSON.stringify(DEFAULT_PAYLOADS.final)]);
  });

  it('scenario nonfinal-only: Codex is content with a schema-valid placeholder (exit 0, final: false)', async () => {
    const r = await probe('nonfinal-only');
    expectAnsweredTurn(r, [JSON.stringify(DEFAULT_PAYLOADS.placeholder)]);
  });

  it('scenario missing-final: no client-side validation, the message without final passes through with exit 0', async () => {
    const r = await probe('missing-final');
    expectAnsweredTurn(r, [JSON.stringify(withoutFinal(DEFAULT_PAYLOADS.final))]);
  });

  it('scenario prose-only: prose is the last agent message, exit 0, and no nudge request follows', async () => {
    const r = await probe('prose-only');
    expectAnsweredTurn(r, [PROSE_ONLY_TEXT]);
  });

  it('scenario fenced: the fenced answer is the message text, verbatim', async () => {
    const r = await probe('fenced');
    expectAnsweredTurn(r, [fencedText(DEFAULT_PAYLOADS.final)]);
  });

  it('scenario api-400: turn.failed carries the provider error body verbatim, as a JSON string', async () => {
    const r = await probe('api-400');
    const body = JSON.parse(failureMessage(r)) as { error: Json };
    expect(body.error).toEqual({ message: 'routecert mock: invalid request (scenario api-400)', type: 'invalid_request_error', param: null, code: 'invalid_request_error' });
    expect(codexDecoder().decode(r.envelope).status).toMatchObject({ kind: 'provider-error', apiErrorStatus: 400 });
  });

  it('scenario api-529: turn.failed words the status, the provider message and the request id', async () => {
    const r = await probe('api-529');
    expect(failureMessage(r)).toMatch(/^unexpected status 529 <unknown status code>: Overloaded, url: http:\/\/127\.0\.0\.1:\d+\/v1\/responses, request id: req_routecert_0$/);
    expect(codexDecoder().decode(r.envelope).status).toMatchObject({ kind: 'provider-error', apiErrorStatus: 529 });
  });

  it('scenario stall: the deadline kills the whole process group and marks timedOut', async () => {
    const r = await runProbe({ cli, driver: codexDriver, route: 'codex/jsonl', scenario: 'stall', schema: strictSchema, ...stallDeadlines(PROBE_TIMEOUT_MS) });
    expectKilledAtDeadline(r);
    // Before the kill Codex printed the start of the thread and turn only; the -o file is still empty.
    expect(events(r)).toEqual([expect.objectContaining({ type: 'thread.started' }), { type: 'turn.started' }]);
    expect(r.envelope.files?.['last-message'] ?? '').toBe('');
    expect(r.requests).toHaveLength(1);
    expect(r.unexpected).toEqual([]);
    await expectGroupGone(r);
  });

  it('strict schema: the production pov schema (optional properties) is refused by the provider and Codex shows its message', async () => {
    const r = await probe('final', productionSchema);
    const body = JSON.parse(failureMessage(r, productionSchema)) as { error: Json };
    expect(body.error).toMatchObject({ type: 'invalid_request_error', param: 'text.format.schema', code: 'invalid_json_schema' });
    const message = String(body.error.message);
    expect(message).toBe(
      "Invalid schema for response_format 'codex_output_schema': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'cross_model_route'. (JSON Pointer: \"/required\")",
    );
    // Codex itself accepted the file: nothing on stderr; the refusal is the provider's.
    expect(r.envelope.stderr).toBe('');
    const decoded = codexDecoder().decode(r.envelope);
    expect(decoded.status).toMatchObject({ kind: 'startup-rejected', message, apiErrorStatus: 400 });
  });
});

skipUnlessInstalled(cli, 'Codex hermetic probes', skipReason);
