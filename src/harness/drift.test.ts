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
import { driftForProbe, driftLines, eventTypes } from './drift.ts';

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
    expect(lines).toEqual(['drift claude-code/json final: keys added [ttft_ms], removed [usage] (recorded 2.1.332, probed 2.1.340)']);
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

  it('never throws on garbage: a recorded JSON envelope against empty output reports every key removed', () => {
    const lines = driftLines({ route: 'claude-code/json', slug: 'x', decoder: json, recorded: { version: 'a', attempts: [envelope(JSON.stringify(RECORDED))] }, probed: { version: 'b', attempts: [envelope('\u0000{not json')] } });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('keys added [], removed [is_error, result, session_id, structured_output, subtype, type, usage]');
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
      'drift claude-code/json final: keys added [ttft_ms], removed [usage] (recorded 2.1.332, probed 2.1.340)',
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
