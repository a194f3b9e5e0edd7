/**
 * `routecert run` probes: a candidate binary (`bins`, as `--bin` gives) is what runs, and drift is
 * measured against the corpus `--cases` names (`casesDir`), not the bundled one.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Envelope } from '#src/envelope/types.ts';
import { DEFAULT_PAYLOADS } from '#src/mock/scenarios.ts';
import { claudeDriver } from '#src/routes/claude/route.ts';
import { caseId } from '#src/record/caseId.ts';
import type { CaseResult } from '#src/report/types.ts';
import type { ProbeResult } from '#src/probe/run.ts';
import { probeLiveSource } from './probeSource.ts';
import { parseCliRuns, ProbeRunPool } from '#src/probe/pool.ts';
import { buildStartupTable, productionSubjects, startupTargets } from './startupProbes.ts';

const root = mkdtempSync(path.join(tmpdir(), 'routecert-probe-source-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const FINAL = DEFAULT_PAYLOADS.final;
const RESULT = { type: 'result', subtype: 'success', is_error: false, result: JSON.stringify(FINAL), structured_output: FINAL, session_id: 'u', usage: {} };

/** A stand-in `claude` 9.9.9 that prints a result line with one key more than the recorded one. */
function standIn(): string {
  const file = path.join(root, 'claude-9.9.9');
  writeFileSync(file, `#!/bin/sh\nif [ "$1" = "--version" ]; then echo "9.9.9 (Claude Code)"; exit 0; fi\ncat >/dev/null\necho '${JSON.stringify({ ...RESULT, ttft_ms: 12 })}'\n`);
  chmodSync(file, 0o755);
  return file;
}

/** A corpus with the recorded claude-code/json final case, recorded by `version`, with `result` as its result line. */
function corpus(name: string, version: string, result: object): string {
  const dir = path.join(root, name);
  const attempts: Envelope[] = [{ stdout: `${JSON.stringify(result)}\n`, stderr: '', exitCode: 0, elapsedMs: 10 }];
  const expect_ = { verdict: 'accepted' as const };
  mkdirSync(path.join(dir, 'claude-code', 'json'), { recursive: true });
  writeFileSync(
    path.join(dir, 'claude-code', 'json', 'final.json'),
    JSON.stringify({ id: caseId({ attempts, contract: 'pov', expect: expect_ }), description: 'recorded', route: 'claude-code/json', cli: { name: 'claude', version }, provenance: { source: 'recorded', date: '2026-12-01' }, contract: 'pov', attempts, expect: expect_, tags: [] }),
  );
  return dir;
}

async function runOnce(casesDir: string): Promise<{ results: CaseResult[]; versions: unknown }> {
  const source = probeLiveSource({ timeoutMs: 30_000, drivers: [claudeDriver], bins: { claude: standIn() }, casesDir });
  const clis = await source.clis();
  expect(clis[0]).toMatchObject({ name: 'claude', version: '9.9.9', installed: true });
  const results: CaseResult[] = [];
  await source.run(async (r) => void results.push(r), { ids: ['probe-claude-code-json-final'] });
  return { results, versions: source.sections?.().versions };
}

describe('probeLiveSource', () => {
  it('probes the --bin candidate and compares with the corpus --cases names', async () => {
    const x = corpus('x', '2.1.332', RESULT);
    const { results, versions } = await runOnce(x);
    expect(results).toHaveLength(1);
    expect(results[0]!.problems).toEqual([]);
    expect(results[0]!.outcome).toBe('pass');
    expect(results[0]!.drift).toEqual(['drift claude-code/json final: (document) paths added [/ttft_ms: number], removed [] (recorded 2.1.332, probed 9.9.9)']);
    expect(versions).toEqual([{ cli: 'claude', version: '9.9.9', corpus: path.relative(process.cwd(), x), recorded: ['2.1.332'], result: 'drifted (still conforms)', probes: 1, driftLines: 1 }]);
  }, 60_000);

  it('another corpus, recorded with the same shape, gives no drift: the result is `same`', async () => {
    const y = corpus('y', '2.1.300', { ...RESULT, ttft_ms: 99 });
    const { results, versions } = await runOnce(y);
    expect(results[0]!.drift).toBeUndefined();
    expect(versions).toMatchObject([{ recorded: ['2.1.300'], result: 'same' }]);
  }, 60_000);
});

/** A stand-in `claude` that appends one line per run (the prompt's length) to `log` and prints the final result. */
function countingStandIn(log: string): string {
  const file = path.join(root, 'claude-counting');
  writeFileSync(file, `#!/bin/sh\nif [ "$1" = "--version" ]; then echo "2.1.332 (Claude Code)"; exit 0; fi\nwc -c >> '${log}'\necho '${JSON.stringify(RESULT)}'\n`);
  chmodSync(file, 0o755);
  return file;
}

