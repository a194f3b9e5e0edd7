import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_PAYLOADS } from '#src/mock/scenarios.ts';
import { startLoopbackServer } from '#src/mock/server.ts';
import { CLAUDE_SIDE_REQUESTS } from '#src/routes/claude/probe.ts';
import { claudeDriver } from '#src/routes/claude/route.ts';
import { codexDriver } from '#src/routes/codex/route.ts';
import { copilotDriver } from '#src/routes/copilot/route.ts';
import { geminiDriver } from '#src/routes/gemini/route.ts';
import { grokCliDriver } from '#src/routes/grok-cli/route.ts';
import { opencodeDriver } from '#src/routes/opencode/route.ts';
import { piDriver } from '#src/routes/pi/route.ts';
import { qwenDriver } from '#src/routes/qwen/route.ts';
import { binEnvVar, BinOptionError, candidateFor, discoverCli, parseBinOptions } from './discover.ts';
import { compareVersions, flagsFor, supportOf } from './versions.ts';

const root = mkdtempSync(path.join(tmpdir(), 'routecert-versions-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A stand-in CLI that prints `<version> (Stand-in)` for --version. */
function fakeCli(dir: string, name: string, version: string): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  writeFileSync(file, `#!/bin/sh\necho "${version} (Stand-in)"\n`);
  chmodSync(file, 0o755);
  return file;
}

describe('compareVersions', () => {
  it('compares part by part as numbers, a pre-release before its release', () => {
    expect(compareVersions('1.0.81', '1.0.102')).toBeLessThan(0);
    expect(compareVersions('2.1.332', '2.1.250')).toBeGreaterThan(0);
    expect(compareVersions('1.0.81-0', '1.0.81')).toBeLessThan(0);
    expect(compareVersions('0.61.0', '0.61.0')).toBe(0);
  });
});

describe('version tables', () => {
  it('copilot: --disable-client-telemetry only from 1.0.102 (1.0.81 and 1.0.92 reject it)', async () => {
    const argvOf = async (version: string | null) =>
      (await copilotDriver.prepare({ route: 'copilot/json', schema: {}, prompt: 'p', mockUrl: 'http://127.0.0.1:1', workspace: { root, home: root, cwd: root, tmpDir: root }, version })).argv;
    expect(await argvOf('1.0.81')).not.toContain('--disable-client-telemetry');
    expect(await argvOf('1.0.92')).not.toContain('--disable-client-telemetry');
    expect(await argvOf('1.0.102')).toContain('--disable-client-telemetry');
    expect(await argvOf(null), 'an unknown version gets the newest flags').toContain('--disable-client-telemetry');
  });

  it('flagsFor honours since (inclusive) and until (exclusive)', () => {
    const table = { min: '1.0.0', source: 't', flags: [{ argv: ['--a'], since: '1.2.0', source: 't' }, { argv: ['--b', 'x'], until: '1.3.0', source: 't' }] };
    expect(flagsFor(table, '1.1.9')).toEqual(['--b', 'x']);
    expect(flagsFor(table, '1.2.0')).toEqual(['--a', '--b', 'x']);
    expect(flagsFor(table, '1.3.0')).toEqual(['--a']);
    expect(flagsFor(table, null)).toEqual(['--a']);
  });

  it('a version below the supported range gets a message naming the range; inside it none', () => {
    const below = supportOf(claudeDriver, '2.1.100');
    expect(below.supported).toBe(false);
    expect(below.message).toMatch(/claude 2\.1\.100 is outside the supported range 2\.1\.250 to newest/);
    expect(supportOf(claudeDriver, '2.1.332')).toEqual({ supported: true, message: null });
    expect(supportOf(copilotDriver, '1.0.81').supported).toBe(true);
  });

  it('the oldest releases probes:matrix ran green are inside their ranges; the failing ones below are refused with the reason', () => {
    for (const [driver, version] of [[codexDriver, '0.153.0'], [geminiDriver, '0.55.1'], [qwenDriver, '0.23.4'], [opencodeDriver, '1.18.17'], [grokCliDriver, '1.0.1'], [piDriver, '0.70.5']] as const) {
      expect(supportOf(driver, version), `${driver.cli} ${version}`).toEqual({ supported: true, message: null });
    }
    const opencode = supportOf(opencodeDriver, '1.18.16');
    expect(opencode.supported).toBe(false);
    expect(opencode.message).toMatch(/opencode 1\.18\.16 is outside the supported range 1\.18\.17 to newest \(.*retry an overload forever\)/);
    const qwen = supportOf(qwenDriver, '0.23.0');
    expect(qwen.supported).toBe(false);
    expect(qwen.message).toMatch(/qwen 0\.23\.0 is outside the supported range 0\.23\.4 to newest \(.*misreport provider errors/);
    expect(supportOf(codexDriver, '0.152.0').supported).toBe(false);
  });
});

describe('candidate binaries', () => {
  it('parses --bin <cli>=<path> and refuses malformed or repeated values', () => {
    expect(parseBinOptions(['claude=/x/claude', 'grok-cli=/y/grok'])).toEqual({ claude: '/x/claude', 'grok-cli': '/y/grok' });
    expect(() => parseBinOptions(['claude'])).toThrow(BinOptionError);
    expect(() => parseBinOptions(['claude=/a', 'claude=/b'])).toThrow(/names claude twice/);
  });

  it('--bin wins over ROUTECERT_BIN_<CLI>, which wins over the pinned install', async () => {
    expect(binEnvVar('grok-cli')).toBe('ROUTECERT_BIN_GROK_CLI');
    expect(candidateFor('claude', { claude: '/flag' }, { ROUTECERT_BIN_CLAUDE: '/env' })).toEqual({ path: '/flag', from: '--bin claude=' });
    expect(candidateFor('claude', {}, { ROUTECERT_BIN_CLAUDE: '/env' })).toEqual({ path: '/env', from: 'ROUTECERT_BIN_CLAUDE=' });
    const file = fakeCli(path.join(root, 'direct'), 'claude', '2.1.250');
    const found = await discoverCli('claude', { candidate: { path: file, from: '--bin claude=' } });
    expect(found).toMatchObject({ bin: file, version: '2.1.250', source: 'candidate' });
  });

  it('takes an npm prefix folder (node_modules/.bin/<bin>) and names a bad candidate clearly', async () => {
    const prefix = path.join(root, 'prefix');
    const file = fakeCli(path.join(prefix, 'node_modules', '.bin'), 'copilot', '1.0.81');
    expect(await discoverCli('copilot', { candidate: { path: prefix, from: '--bin copilot=' } })).toMatchObject({ bin: file, version: '1.0.81', source: 'candidate' });
    const bad = await discoverCli('copilot', { candidate: { path: path.join(root, 'nothing-here'), from: 'ROUTECERT_BIN_COPILOT' } });
    expect(bad.bin).toBeNull();
    expect(bad.problem).toMatch(/candidate binary of copilot \(ROUTECERT_BIN_COPILOT.*nothing-here\) is not an executable file/);
  });
});

describe('side requests', () => {
  it('the mock answers Claude Code 2.1.250\'s HEAD /api/hello with 200 (kept apart from model requests) and still 501s anything unknown', async () => {
    const server = await startLoopbackServer(await claudeDriver.handlers('final', DEFAULT_PAYLOADS), { side: CLAUDE_SIDE_REQUESTS });
    try {
      expect((await fetch(`${server.url}/api/hello`, { method: 'HEAD' })).status).toBe(200);
      expect((await fetch(`${server.url}/api/hello`)).status).toBe(200);
      expect((await fetch(`${server.url}/api/hello/more`, { method: 'HEAD' })).status).toBe(501);
      expect((await fetch(`${server.url}/api/goodbye`, { method: 'POST' })).status).toBe(501);
      expect(server.side.map((r) => `${r.method} ${r.path}`)).toEqual(['HEAD /api/hello', 'GET /api/hello']);
      expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['HEAD /api/hello/more', 'POST /api/goodbye']);
      expect(server.unexpected).toHaveLength(2);
    } finally {
      await server.close();
    }
  });
});
