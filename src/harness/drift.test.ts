import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claudeDecoder } from '#src/routes/claude/decoder.ts';
import type { Envelope } from '#src/envelope/types.ts';
import { caseId } from '#src/record/caseId.ts';
import { caseLine, consoleReporter } from '#src/report/console.ts';
import { markdownSummary } from '#src/report/markdown.ts';
import type { CaseResult, RunReport } from '#src/report/types.ts';
import { decoderFor } from '#src/routes/registry.ts';
import { driftForProbe, driftLines, eventTypes, probeBroken, versionResult } from './drift.ts';

const FINAL = { position: 'Choose A', final: true };
const json = claudeDecoder('claude-code/json');
const stream = claudeDecoder('claude-code/stream-json');

function envelope(stdout: string): Envelope {
  return { stdout, stderr: '', exitCode: 0, elapsedMs: 10 };
}

/** A Claude Code 2.1.332 result line, as recorded. */
const RECORDED = { type: 'result', subtype: 'success', is_error: false, result: JSON.stringify(FINAL), structured_output: FINAL, session_id: 'u', usage: {} };
/** A fake newer release: one telemetry key added, `usage` dropped. */
const NEWER = { ...RECORDED, ttft_ms: 120, usage: undefined };

describe('driftLines', () => {
  it('reports keys added and removed when the versions differ', () => {
    const lines = driftLines({
      route: 'claude-code/json',
      slug: 'final',
      decoder: json,
      recorded: { version: '2.1.332', attempts: [envelope(JSON.stringify(RECORDED))] },
      probed: { version: '2.1.340', attempts: [envelope(JSON.stringify(NEWER))] },
    });
    expect(lines).toEqual(['drift claude-code/json final: (document) paths added [/ttft_ms: number], removed [/usage: object] (recorded 2.1.332, probed 2.1.340)']);
  });

  it('says nothing when the versions are equal or one is unknown, even if the shape differs', () => {
    const base = { route: 'claude-code/json', slug: 'final', decoder: json, recorded: { version: '2.1.332', attempts: [envelope(JSON.stringify(RECORDED))] } };
    expect(driftLines({ ...base, probed: { version: '2.1.332', attempts: [envelope(JSON.stringify(NEWER))] } })).toEqual([]);
    expect(driftLines({ ...base, probed: { version: null, attempts: [envelope(JSON.stringify(NEWER))] } })).toEqual([]);
  });

  it('says nothing when the shape is the same under a new version', () => {
    const same = envelope(JSON.stringify({ ...RECORDED, result: 'other text' }));
    expect(
      driftLines({ route: 'claude-code/json', slug: 'final', decoder: json, recorded: { version: '1', attempts: [envelope(JSON.stringify(RECORDED))] }, probed: { version: '2', attempts: [same] } }),
    ).toEqual([]);
  });

  it('for JSONL also reports event types added and removed, per attempt when the case has several', () => {
    const old = [{ type: 'system', subtype: 'init' }, { type: 'assistant', message: { content: [] } }, RECORDED];
    const now = [{ type: 'system', subtype: 'init' }, { type: 'stream_event', event: {} }, RECORDED];
    const text = (events: object[]) => envelope(events.map((e) => JSON.stringify(e)).join('\n'));
    const lines = driftLines({
      route: 'claude-code/stream-json',
      slug: 'nonfinal-then-final',
      decoder: stream,
      recorded: { version: '2.1.332', attempts: [text(old), text(old)] },
      probed: { version: '2.1.340', attempts: [text(old), text(now)] },
    });
    expect(lines).toEqual(['drift claude-code/stream-json nonfinal-then-final attempt 2: event types added [stream_event], removed [assistant] (recorded 2.1.332, probed 2.1.340)']);
  });

  it('reads new keys of one event type (type/subtype) as that event type\'s paths', () => {
    const text = (events: object[]) => envelope(events.map((e) => JSON.stringify(e)).join('\n'));
    const lines = driftLines({
      route: 'claude-code/stream-json',
      slug: 'final',
      decoder: stream,
      recorded: { version: '2.1.250', attempts: [text([{ type: 'system', subtype: 'init', tools: [] }, RECORDED])] },
      probed: { version: '2.1.332', attempts: [text([{ type: 'system', subtype: 'init', tools: [], memory_paths: { project: 'x' } }, { ...RECORDED, usage: { fallback_credit: 0 } }])] },
    });
    expect(lines).toEqual([
      'drift claude-code/stream-json final: result/success paths added [/usage/fallback_credit: number], removed [] (recorded 2.1.250, probed 2.1.332)',
      'drift claude-code/stream-json final: system/init paths added [/memory_paths: object], removed [] (recorded 2.1.250, probed 2.1.332)',
    ]);
  });

  it('never throws on garbage: a probe that printed no envelope and exited 1 is broken, not drift', () => {
    const crashed = { ...envelope('\u0000{not json'), exitCode: 1 };
    const input = { route: 'claude-code/json', slug: 'x', decoder: json, recorded: { version: 'a', attempts: [envelope(JSON.stringify(RECORDED))] }, probed: { version: 'b', attempts: [crashed] } };
    expect(driftLines(input)).toEqual([]);
    expect(probeBroken(input)).toBe(true);
  });

  it('a crashed probe yields no drift line (Copilot CLI 1.0.81 rejecting --disable-client-telemetry, exit 1, nothing on stdout)', () => {
    const recorded = envelope(['{"type":"session.start","data":{}}', '{"type":"assistant.message","data":{"content":"{}"}}', '{"type":"result","exitCode":0,"sessionId":"s","timestamp":"t","usage":{}}'].join('\n'));
    const crashed: Envelope = { stdout: '', stderr: "error: unknown option '--disable-client-telemetry'\n", exitCode: 1, elapsedMs: 300 };
    const input = { route: 'copilot/json', slug: 'final', decoder: decoderFor('copilot/json'), recorded: { version: '1.0.102', attempts: [recorded] }, probed: { version: '1.0.81', attempts: [crashed] } };
    expect(driftLines(input)).toEqual([]);
    expect(probeBroken(input)).toBe(true);
  });

  it('two recorded versions of a Codex envelope, with a nested key renamed and the framing changed, give both lines', () => {
    // Codex's real rename (openai/codex PR #4610, 2025-10-02; issue #4776): `codex exec --json` items
    // went from `"item_type":"assistant_message"` (docs/exec.md before it) to `"type":"agent_message"`
    // (v0.44.0 output). The framing change (JSONL -> one array) is added on top for the test.
    const older = [
      { type: 'thread.started', thread_id: 't' },
      { type: 'item.completed', item: { id: 'item_0', item_type: 'assistant_message', text: JSON.stringify(FINAL) } },
      { type: 'turn.completed', usage: { input_tokens: 1, output_tokens: 1 } },
    ];
    const newer = [
      { type: 'thread.started', thread_id: 't' },
      { type: 'item.completed', item: { id: 'item_0', type: 'agent_message', text: JSON.stringify(FINAL) } },
      { type: 'turn.completed', usage: { input_tokens: 1, output_tokens: 1 } },
    ];
    const codex = decoderFor('codex/jsonl');
    const lines = driftLines({
      route: 'codex/jsonl',
      slug: 'final',
      decoder: codex,
      recorded: { version: '0.43.0', attempts: [envelope(older.map((e) => JSON.stringify(e)).join('\n'))] },
      probed: { version: '0.44.0', attempts: [envelope(JSON.stringify(newer))] },
    });
    expect(lines).toEqual([
      'drift codex/jsonl final: framing jsonl -> json-array (recorded 0.43.0, probed 0.44.0)',
      'drift codex/jsonl final: item.completed paths added [/item/type: string], removed [/item/item_type: string] (recorded 0.43.0, probed 0.44.0)',
    ]);
    // The other way round (an old envelope read by today's decoder): the paths change back, and the
    // answer's channel stays, since the decoder reads both spellings (openai/codex#4525).
    const back = driftLines({
      route: 'codex/jsonl',
      slug: 'final',
      decoder: codex,
      recorded: { version: '0.44.0', attempts: [envelope(newer.map((e) => JSON.stringify(e)).join('\n'))] },
      probed: { version: '0.43.0', attempts: [envelope(older.map((e) => JSON.stringify(e)).join('\n'))] },
    });
    expect(back).toEqual([
      'drift codex/jsonl final: item.completed paths added [/item/item_type: string], removed [/item/type: string] (recorded 0.44.0, probed 0.43.0)',
    ]);
  });

  it('reports a retyped field, a changed answer channel and the flags sent', () => {
    const withArgv = (e: Envelope, argv: string[]) => ({ ...e, argv });
    const old = withArgv(envelope(JSON.stringify(RECORDED)), ['-p', '--output-format', 'json', '--json-schema', '<schema>']);
    const now = withArgv(envelope(JSON.stringify({ ...RECORDED, structured_output: undefined, session_id: 7 })), ['-p', '--output-format', 'json', '--json-schema', '<schema>', '--max-turns', '5']);
    const lines = driftLines({ route: 'claude-code/json', slug: 'final', decoder: json, recorded: { version: '1', attempts: [old] }, probed: { version: '2', attempts: [now] } });
    expect(lines).toEqual([
      'drift claude-code/json final: (document) paths added [], removed [/structured_output: object]; retyped [/session_id: string -> number] (recorded 1, probed 2)',
      'drift claude-code/json final: flags sent added [--max-turns], removed [] (recorded 1, probed 2)',
      'drift claude-code/json final: answer channel structured_output -> result (recorded 1, probed 2)',
    ]);
  });
});