describe('duplicate start-ups are skipped (issue 12)', () => {
  it('the first attempt of nonfinal-then-final and nonfinal-twice is the nonfinal-only run: 3 CLI runs for 5 attempts', async () => {
    const log = path.join(root, 'runs.log');
    writeFileSync(log, '');
    const source = probeLiveSource({ timeoutMs: 30_000, drivers: [claudeDriver], bins: { claude: countingStandIn(log) }, casesDir: path.join(root, 'none') });
    const results: CaseResult[] = [];
    await source.run(async (r) => void results.push(r), { ids: ['probe-claude-code-json-nonfinal'] });
    expect(results.map((r) => r.id).sort()).toEqual(['probe-claude-code-json-nonfinal-only', 'probe-claude-code-json-nonfinal-then-final', 'probe-claude-code-json-nonfinal-twice']);
    const runs = (await import('node:fs')).readFileSync(log, 'utf8').trim().split('\n');
    // One run with the base prompt (shared by three cases), two with the retry prompt (one per retry scenario).
    expect(runs).toHaveLength(3);
    expect(new Set(runs).size).toBe(2);
  }, 90_000);
});

describe('identical start-ups run once across the phases of a run (issue 24)', () => {
  it('the startup probe of the production pov schema on the first route is the scenario probe `final`: one CLI run in the shared pool', async () => {
    const log = path.join(root, 'shared-runs.log');
    writeFileSync(log, '');
    const bin = countingStandIn(log);
    const pool = new ProbeRunPool(2);
    const source = probeLiveSource({ timeoutMs: 30_000, drivers: [claudeDriver], bins: { claude: bin }, casesDir: path.join(root, 'none'), pool });
    const pov = (await productionSubjects()).filter((s) => s.id === 'production:pov.schema.json');
    const results: CaseResult[] = [];
    const [, table] = await Promise.all([
      source.run(async (r) => void results.push(r), { ids: ['probe-claude-code-json-final'] }),
      buildStartupTable({ targets: await startupTargets([claudeDriver], { claude: bin }), rows: ['production'], production: pov, timeoutMs: 30_000, pool }),
    ]);
    expect(results.map((r) => r.id)).toEqual(['probe-claude-code-json-final']);
    expect(table.rows[0]!.cells.map((c) => c.route)).toEqual(['claude-code/json']);
    expect((await import('node:fs')).readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(1);
    expect(pool.reused).toBe(1);
    expect(pool.summary()).toBe('CLI runs: 1 started (claude 1), 1 asked-for runs shared one already started');
  }, 90_000);

  it('a pool of its own per phase (no shared pool) starts the same run twice', async () => {
    const log = path.join(root, 'unshared-runs.log');
    writeFileSync(log, '');
    const bin = countingStandIn(log);
    const source = probeLiveSource({ timeoutMs: 30_000, drivers: [claudeDriver], bins: { claude: bin }, casesDir: path.join(root, 'none') });
    const pov = (await productionSubjects()).filter((s) => s.id === 'production:pov.schema.json');
    await source.run(async () => undefined, { ids: ['probe-claude-code-json-final'] });
    await buildStartupTable({ targets: await startupTargets([claudeDriver], { claude: bin }), rows: ['production'], production: pov, timeoutMs: 30_000 });
    expect((await import('node:fs')).readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(2);
  }, 90_000);
});

describe('ProbeRunPool', () => {
  const result = (route: string): ProbeResult => ({ route, scenario: 'final', cli: { name: 'x', version: null }, argv: [], envelope: { stdout: '', stderr: '', exitCode: 0, elapsedMs: 1 }, requests: [], unexpected: [], pid: 1, firstRequestMs: null });

  it('starts a keyed run once and gives every asker its result; a null key always runs', async () => {
    const pool = new ProbeRunPool(2);
    let calls = 0;
    const work = async (): Promise<ProbeResult> => {
      calls += 1;
      return result(`r${calls}`);
    };
    const [a, b, c, d] = await Promise.all([pool.run('k', 'x', work), pool.run('k', 'x', work), pool.run(null, 'x', work), pool.run(null, 'x', work)]);
    expect(calls).toBe(3);
    expect(a!.route).toBe(b!.route);
    expect(new Set([a!.route, c!.route, d!.route]).size).toBe(3);
    expect(pool.reused).toBe(1);
    expect(pool.byCli.get('x')?.runs).toBe(3);
    expect(parseCliRuns(pool.summary())).toEqual({ byCli: new Map([['x', 3]]), shared: 1 });
    expect(parseCliRuns('no such line')).toBeNull();
  });

  it('never has more than `limit` runs going at once', async () => {
    const pool = new ProbeRunPool(2);
    let running = 0;
    let most = 0;
    const releases: (() => void)[] = [];
    const work = (): Promise<ProbeResult> =>
      new Promise((resolve) => {
        running += 1;
        most = Math.max(most, running);
        releases.push(() => {
          running -= 1;
          resolve(result('r'));
        });
      });
    const all = Promise.all(Array.from({ length: 5 }, () => pool.run(null, 'x', work)));
    // Release the runs one at a time, as they start; the pool starts the next when a slot frees.
    for (let released = 0; released < 5; released += 1) {
      while (releases.length === 0) await new Promise((r) => setImmediate(r));
      releases.shift()!();
    }
    await all;
    expect(most).toBe(2);
  });
});
