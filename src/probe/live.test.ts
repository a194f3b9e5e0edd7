/**
 * The `--live` code path with a stand-in CLI that prints the environment it got: a probe without
 * `live: true` never hands over a credential or leaves the mock; with it, the credential from the
 * environment goes to the CLI (and is redacted from what it printed), the endpoint override and the
 * cheapest model are used, and no mock is started.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { claudeDriver } from '#src/routes/claude/route.ts';
import { codexDriver } from '#src/routes/codex/route.ts';
import { LiveProbeError, liveSecrets, liveSetup } from './live.ts';
import { runProbe } from './run.ts';

const root = mkdtempSync(path.join(tmpdir(), 'routecert-live-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const CANARY = 'sk-ant-canary-live-5f0c1a2b3c4d5e6f';

/** A stand-in `claude` that prints its environment as one JSON object. */
function envPrinter(): string {
  const file = path.join(root, 'claude');
  writeFileSync(file, `#!/usr/bin/env node\nprocess.stdout.write(JSON.stringify(process.env) + '\\n');\n`);
  chmodSync(file, 0o755);
  return file;
}

const cli = () => ({ name: 'claude', bin: envPrinter(), version: '2.1.332', source: 'candidate' as const, installHint: 'npm run probes:install' as const });

describe('liveSetup', () => {
  it('names the variable to set when no credential is in the environment, and the CLIs that support --live', () => {
    expect(() => liveSetup(claudeDriver, {})).toThrow(/set ANTHROPIC_API_KEY in the environment/);
    expect(() => liveSetup(codexDriver, { OPENAI_API_KEY: 'x' })).toThrow(LiveProbeError);
    expect(() => liveSetup(codexDriver, {})).toThrow(/live probes exist for: claude, copilot/);
  });

  it('uses the endpoint override when set, else the real provider', () => {
    expect(liveSetup(claudeDriver, { ANTHROPIC_API_KEY: CANARY }).endpoint).toBe('https://api.anthropic.com');
    expect(liveSetup(claudeDriver, { ANTHROPIC_API_KEY: CANARY, ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/' }).endpoint).toBe('http://127.0.0.1:9');
    expect(liveSecrets({ ANTHROPIC_API_KEY: CANARY, OPENAI_API_KEY: 'sk-other-canary' })).toEqual([CANARY, 'sk-other-canary']);
  });
});

describe('runProbe --live', () => {
  it('without live: true, the credential in the environment never reaches the CLI and the mock is used', async () => {
    const saved = process.env.ANTHROPIC_API_KEY;
    process.env.ANTHROPIC_API_KEY = CANARY;
    try {
      const r = await runProbe({ cli: cli(), driver: claudeDriver, route: 'claude-code/json', scenario: 'final', schema: {}, timeoutMs: 30_000 });
      expect(r.fault).toBeUndefined();
      expect(r.envelope.stdout).not.toContain(CANARY);
      const env = JSON.parse(r.envelope.stdout) as Record<string, string>;
      expect(env.ANTHROPIC_API_KEY).toBe('sk-ant-routecert-test-0000');
      expect(env.ANTHROPIC_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(r.live).toBeUndefined();
    } finally {
      if (saved === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = saved;
    }
  }, 60_000);

  it('with live: true, the CLI gets the credential, the endpoint and the cheapest model, and what it printed is redacted', async () => {
    const env = { ANTHROPIC_API_KEY: CANARY, ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' };
    const r = await runProbe({ cli: cli(), driver: claudeDriver, route: 'claude-code/json', scenario: 'final', schema: {}, timeoutMs: 30_000, live: true, env });
    expect(r.fault).toBeUndefined();
    expect(r.requests).toEqual([]);
    expect(r.live).toEqual({ endpoint: 'http://127.0.0.1:9', model: 'claude-haiku-4-5' });
    expect(r.envelope.stdout).not.toContain(CANARY);
    const got = JSON.parse(r.envelope.stdout) as Record<string, string>;
    expect(got.ANTHROPIC_API_KEY).toBe('<redacted:secret>');
    expect(got.ANTHROPIC_BASE_URL).toBe('http://127.0.0.1:9');
    expect(got.ANTHROPIC_MODEL).toBe('claude-haiku-4-5');
    expect(got.HOME).toContain('routecert-probe-');
  }, 60_000);

  it('with live: true and no credential, the run is refused with a fault naming the variable', async () => {
    const r = await runProbe({ cli: cli(), driver: claudeDriver, route: 'claude-code/json', scenario: 'final', schema: {}, live: true, env: {} });
    expect(r.fault).toMatch(/set ANTHROPIC_API_KEY/);
    expect(r.pid).toBeNull();
  });
});