describe('versionResult', () => {
  it('names same, drifted (still conforms), drifted (breaks: <cases>) and broken', () => {
    const p = (id: string, conforms: boolean, drift: string[] = [], broken = false) => ({ id, conforms, drift, broken });
    expect(versionResult([p('a', true), p('b', true)])).toBe('same');
    expect(versionResult([p('a', true, ['drift x']), p('b', true)])).toBe('drifted (still conforms)');
    expect(versionResult([p('b', false, ['drift x']), p('a', true), p('c', true, [], true)])).toBe('drifted (breaks: b, c)');
    expect(versionResult([p('a', false, [], true), p('b', false, [], true)])).toBe('broken');
    expect(versionResult([])).toBe('broken');
  });
  it('a CLI whose version could not be read is never "same": its drift is unknown (issue 22)', () => {
    const p = (id: string, conforms: boolean, drift: string[] = []) => ({ id, conforms, drift, broken: false });
    expect(versionResult([p('a', true), p('b', true)], null)).toMatch(/^unknown \(the CLI's version could not be read/);
    expect(versionResult([p('a', true, ['drift x'])], null)).toMatch(/^unknown/);
    expect(versionResult([p('a', false)], null)).toBe('drifted (breaks: a)');
    expect(versionResult([p('a', true)], '2.1.340')).toBe('same');
  });
});

describe('eventTypes', () => {
  it('lists the distinct event types of JSONL, sorted; null for one whole document', () => {
    expect(eventTypes('{"type":"b"}\n{"type":"a"}\n{"type":"b"}\n')).toEqual(['a', 'b']);
    expect(eventTypes('{\n  "type": "result"\n}\n')).toBeNull();
  });
});

describe('driftForProbe', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('compares with the recorded case at <cases>/<route>/<slug>.json, and says nothing without one', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'routecert-drift-'));
    const attempts = [envelope(JSON.stringify(RECORDED))];
    const expect_ = { verdict: 'accepted' as const };
    const recorded = {
      id: caseId({ attempts, contract: 'pov', expect: expect_ }),
      description: 'recorded',
      route: 'claude-code/json',
      cli: { name: 'claude', version: '2.1.332' },
      provenance: { source: 'recorded', date: '2026-11-30' },
      contract: 'pov',
      attempts,
      expect: expect_,
      tags: [],
    };
    await mkdir(path.join(dir, 'claude-code', 'json'), { recursive: true });
    await writeFile(path.join(dir, 'claude-code', 'json', 'final.json'), JSON.stringify(recorded));
    const probed = { route: 'claude-code/json', version: '2.1.340', attempts: [envelope(JSON.stringify(NEWER))] };
    expect(await driftForProbe(dir, { ...probed, slug: 'final' })).toEqual([
      'drift claude-code/json final: (document) paths added [/ttft_ms: number], removed [/usage: object] (recorded 2.1.332, probed 2.1.340)',
    ]);
    expect(await driftForProbe(dir, { ...probed, slug: 'no-such-case' })).toEqual([]);
  });
});

