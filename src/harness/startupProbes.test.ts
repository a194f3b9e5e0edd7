import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compileValidator } from '#src/contract/validator.ts';
import { runConformance, type LiveSource } from '#src/harness/run.ts';
import { formatSubjects, productionSubjects, samplePayload, schemaFlagDrivers, startupProbeSource } from '#src/harness/startupProbes.ts';
import { claudeDriver } from '#src/routes/claude/route.ts';
import type { ProbeDriver } from '#src/probe/driver.ts';
import type { StartupTable } from '#src/probe/startup.ts';
import { jsonReporter } from '#src/report/json.ts';
import { readReport, InvalidReportError } from '#src/harness/readReport.ts';

/** Deadline of a test that generates and compiles many schemas, or runs the whole harness (the machine may be busy). */
const SLOW_MS = 60_000;

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});
async function tempDir(): Promise<string> {
  const d = await mkdtemp(path.join(tmpdir(), 'routecert-startup-test-'));
  dirs.push(d);
  return d;
}

describe('production rows', () => {
  it('every bundled production schema gets a payload it validates, so an accepted schema completes in one request', async () => {
    const subjects = await productionSubjects();
    expect(subjects.length).toBeGreaterThan(0);
    for (const s of subjects) expect(compileValidator(s.schema)(s.payload), s.label).toEqual([]);
  }, SLOW_MS);

  it('carries the profiles that profiles.json sends each schema to', async () => {
    const pov = (await productionSubjects()).find((s) => s.label === 'pov.schema.json');
    expect(pov?.listedProfiles).toEqual(['claude-code', 'qwen-code']);
    expect(pov?.id).toBe('production:pov.schema.json');
  }, SLOW_MS);

  it('falls back to the given payload when no valid sample can be made', async () => {
    expect(await samplePayload({ type: 'object', required: ['a'], properties: { a: false } }, { fallback: true })).toEqual({ fallback: true });
  });
});

describe('output-format rows', () => {
  it("run the baseline and the _meta root canary under each of Claude Code's formats", () => {
    expect(formatSubjects([claudeDriver]).map((s) => s.id)).toEqual([
      'format:json:baseline',
      'format:json:_meta@root',
      'format:stream-json:baseline',
      'format:stream-json:_meta@root',
      'format:text:baseline',
      'format:text:_meta@root',
    ]);
  });
});

describe('startupProbeSource', () => {
  const noSchemaFlag: ProbeDriver = { ...claudeDriver, cli: 'plain', schemaFlag: false };

  it('uses only drivers that take a schema flag', () => {
    expect(schemaFlagDrivers([claudeDriver, noSchemaFlag]).map((d) => d.cli)).toEqual(['claude']);
  });

  it('probes nothing and adds no section when the run selects cases by id or contract, or by a tag other than startup', async () => {
    for (const filter of [{ ids: ['abc'] }, { contracts: ['pov'] }, { tags: ['key-case'] }, { routes: ['codex'] }]) {
      const source = startupProbeSource({ timeoutMs: 1000, drivers: [claudeDriver] });
      expect(await source.run(async () => undefined, filter)).toEqual([]);
      expect(source.sections?.()).toEqual({});
    }
  });
});

const TABLE: StartupTable = {
  columns: [{ cli: 'claude', version: '2.1.332', installed: true, profile: 'claude-code', routes: ['claude-code/json'], note: 'probed' }],
  rows: [
    {
      id: 'canary:_meta@root',
      kind: 'custom-keyword',
      label: '_meta@root',
      keyword: '_meta',
      pointer: '',
      format: null,
      cells: [
        {
          cli: 'claude', version: '2.1.332', route: 'claude-code/json', profile: 'claude-code', outcome: 'rejected', stage: 'startup',
          message: 'Error: --json-schema is not a valid JSON Schema: strict mode: unknown keyword: "_meta"', exitCode: 1, requests: 0, elapsedMs: 800,
          expected: 'rejected', because: ['claude-code/unknown-keyword at /_meta'], agrees: true,
        },
      ],
    },
  ],
  summary: { cells: 1, accepted: 0, rejected: 1, faults: 0, disagreements: 0, listedRejected: 0 },
  durationMs: 900,
};

describe('report.json startupProbes section', () => {
  it('a live source with a section puts it into the report, which report.schema.json accepts', async () => {
    const cases = await tempDir();
    const out = await tempDir();
    const source: LiveSource = { clis: async () => [], run: async () => [], sections: () => ({ startupProbes: TABLE }) };
    const { report } = await runConformance({ casesDir: cases, live: [source], reporters: [jsonReporter({ dir: out })] });
    expect(report.startupProbes).toEqual(TABLE);
    const read = await readReport(path.join(out, 'report.json'));
    expect(read.startupProbes?.rows[0]?.cells[0]?.message).toBe('Error: --json-schema is not a valid JSON Schema: strict mode: unknown keyword: "_meta"');
    expect(Object.keys(read).at(-1)).toBe('footer');
  }, SLOW_MS);

  it('the live sources of a run run side by side (issue 24), their results reported one at a time and their faults in source order', async () => {
    let secondStarted = false;
    let secondStartedBeforeFirstEnded: boolean | undefined;
    const result = (id: string) => ({ id, file: '', description: id, route: 'claude-code/json', contract: 'pov', cli: { name: 'claude', version: '1' }, source: 'probe' as const, tags: [], outcome: 'pass' as const, expected: null, verdict: null, attempts: [], problems: [], caught: null, replay: '', durationMs: 0 });
    const first: LiveSource = {
      clis: async () => [],
      run: async (emit) => {
        await emit(result('first'));
        await new Promise((r) => setImmediate(r));
        secondStartedBeforeFirstEnded = secondStarted;
        return [{ kind: 'probe', message: 'first' }];
      },
    };
    const second: LiveSource = {
      clis: async () => [],
      run: async (emit) => {
        secondStarted = true;
        await emit(result('second'));
        return [{ kind: 'probe', message: 'second' }];
      },
    };
    const { report } = await runConformance({ casesDir: await tempDir(), live: [first, second] });
    expect(secondStartedBeforeFirstEnded).toBe(true);
    expect(report.cases.map((c) => c.id).sort()).toEqual(['first', 'second']);
    expect(report.faults.map((f) => f.message)).toEqual(['first', 'second']);
  }, SLOW_MS);

  it('a report whose section is malformed does not validate', async () => {
    const out = await tempDir();
    const { report } = await runConformance({ casesDir: await tempDir(), live: [] });
    expect(report.startupProbes).toBeUndefined();
    const bad = { ...report, startupProbes: { ...TABLE, rows: [{ ...TABLE.rows[0]!, cells: [{ ...TABLE.rows[0]!.cells[0]!, outcome: 'maybe' }] }] } };
    const { footer, ...rest } = bad;
    await writeFile(path.join(out, 'report.json'), JSON.stringify({ ...rest, footer }), 'utf8');
    await expect(readReport(path.join(out, 'report.json'))).rejects.toBeInstanceOf(InvalidReportError);
  }, SLOW_MS);
});
