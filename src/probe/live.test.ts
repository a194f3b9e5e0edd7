/**
 * The `--live` code path with a stand-in CLI that prints the environment it got: a probe without
 * `live: true` never hands over a credential or leaves the mock; with it, the credential from the
 * environment goes to the CLI (and is redacted from what it printed), the endpoint override and the
 * cheapest model are used, and no mock is started.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { claudeDriver } from '#src/routes/claude/route.ts';
import { codexDriver } from '#src/routes/codex/route.ts';
import { qwenDriver } from '#src/routes/qwen/route.ts';
import type { ProbeDriver } from './driver.ts';
import { PROBE_DRIVERS, driverFor } from './drivers.ts';
import { LiveProbeError, liveSecrets, liveSetup } from './live.ts';
import { runProbe, runStartupProbe } from './run.ts';
import { classifyStartup } from './startup.ts';

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
    expect(() => liveSetup(codexDriver, {})).toThrow(/set CODEX_API_KEY or OPENAI_API_KEY in the environment/);
    const noLive = { ...codexDriver, live: undefined };
    expect(() => liveSetup(noLive, { OPENAI_API_KEY: 'x' })).toThrow(LiveProbeError);
    expect(() => liveSetup(noLive, {})).toThrow(/live probes exist for: claude, codex, qwen, gemini, opencode, copilot, pi, grok-cli\./);
  });

  it('every CLI with a probe driver has a live spec with its sources', () => {
    for (const d of PROBE_DRIVERS) {
      expect(d.live, d.cli).toBeDefined();
      expect(d.live!.source.length, d.cli).toBeGreaterThan(40);
      expect(d.live!.credential.from, d.cli).toContain(d.live!.credential.as);
      expect(d.live!.endpoint.default, d.cli).toMatch(/^https:\/\/[^/]+$/);
    }
  });

  it('strips the endpoint path a CLI variable carries, and refuses a value without it', () => {
    expect(liveSetup(qwenDriver, { OPENAI_API_KEY: CANARY }).endpoint).toBe('https://api.openai.com');
    expect(liveSetup(qwenDriver, { OPENAI_API_KEY: CANARY, OPENAI_BASE_URL: 'https://gw.example/compatible-mode/v1/' }).endpoint).toBe('https://gw.example/compatible-mode');
    expect(() => liveSetup(qwenDriver, { OPENAI_API_KEY: CANARY, OPENAI_BASE_URL: 'https://gw.example/openai' })).toThrow(/OPENAI_BASE_URL=https:\/\/gw.example\/openai does not end with \/v1/);
    expect(liveSetup(codexDriver, { OPENAI_API_KEY: CANARY, ROUTECERT_LIVE_CODEX_ORIGIN: 'http://127.0.0.1:9' })).toMatchObject({ credentialVar: 'OPENAI_API_KEY', as: 'CODEX_API_KEY', endpoint: 'http://127.0.0.1:9', model: 'gpt-6-luna' });
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

/**
 * A stand-in `claude` that posts one model call to `$ANTHROPIC_BASE_URL/v1/messages` with its key,
 * copies the answer to stdout (a refusal to stderr, exit 1) and then never exits by itself: only
 * the runner's reap ends it once the answer has started.
 */
function modelCaller(): string {
  const file = path.join(root, 'claude-caller');
  writeFileSync(
    file,
    `#!/usr/bin/env node
const res = await fetch(process.env.ANTHROPIC_BASE_URL + '/v1/messages', { method: 'POST', headers: { 'x-api-key': process.env.ANTHROPIC_API_KEY, 'content-type': 'application/json' }, body: JSON.stringify({ model: process.env.ANTHROPIC_MODEL, stream: true }) });
if (res.status >= 400) { process.stderr.write(await res.text() + '\\n'); process.exit(1); }
for await (const chunk of res.body) process.stdout.write(chunk);
setInterval(() => {}, 1000);
`,
  );
  chmodSync(file, 0o755);
  return file;
}