describe('drift in the reports', () => {
  const line = 'drift claude-code/json final: keys added [ttft_ms], removed [] (recorded 2.1.332, probed 2.1.340)';
  const result: CaseResult = {
    id: 'probe-claude-code-json-final',
    file: '(live probe)',
    description: 'live: final',
    route: 'claude-code/json',
    contract: 'pov',
    cli: { name: 'claude', version: '2.1.340' },
    source: 'probe',
    tags: ['probe'],
    outcome: 'pass',
    expected: { verdict: 'accepted' },
    verdict: null,
    attempts: [],
    problems: [],
    caught: null,
    replay: 'npx routecert run --case probe-claude-code-json-final',
    durationMs: 1,
    drift: [line],
  };

  it('the console prints a passing case with drift, even with --quiet, and the outcome stays pass', () => {
    const written: string[] = [];
    consoleReporter({ quiet: true, write: (t) => written.push(t) }).onCaseResult?.(result);
    expect(written.join('')).toContain(line);
    expect(caseLine(result)).toMatch(/PASS/);
  });

  it('summary.md lists drift lines in their own section', () => {
    const report = {
      reportVersion: 1,
      header: { tool: 'routecert', toolVersion: '0', startedAt: '', node: '', platform: '', command: '', corpus: '', clis: [] },
      cases: [result],
      faults: [],
      summary: { total: 1, pass: 1, fail: 0, error: 0, skip: 0, byVerdict: {}, faults: 0 },
      footer: { finishedAt: '', durationMs: 1, exitCode: 0 },
    } as RunReport;
    const md = markdownSummary(report);
    expect(md).toContain('## Envelope drift');
    expect(md).toContain(`- ${line} (\`probe-claude-code-json-final\`)`);
  });
});
