/**
 * `--live` end to end with the real Claude Code, the mock standing in for api.anthropic.com
 * (ANTHROPIC_BASE_URL, which is how a team points the CLI at a gateway too). No real network.
 * The mock's answer carries canary secrets (the API key itself, an org id, an e-mail, a home path):
 * none reaches a recorded case or the probe's JSON report.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { probeCommand } from '../src/cli/commands/probe.ts';
import { recordCommand } from '../src/cli/commands/record.ts';
import { anthropicHandlers, DEFAULT_PAYLOADS, startLoopbackServer, type LoopbackServer } from '../src/mock/index.ts';
import { discoverProbeCli, skipUnlessInstalled } from './_helpers.ts';

const { cli, skipReason } = await discoverProbeCli('claude', { file: 'live.test.ts', pinned: 'Claude Code' });

const KEY = 'sk-ant-api03-canaryLIVEkey0123456789abcdef';
const CANARIES = [KEY, 'org-Canary0rgId0123456789abc', 'canary.person@example.com', '/home/canaryuser'];

skipUnlessInstalled(cli, 'live probes against the mock standing in for the provider', skipReason);

describe.skipIf(!cli.bin)('--live against the mock standing in for the provider', () => {
  let server: LoopbackServer;
  const saved = { key: process.env.ANTHROPIC_API_KEY, url: process.env.ANTHROPIC_BASE_URL };
  const root = mkdtempSync(path.join(tmpdir(), 'routecert-live-probe-'));
  beforeAll(async () => {
    const final = { ...DEFAULT_PAYLOADS.final, reasoning: `key ${KEY}, org ${CANARIES[1]}, mail ${CANARIES[2]}, file ${CANARIES[3]}/notes.txt` };
    server = await startLoopbackServer(anthropicHandlers({ scenario: 'final', payloads: { ...DEFAULT_PAYLOADS, final } }));
    process.env.ANTHROPIC_API_KEY = KEY;
    process.env.ANTHROPIC_BASE_URL = server.url;
  });
  afterAll(async () => {
    await server.close();
    for (const [name, value] of [['ANTHROPIC_API_KEY', saved.key], ['ANTHROPIC_BASE_URL', saved.url]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    rmSync(root, { recursive: true, force: true });
  });

  async function capture(run: () => Promise<number>): Promise<{ code: number; out: string }> {
    const chunks: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((c: string | Uint8Array) => (chunks.push(String(c)), true));
    const err = vi.spyOn(process.stderr, 'write').mockImplementation((c: string | Uint8Array) => (chunks.push(String(c)), true));
    try {
      return { code: await run(), out: chunks.join('') };
    } finally {
      spy.mockRestore();
      err.mockRestore();
    }
  }

  it('probe --live reaches the provider endpoint with the cheapest model; the JSON report has no canary', async () => {
    const before = server.requests.length;
    const { code, out } = await capture(() => probeCommand({ cli: 'claude', scenario: 'final', probeTimeout: 60_000, json: true, live: true }));
    expect(code).toBe(0);
    const sent = server.requests.slice(before).filter((r) => r.path.startsWith('/v1/messages'));
    expect(sent.length).toBeGreaterThan(0);
    expect((sent[0]!.body as { model?: string }).model).toBe('claude-haiku-4-5');
    expect(sent[0]!.headers['x-api-key']).toBe('<redacted>');
    const report = out.slice(out.indexOf('{'));
    expect(JSON.parse(report).verdict.verdict).toBe('accepted');
    for (const canary of CANARIES) expect(out).not.toContain(canary);
  }, 120_000);

  it('record --live writes a live-final case with the verdict it got and no canary', async () => {
    const out = path.join(root, 'cases');
    const { code } = await capture(() => recordCommand({ cli: 'claude', route: ['claude-code/json'], out, probeTimeout: 60_000, live: true }));
    expect(code).toBe(0);
    expect(readdirSync(path.join(out, 'claude-code', 'json'))).toEqual(['live-final.json']);
    const text = readFileSync(path.join(out, 'claude-code', 'json', 'live-final.json'), 'utf8');
    for (const canary of CANARIES) expect(text).not.toContain(canary);
    const c = JSON.parse(text);
    expect(c.tags).toContain('live');
    expect(c.expect.verdict).toBe('accepted');
    expect(c.provenance.ref).toMatch(/^routecert record --live: real CLI against http:\/\/127\.0\.0\.1:<port>$/);
  }, 120_000);

  it('without --live, the same probe goes to routecert\'s own mock, not the provider endpoint', async () => {
    const before = server.requests.length;
    const { code } = await capture(() => probeCommand({ cli: 'claude', scenario: 'final', probeTimeout: 60_000, json: true }));
    expect(code).toBe(0);
    expect(server.requests.length).toBe(before);
  }, 120_000);
});
