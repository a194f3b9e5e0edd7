import { describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { CLAUDE_TEXT_ROUTE, claudeArgv } from '#src/routes/claude/probe.ts';
import { claudeDriver } from '#src/routes/claude/route.ts';
import type { DiscoveredCli } from '#src/probe/discover.ts';
import type { ProbeDriver } from '#src/probe/driver.ts';
import type { ProbeResult } from '#src/probe/run.ts';
import {
  classifyStartup,
  lintExpectation,
  providerRefusal,
  routeFormat,
  runStartupTable,
  startupRoutes,
  type StartupSubject,
} from '#src/probe/startup.ts';

function result(partial: { stdout?: string; stderr?: string; exitCode?: number | null; requests?: number; fault?: string; timedOut?: boolean }): ProbeResult {
  return {
    route: 'x/json',
    scenario: 'final',
    cli: { name: 'x', version: '1.0.0' },
    argv: [],
    envelope: { stdout: partial.stdout ?? '', stderr: partial.stderr ?? '', exitCode: partial.exitCode ?? 0, signal: null, timedOut: partial.timedOut ?? false, elapsedMs: 5 },
    requests: Array.from({ length: partial.requests ?? 0 }, () => ({ method: 'POST', path: '/v1/x', headers: {}, body: null, atMs: 0 })),
    unexpected: [],
    pid: 1,
    firstRequestMs: (partial.requests ?? 0) > 0 ? 1 : null,
    ...(partial.fault === undefined ? {} : { fault: partial.fault }),
  };
}

describe('classifyStartup', () => {
  it("reads Claude Code's startup rejection line as rejected at startup", () => {
    const r = result({ stderr: 'Error: --json-schema is not a valid JSON Schema: strict mode: unknown keyword: "_meta"\n', exitCode: 1 });
    expect(classifyStartup(r, claudeDriver)).toEqual({
      outcome: 'rejected',
      stage: 'startup',
      message: 'Error: --json-schema is not a valid JSON Schema: strict mode: unknown keyword: "_meta"',
      exitCode: 1,
      requests: 0,
      elapsedMs: 5,
    });
  });

  it('takes the refusal from the route decoder of the probed route, or of the CLI\'s first route for a startup-only route', () => {
    const stderr = 'Error: --json-schema is not a valid JSON Schema: strict mode: unknown keyword: "_meta"\n';
    const text = { ...result({ stderr, exitCode: 1 }), route: CLAUDE_TEXT_ROUTE };
    expect(classifyStartup(text, claudeDriver)).toMatchObject({ outcome: 'rejected', stage: 'startup', message: stderr.trim() });
    // Qwen Code words the same refusal in red after other lines; its decoder (src/routes/qwen/decoder.ts) reads it.
    const qwen = { ...result({ stderr: 'Ripgrep not available\n\u001b[31m--json-schema is not valid JSON: Unexpected token\u001b[39m\n', exitCode: 52 }), route: 'qwen-code/json' };
    expect(classifyStartup(qwen)).toMatchObject({ outcome: 'rejected', stage: 'startup', message: '--json-schema is not valid JSON: Unexpected token' });
  });

  it('strips ANSI colours from a rejection line (Qwen Code prints it red, exit 52)', () => {
    const r = result({ stderr: '\u001b[31m--json-schema is not a valid JSON Schema: strict mode: unknown keyword: "x-meta"\u001b[39m\n', exitCode: 52 });
    expect(classifyStartup(r).message).toBe('--json-schema is not a valid JSON Schema: strict mode: unknown keyword: "x-meta"');
  });

  it('finds the provider refusal a CLI passed on after the schema reached the mock, down to the provider message', () => {
    const body = JSON.stringify({ error: { message: "Invalid schema for response_format 'codex_output_schema': In context=(), 'if' is not permitted.", code: 'invalid_json_schema' } });
    const stdout = `${JSON.stringify({ type: 'thread.started' })}\n${JSON.stringify({ type: 'turn.failed', error: { message: body } })}\n`;
    const observed = classifyStartup(result({ stdout, exitCode: 1, requests: 1 }));
    expect(observed.outcome).toBe('rejected');
    expect(observed.stage).toBe('provider');
    expect(observed.message).toBe("Invalid schema for response_format 'codex_output_schema': In context=(), 'if' is not permitted.");
  });

  it('is accepted when the CLI called the model and no refusal came back, whatever the exit code', () => {
    expect(classifyStartup(result({ stdout: '{"type":"result"}', requests: 1 })).outcome).toBe('accepted');
    expect(classifyStartup(result({ stdout: 'model said prose', exitCode: 1, requests: 5 })).outcome).toBe('accepted');
  });

  it('is a rejection with the first output line when the CLI stopped before any request without its usual line', () => {
    expect(classifyStartup(result({ stderr: '\nschema error: bad\nmore\n', exitCode: 2 }))).toMatchObject({ outcome: 'rejected', stage: 'startup', message: 'schema error: bad' });
  });

  it('is a fault when the probe could not run, or timed out before any request', () => {
    expect(classifyStartup(result({ fault: '[routecert] codex is not installed' }))).toMatchObject({ outcome: 'fault', message: '[routecert] codex is not installed' });
    expect(classifyStartup(result({ timedOut: true, exitCode: null }))).toMatchObject({ outcome: 'fault', message: 'timed out before any request reached the mock' });
  });
});

describe('providerRefusal', () => {
  it('reads an Anthropic input_schema refusal from a plain stderr line', () => {
    expect(providerRefusal('', 'API Error: 400 tools.0.custom.input_schema.type: Field required\n')).toBe('API Error: 400 tools.0.custom.input_schema.type: Field required');
  });

  it('is null for ordinary output', () => {
    expect(providerRefusal('{"type":"result","result":"ok"}', 'warning: something else')).toBeNull();
  });
});

describe('lintExpectation', () => {
  it('predicts rejected from an error finding and names the rule and pointer', () => {
    expect(lintExpectation({ type: 'object', properties: { a: { type: 'string', _meta: 1 } } }, 'claude-code')).toEqual({
      expected: 'rejected',
      because: ['claude-code/unknown-keyword at /properties/a/_meta'],
    });
  });

  it('predicts accepted from no finding, and unknown from warnings only', () => {
    const strict = { type: 'object', additionalProperties: false, required: ['a'], properties: { a: { type: 'string' } } };
    expect(lintExpectation(strict, 'codex')).toEqual({ expected: 'accepted', because: [] });
    const warned = lintExpectation({ ...strict, $comment: 'c' }, 'codex');
    expect(warned.expected).toBe('unknown');
    expect(warned.because).toEqual(['codex/unlisted-keyword at /$comment']);
  });
});

describe('routes and formats', () => {
  it("Claude Code's startup routes add the text format after its decoded routes", () => {
    expect(startupRoutes(claudeDriver)).toEqual(['claude-code/json', 'claude-code/stream-json', 'claude-code/text']);
    expect(startupRoutes(claudeDriver).map(routeFormat)).toEqual(['json', 'stream-json', 'text']);
  });

  it('claude-code/text runs -p --output-format text with the schema as one token', () => {
    const built = claudeArgv({ route: CLAUDE_TEXT_ROUTE, schema: { type: 'object' } });
    expect(built.argv.slice(0, 5)).toEqual(['-p', '--output-format', 'text', '--json-schema', '{"type":"object"}']);
    expect(built.argv).not.toContain('--verbose');
  });
});

// A miniature schema-flag CLI (node -e): refuses a schema that mentions "_meta" the way Claude Code
// does, else posts once to the mock and prints the status it got; the mock refuses schemas that
// carry "if" with an OpenAI strict error body.
const MINI_CLI = `
const schema = process.env.MINI_SCHEMA;
if (schema.includes('"_meta"')) { process.stderr.write('Error: --json-schema is not a valid JSON Schema: strict mode: unknown keyword: "_meta"\\n'); process.exit(1); }
fetch(process.env.MINI_URL + '/v1/mini', { method: 'POST', body: schema })
  .then((r) => r.text().then((t) => { process.stdout.write(JSON.stringify({ type: r.ok ? 'done' : 'turn.failed', error: { message: t } }) + '\\n'); process.exit(r.ok ? 0 : 1); }));
`;

function miniDriver(cli: string, routes: readonly string[]): ProbeDriver {
  return {
    cli,
    bin: 'node',
    npmPackage: 'none',
    routes,
    schemaFlag: true,
    handlers: async () => [
      http.post('*/v1/mini', async ({ request }) => {
        const schema = (await request.json()) as Record<string, unknown>;
        if ('if' in schema) return HttpResponse.json({ error: { message: "Invalid schema for response_format 'x': In context=(), 'if' is not permitted.", code: 'invalid_json_schema' } }, { status: 400 });
        return HttpResponse.json({ ok: true });
      }),
    ],
    prepare: async (input) => ({
      argv: ['-e', MINI_CLI],
      display: ['-e', '<mini>'],
      env: { PATH: process.env.PATH ?? '', MINI_SCHEMA: JSON.stringify(input.schema), MINI_URL: input.mockUrl },
    }),
  };
}

function cli(name: string, bin: string | null): DiscoveredCli {
  return { name, bin, version: bin === null ? null : '9.9.9', source: bin === null ? null : 'PATH', installHint: 'npm run probes:install' };
}

const base = { type: 'object', additionalProperties: false, required: ['a'], properties: { a: { type: 'string' } } };
const subjects: StartupSubject[] = [
  { id: 'canary:baseline', kind: 'baseline', label: 'baseline', keyword: '', pointer: '', schema: base, payload: { a: 'x' } },
  { id: 'canary:_meta@root', kind: 'custom-keyword', label: '_meta@root', keyword: '_meta', pointer: '', schema: { ...base, _meta: {} }, payload: { a: 'x' } },
  { id: 'canary:if@root', kind: 'draft-keyword', label: 'if@root', keyword: 'if', pointer: '', schema: { ...base, if: { required: ['a'] } }, payload: { a: 'x' } },
  { id: 'production:s.json', kind: 'production', label: 's.json', keyword: '', pointer: '', schema: base, payload: { a: 'x' }, listedProfiles: ['codex'] },
  { id: 'format:text:_meta@root', kind: 'output-format', label: '_meta@root as text', keyword: '_meta', pointer: '', schema: { ...base, _meta: {} }, payload: { a: 'x' }, format: 'text' },
];

/** Deadline of a test that spawns miniature CLIs (the machine may be busy). */
const SPAWN_MS = 60_000;

describe('runStartupTable (with a miniature CLI)', () => {
  it('fills one cell per installed CLI and row, in subject order, with outcome, stage, message and the lint expectation', async () => {
    const node = process.execPath;
    const table = await runStartupTable({
      targets: [
        { driver: miniDriver('mini', ['mini/json', 'mini/text']), cli: cli('mini', node), profile: 'codex' },
        { driver: miniDriver('absent', ['absent/json']), cli: cli('absent', null), profile: 'claude-code' },
      ],
      subjects,
      concurrency: 2,
    });
    expect(table.columns.map((c) => [c.cli, c.installed, c.version])).toEqual([['mini', true, '9.9.9'], ['absent', false, null]]);
    expect(table.columns[1]!.note).toContain('npm run probes:install');
    expect(table.rows.map((r) => r.id)).toEqual(subjects.map((s) => s.id));
    const byId = Object.fromEntries(table.rows.map((r) => [r.id, r.cells]));
    expect(byId['canary:baseline']).toMatchObject([{ cli: 'mini', route: 'mini/json', outcome: 'accepted', expected: 'accepted', agrees: true, requests: 1 }]);
    expect(byId['canary:_meta@root']).toMatchObject([
      { outcome: 'rejected', stage: 'startup', message: 'Error: --json-schema is not a valid JSON Schema: strict mode: unknown keyword: "_meta"', expected: 'unknown', agrees: null, requests: 0, exitCode: 1 },
    ]);
    expect(byId['canary:if@root']).toMatchObject([
      { outcome: 'rejected', stage: 'provider', message: "Invalid schema for response_format 'x': In context=(), 'if' is not permitted.", expected: 'rejected', agrees: true },
    ]);
    expect(byId['production:s.json']).toMatchObject([{ outcome: 'accepted', listed: true }]);
    expect(byId['format:text:_meta@root']).toMatchObject([{ route: 'mini/text', outcome: 'rejected' }]);
    expect(table.summary).toEqual({ cells: 5, accepted: 2, rejected: 3, faults: 0, disagreements: 0, listedRejected: 0 });
  }, SPAWN_MS);

  it('counts a cell that contradicts the lint profile as a disagreement, and a rejected listed schema', async () => {
    const table = await runStartupTable({
      targets: [{ driver: miniDriver('mini', ['mini/json']), cli: cli('mini', process.execPath), profile: 'codex' }],
      subjects: [{ ...subjects[2]!, id: 'production:t.json', kind: 'production', listedProfiles: ['codex'], schema: { ...base, if: { required: ['a'] } } }],
    });
    // The codex profile flags a root "if" too, so the cell agrees; but profiles.json lists it there.
    expect(table.rows[0]!.cells[0]).toMatchObject({ outcome: 'rejected', agrees: true, listed: true });
    expect(table.summary.listedRejected).toBe(1);
    // claude-code passes "if" with "then"; the miniature provider refuses any "if".
    const wrong = await runStartupTable({
      targets: [{ driver: miniDriver('mini', ['mini/json']), cli: cli('mini', process.execPath), profile: 'claude-code' }],
      subjects: [{ ...subjects[0]!, schema: { ...base, if: { required: ['a'] }, then: {} } }],
    });
    expect(wrong.rows[0]!.cells[0]).toMatchObject({ outcome: 'rejected', expected: 'accepted', agrees: false });
    expect(wrong.summary.disagreements).toBe(1);
  }, SPAWN_MS);

  it('runs an identical probe once and shares its cell between rows', async () => {
    let posts = 0;
    const driver = miniDriver('mini', ['mini/json']);
    const counting: ProbeDriver = {
      ...driver,
      handlers: async (s, p) => [http.post('*/v1/mini', () => { posts += 1; return undefined; }), ...(await driver.handlers(s, p))],
    };
    await runStartupTable({
      targets: [{ driver: counting, cli: cli('mini', process.execPath), profile: null }],
      subjects: [subjects[0]!, { ...subjects[0]!, id: 'format:json:baseline', format: 'json' }],
    });
    expect(posts).toBe(1);
  }, SPAWN_MS);
});