/** A stand-in provider on 127.0.0.1: answers `status`; a 200 streams one SSE event (echoing the key) and then holds the stream open. */
async function provider(status: number): Promise<{ url: string; keys: string[]; close: () => Promise<void> }> {
  const keys: string[] = [];
  const server = createServer((req, res) => {
    keys.push(String(req.headers['x-api-key']));
    req.resume();
    if (status !== 200) {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'output_format.schema: invalid_json_schema at /properties' } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(`event: message_start\ndata: {"type":"message_start","echo":"${String(req.headers['x-api-key'])}"}\n\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    keys,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

describe('runProbe --live with stopAtFirstResponse (the --live --startup path)', () => {
  const caller = () => ({ ...cli(), bin: modelCaller() });

  it('goes through the loopback tap, sends the credential on, and reaps the run at the first streamed bytes', async () => {
    const upstream = await provider(200);
    try {
      // The hard deadline is far away: only the first-response stop can end this run in time.
      const r = await runProbe({ cli: caller(), driver: claudeDriver, route: 'claude-code/json', scenario: 'final', schema: {}, timeoutMs: 600_000, live: true, stopAtFirstResponse: true, env: { ANTHROPIC_API_KEY: CANARY, ANTHROPIC_BASE_URL: upstream.url } });
      expect(r.fault).toBeUndefined();
      expect(upstream.keys).toEqual([CANARY]);
      expect(r.live).toEqual({ endpoint: upstream.url, model: 'claude-haiku-4-5', firstResponse: true });
      expect(r.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['POST /v1/messages']);
      expect(r.requests[0]!.headers['x-api-key']).toBe('<redacted>');
      expect((r.requests[0]!.body as { model: string }).model).toBe('claude-haiku-4-5');
      expect(r.envelope.timedOut).toBe(true);
      expect(r.envelope.stdout).not.toContain(CANARY);
      expect(classifyStartup(r, claudeDriver).outcome).toBe('accepted');
    } finally {
      await upstream.close();
    }
  }, 120_000);

  it('passes a provider refusal on whole: no first response, the CLI reports it, the probe reads rejected at the provider', async () => {
    const upstream = await provider(400);
    try {
      const r = await runStartupProbe(caller(), 'claude-code/json', {}, { driver: claudeDriver, timeoutMs: 600_000, live: true, env: { ANTHROPIC_API_KEY: CANARY, ANTHROPIC_BASE_URL: upstream.url } });
      expect(upstream.keys).toEqual([CANARY]);
      expect(r.live?.firstResponse).toBe(false);
      expect(r.schemaAccepted).toBe(false);
      expect(r.envelope.exitCode).toBe(1);
      expect(classifyStartup(r, claudeDriver)).toMatchObject({ outcome: 'rejected', stage: 'provider' });
    } finally {
      await upstream.close();
    }
  }, 120_000);

  it('a provider that cannot be reached is a fault, never an accepted schema', async () => {
    const upstream = await provider(200);
    await upstream.close();
    const r = await runStartupProbe(caller(), 'claude-code/json', {}, { driver: claudeDriver, timeoutMs: 600_000, live: true, env: { ANTHROPIC_API_KEY: CANARY, ANTHROPIC_BASE_URL: upstream.url } });
    expect(r.schemaAccepted).toBe(false);
    expect(classifyStartup(r, claudeDriver).outcome).toBe('fault');
  }, 120_000);
});

describe('prepare() of a --live run', () => {
  /** Prepare `driver`'s first route live against `origin`; the files it wrote and its env, as one text. */
  async function prepared(driver: ProbeDriver, origin: string): Promise<{ text: string; files: string; env: Record<string, string> }> {
    const ws = mkdtempSync(path.join(root, 'ws-'));
    const workspace = { root: ws, home: path.join(ws, 'home'), cwd: path.join(ws, 'work'), tmpDir: path.join(ws, 'tmp') };
    for (const dir of [workspace.home, workspace.cwd, workspace.tmpDir]) mkdirSync(dir, { recursive: true });
    const spec = driver.live!;
    const run = await driver.prepare({ route: driver.routes[0]!, schema: {}, prompt: 'p', mockUrl: origin, workspace, model: spec.model, live: { credentialVar: spec.credential.as, host: new URL(origin).hostname } });
    const files = readdirSync(ws, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => readFileSync(path.join(e.parentPath, e.name), 'utf8'));
    return { text: [...files, JSON.stringify(run.env), run.argv.join(' ')].join('\n'), files: [...files, run.env.OPENCODE_CONFIG_CONTENT ?? ''].join('\n'), env: run.env };
  }

  it('a driver that writes the endpoint into a config file writes the real origin there and refers to the credential variable', async () => {
    const codex = await prepared(codexDriver, 'https://api.openai.com');
    expect(codex.text).toContain('base_url = "https://api.openai.com/v1"');
    expect(codex.text).toContain('env_key = "CODEX_API_KEY"');
    expect(codex.text).toContain('model_reasoning_effort = "low"');
    // Only the provider's host gets past the dead proxy.
    expect(codex.env.HTTPS_PROXY).toBe('http://127.0.0.1:9');
    expect(codex.env.NO_PROXY).toBe('127.0.0.1,localhost,api.openai.com');
    const opencode = await prepared(driverFor('opencode')!, 'https://api.openai.com');
    expect(JSON.parse(opencode.env.OPENCODE_CONFIG_CONTENT!)).toMatchObject({ model: 'routecert/gpt-4.1-nano', provider: { routecert: { options: { baseURL: 'https://api.openai.com/v1', apiKey: '{env:OPENAI_API_KEY}' } } } });
    const pi = await prepared(driverFor('pi')!, 'https://api.openai.com');
    expect(pi.text).toContain('"baseUrl": "https://api.openai.com/v1"');
    expect(pi.text).toContain('"apiKey": "OPENAI_API_KEY"');
  });

  it('no driver points a live run at loopback or leaves a mock key in a file the CLI reads', async () => {
    for (const driver of PROBE_DRIVERS) {
      const { text, files } = await prepared(driver, 'https://provider.example');
      expect(text, driver.cli).not.toMatch(/127\.0\.0\.1:(?!9\b)/);
      expect(text, driver.cli).toContain('https://provider.example');
      // The credential variable itself is set by the runner after prepare (whatever prepare put there is overwritten).
      expect(files, driver.cli).not.toMatch(/sk-routecert-[a-z-]*test-0000|RoutecertTest/);
    }
  });
});
