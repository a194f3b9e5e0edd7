/**
 * The probe runner's process handling, with a stand-in CLI (a Node script) and a driver of its
 * own: nothing the CLI started outlives the probe, and an exit is not a hang.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeReapFixtures } from '#src/process/fixtures.ts';
import { canSweepProc, procStat } from '#src/process/reap.ts';
import type { ProbeDriver } from './driver.ts';
import { runProbe } from './run.ts';

const root = mkdtempSync(path.join(tmpdir(), 'routecert-probe-run-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function running(pid: number): boolean {
  const s = procStat(pid);
  return s !== null && s.state !== 'Z' && s.state !== 'X';
}

/** A driver that runs `script args` with node; no mock handlers; `MOCK` is the mock's origin. */
function scriptDriver(argv: string[]): ProbeDriver {
  return {
    cli: 'stand-in',
    bin: 'node',
    npmPackage: 'stand-in',
    routes: ['stand-in/json'],
    schemaFlag: false,
    handlers: async () => [],
    prepare: async ({ workspace, mockUrl }) => ({ argv, display: argv, env: { PATH: process.env.PATH ?? '', HOME: workspace.home, MOCK: mockUrl } }),
  };
}

const cli = { name: 'stand-in', bin: process.execPath, version: '0.0.0', source: 'PATH' as const, installHint: 'npm run probes:install' as const };

describe.skipIf(!canSweepProc)('runProbe reaping', () => {
  it('a hung CLI whose grandchild called setsid and ignores SIGTERM leaves 0 processes at the deadline', async () => {
    const f = writeReapFixtures(mkdtempSync(path.join(root, 'case-')));
    const r = await runProbe({ cli, driver: scriptDriver([f.escapee, f.escapeePid, 'hang']), route: 'stand-in/json', scenario: 'final', schema: {}, timeoutMs: 8000 });
    expect(r.fault).toBeUndefined();
    expect(r.envelope.timedOut).toBe(true);
    expect(r.envelope.stdout).toBe('ready\n');
    expect(running(Number(readFileSync(f.escapeePid, 'utf8')))).toBe(false);
  }, 60_000);

  it('a CLI that prints its envelope and exits 0 while a child holds stdout gets its real verdict', async () => {
    const f = writeReapFixtures(mkdtempSync(path.join(root, 'case-')));
    const line = JSON.stringify({ type: 'result', subtype: 'success', structured_output: { verdict: 'A' } });
    const r = await runProbe({ cli, driver: scriptDriver([f.holder, f.holderPid, line]), route: 'stand-in/json', scenario: 'final', schema: {}, timeoutMs: 50_000 });
    expect(r.fault).toBeUndefined();
    expect(r.envelope.timedOut).toBe(false);
    expect(r.envelope.exitCode).toBe(0);
    expect(JSON.parse(r.envelope.stdout)).toEqual(JSON.parse(line));
    expect(running(Number(readFileSync(f.holderPid, 'utf8')))).toBe(false);
  }, 60_000);

  it('a stall deadline counted from the first request ends the run that long after the CLI reached the mock', async () => {
    const argv = ['-e', "fetch(process.env.MOCK + '/v1/stall').catch(() => {}).finally(() => { process.stdout.write('asked\\n'); setInterval(() => {}, 1000); })"];
    const r = await runProbe({ cli, driver: scriptDriver(argv), route: 'stand-in/json', scenario: 'stall', schema: {}, timeoutMs: 120_000, deadlineAfterRequestMs: 500 });
    expect(r.fault).toBeUndefined();
    expect(r.envelope.timedOut).toBe(true);
    expect(r.envelope.stdout).toBe('asked\n');
    expect(r.requests.map((q) => q.path)).toEqual(['/v1/stall']);
    // Far below the 120 s hard cap: the deadline came from the request, not from spawn.
    expect(r.envelope.elapsedMs).toBeLessThan(60_000);
  }, 150_000);

  it("the stall deadline counts from the first turn, not from a request of the CLI's own before it (opencode's title request)", async () => {
    // The stand-in asks for a title, waits three times the deadline (as a loaded machine once made
    // opencode do, CI 2026-12-03), then sends its turn: the deadline must not have fired before the turn.
    const post = (body: string) => `fetch(process.env.MOCK + '/v1/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '${body}' }).catch(() => {})`;
    const argv = ['-e', `${post('{"title":true}')}.then(() => new Promise((r) => setTimeout(r, 1500))).then(() => ${post('{"turn":true}')}).finally(() => { process.stdout.write('turn sent\\n'); setInterval(() => {}, 1000); })`];
    const driver: ProbeDriver = { ...scriptDriver(argv), isModelTurn: (body) => (body as { turn?: boolean } | null)?.turn === true };
    const r = await runProbe({ cli, driver, route: 'stand-in/json', scenario: 'stall', schema: {}, timeoutMs: 120_000, deadlineAfterRequestMs: 500 });
    expect(r.fault).toBeUndefined();
    expect(r.envelope.timedOut).toBe(true);
    expect(r.envelope.stdout).toBe('turn sent\n');
    expect([...r.requests, ...r.unexpected].map((q) => q.body)).toEqual(expect.arrayContaining([{ title: true }, { turn: true }]));
  }, 150_000);
});
