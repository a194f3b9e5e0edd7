/**
 * `--live` end to end with every real CLI that has a probe driver besides Claude Code (which
 * probes/live.test.ts covers), the CLI's own provider mock standing in for the real provider: the
 * LiveSpec's endpoint variable points at it on 127.0.0.1 (that is how a team points the CLI at a
 * gateway too), a canary secret sits in the credential variable. No real network.
 *
 * Each CLI: `probe --live` and `record --live` reach the stand-in with the cheapest model and the
 * canary as the credential (read from the raw request, so a CLI that sent no key fails the test),
 * and no canary (the key, an org id, an e-mail, a home path, all echoed back in the model's answer)
 * reaches stdout, stderr, the JSON report or the recorded case.
 *
 * `probe --live --startup` (schema-flag CLIs and one prompt-schema CLI): through routecert's
 * loopback tap, reaped at the stand-in's first answer; a schema the CLI refuses never reaches it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { http } from 'msw';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { probeCommand } from '../src/cli/commands/probe.ts';
import { recordCommand } from '../src/cli/commands/record.ts';
import { DEFAULT_PAYLOADS, startLoopbackServer, type LoopbackServer } from '../src/mock/index.ts';
import type { CliName } from '../src/probe/discover.ts';
import { driverFor } from '../src/probe/drivers.ts';
import { discoverProbeCli, readContractSchema } from './_helpers.ts';

/** The OpenAI-strict variant of the pov schema: Codex's provider refuses the production one (src/routes/codex/plan.ts). */
const STRICT_SCHEMA = fileURLToPath(new URL('../schemas/contracts/pov.openai-strict.schema.json', import.meta.url));

/**
 * The CLIs under test, each with the label its install hint uses and the schema its `final` probe
 * sends (@default the production pov schema).
 */
const CLIS: readonly { name: CliName; pinned: string; bin?: string; schema?: string }[] = [
  { name: 'codex', pinned: 'Codex', schema: STRICT_SCHEMA },
  { name: 'gemini', pinned: 'Gemini CLI' },
  { name: 'qwen', pinned: 'Qwen Code' },
  { name: 'opencode', pinned: 'opencode' },
  { name: 'copilot', pinned: 'Copilot CLI' },
  { name: 'pi', pinned: 'pi' },
  { name: 'grok-cli', pinned: 'grok-cli', bin: 'grok' },
];

const root = mkdtempSync(path.join(tmpdir(), 'routecert-live-clis-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Run a command with stdout and stderr captured (nothing is printed). */
async function capture(run: () => Promise<number>): Promise<{ code: number; out: string }> {
  const chunks: string[] = [];
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((c: string | Uint8Array) => (chunks.push(String(c)), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((c: string | Uint8Array) => (chunks.push(String(c)), true));
  try {
    return { code: await run(), out: chunks.join('') };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

/**
 * The stand-in provider of `cli`: its driver's own mock playing `final` with canaries in the
 * answer, plus a first handler that keeps each request's raw credential header (the recorded
 * requests read `<redacted>`) and answers nothing. The live spec's variables point at it; `restore`
 * puts the environment back and stops it.
 */
async function standIn(cli: CliName, key: string, canaries: readonly string[]) {
  const driver = driverFor(cli)!;
  const spec = driver.live!;
  const sent: string[] = [];
  const peek = http.all('*', ({ request }) => {
    sent.push(request.headers.get('authorization') ?? request.headers.get('x-goog-api-key') ?? request.headers.get('x-api-key') ?? '');
    return undefined;
  });
  const final = { ...DEFAULT_PAYLOADS.final, reasoning: `key ${key}, org ${canaries[1]}, mail ${canaries[2]}, file ${canaries[3]}/notes.txt` };
  const server: LoopbackServer = await startLoopbackServer([peek, ...(await driver.handlers('final', { ...DEFAULT_PAYLOADS, final }))], driver.sideRequests ? { side: driver.sideRequests } : {});
  const names = [...spec.credential.from, spec.endpoint.env];
  const saved = new Map(names.map((n) => [n, process.env[n]]));
  for (const n of spec.credential.from) delete process.env[n];
  process.env[spec.credential.from[0]!] = key;
  process.env[spec.endpoint.env] = `${server.url}${spec.endpoint.path ?? ''}`;
  return {
    driver,
    spec,
    server,
    sent,
    async restore() {
      for (const [n, v] of saved) {
        if (v === undefined) delete process.env[n];
        else process.env[n] = v;
      }
      await server.close();
    },
  };
}

/** The model a request asked for: `body.model`, or the `models/<id>:` segment of a Gemini path. */
function modelOf(r: { path: string; body: unknown }): string | undefined {
  const body = r.body as { model?: unknown } | null;
  if (body && typeof body === 'object' && typeof body.model === 'string') return body.model;
  return /\/models\/([^/:]+):/.exec(r.path)?.[1];
}

/**
 * A canary credential of no known key shape (no `sk-`, `AIza`, `xai-`): only the exact-value
 * redaction of the live credentials (liveSecrets) can hide it, so these tests fail without it.
 */
function canaryKey(name: string): string {
  return `LiveCanary${name.replace(/-/g, '')}Key0123456789abcdef`;
}

for (const { name, pinned, bin, schema } of CLIS) {
  const { cli, skipReason } = await discoverProbeCli(name, { file: 'live-clis.test.ts', pinned, ...(bin ? { bin } : {}) });
  const key = canaryKey(name);
  const canaries = [key, 'org-Canary0rgId0123456789abc', 'canary.person@example.com', '/home/canaryuser'];

  describe.skipIf(!cli.bin)(`${name} --live against its mock standing in for the provider${cli.bin ? '' : ` (${skipReason})`}`, () => {
    let s: Awaited<ReturnType<typeof standIn>>;
    beforeAll(async () => {
      s = await standIn(name, key, canaries);
    });
    afterAll(async () => s.restore());

    it('probe --live sends the credential and the cheapest model to the endpoint override; nothing printed holds a canary', async () => {
      const before = s.server.requests.length;
      const { code, out } = await capture(() => probeCommand({ cli: name, scenario: 'final', probeTimeout: 90_000, json: true, live: true, ...(schema ? { schema } : {}) }));
      const sent = s.server.requests.slice(before);
      expect(sent.length, out).toBeGreaterThan(0);
      expect(s.sent, 'the canary credential reached the stand-in').toContain(name === 'gemini' ? key : `Bearer ${key}`);
      expect(sent.map(modelOf)).toContain(s.spec.model);
      expect(s.server.unexpected).toEqual([]);
      for (const canary of canaries) expect(out).not.toContain(canary);
      const report = JSON.parse(out.slice(out.indexOf('{'))) as { verdict: { verdict: string }; live: { model: string } };
      expect(report.live.model).toBe(s.spec.model);
      expect(report.verdict.verdict, out).toBe('accepted');
      expect(code).toBe(0);
    }, 180_000);

    it('record --live writes a live-final case with no canary', async () => {
      const dir = path.join(root, name);
      const route = s.driver.routes[0]!;
      const { code, out } = await capture(() => recordCommand({ cli: name, route: [route], out: dir, probeTimeout: 90_000, live: true }));
      for (const canary of canaries) expect(out).not.toContain(canary);
      expect(code, out).toBe(0);
      const text = readFileSync(path.join(dir, ...route.split('/'), 'live-final.json'), 'utf8');
      for (const canary of canaries) expect(text).not.toContain(canary);
      const c = JSON.parse(text) as { tags: string[]; expect: { verdict: string } };
      expect(c.tags).toContain('live');
      expect(c.expect.verdict).toBe('accepted');
    }, 180_000);
  });
}

/** `--live --startup`: the schema-flag CLIs, and Gemini CLI for the prompt-schema ones. */
const STARTUP: readonly { name: CliName; pinned: string; schema?: string }[] = [
  { name: 'claude', pinned: 'Claude Code' },
  { name: 'codex', pinned: 'Codex', schema: STRICT_SCHEMA },
  { name: 'qwen', pinned: 'Qwen Code' },
  { name: 'gemini', pinned: 'Gemini CLI' },
];

for (const { name, pinned, schema } of STARTUP) {
  const { cli, skipReason } = await discoverProbeCli(name, { file: 'live-clis.test.ts', pinned });
  const key = canaryKey(`startup${name}`);
  const canaries = [key, 'org-Canary0rgId0123456789abc', 'canary.person@example.com', '/home/canaryuser'];

  describe.skipIf(!cli.bin)(`${name} probe --live --startup through the tap${cli.bin ? '' : ` (${skipReason})`}`, () => {
    let s: Awaited<ReturnType<typeof standIn>>;
    beforeAll(async () => {
      s = await standIn(name, key, canaries);
    });
    afterAll(async () => s.restore());

    it('accepted once the stand-in answered: the credential went through the tap, the JSON says firstResponse, no canary', async () => {
      const before = s.server.requests.length;
      const { code, out } = await capture(() => probeCommand({ cli: name, scenario: 'final', startup: true, probeTimeout: 90_000, json: true, live: true, ...(schema ? { schema } : {}) }));
      for (const canary of canaries) expect(out).not.toContain(canary);
      expect(s.server.requests.length - before, out).toBeGreaterThan(0);
      expect(s.sent.some((h) => h.includes(key)), 'the canary credential reached the stand-in').toBe(true);
      const r = JSON.parse(out.slice(out.indexOf('{'))) as { accepted: boolean; live: { firstResponse: boolean; model: string } };
      expect(r).toMatchObject({ accepted: true, live: { firstResponse: true, model: s.spec.model } });
      expect(code).toBe(0);
    }, 180_000);

    it('without --live, the startup probe goes to routecert\'s own mock, not the endpoint override', async () => {
      const before = s.server.requests.length;
      const { code } = await capture(() => probeCommand({ cli: name, scenario: 'final', startup: true, probeTimeout: 90_000, json: true, ...(schema ? { schema } : {}) }));
      expect(code).toBe(0);
      expect(s.server.requests.length).toBe(before);
    }, 180_000);

    if (name === 'codex') {
      it('a schema the provider refuses (400 invalid_json_schema) is passed on whole through the tap: rejected at the provider, no first response', async () => {
        const before = s.server.requests.length;
        // The plain pov schema (without --schema, `probe --cli codex` sends its OpenAI-strict form, which the provider takes).
        const plain = fileURLToPath(new URL('../schemas/contracts/pov.schema.json', import.meta.url));
        const { code, out } = await capture(() => probeCommand({ cli: name, scenario: 'final', startup: true, schema: plain, probeTimeout: 90_000, json: true, live: true }));
        for (const canary of canaries) expect(out).not.toContain(canary);
        expect(s.server.requests.length - before).toBeGreaterThan(0);
        const r = JSON.parse(out.slice(out.indexOf('{'))) as Record<string, unknown>;
        expect(r, out).toMatchObject({ accepted: false, stage: 'provider', live: { firstResponse: false } });
        expect(String(r.rejection)).toContain("Invalid schema for response_format 'codex_output_schema'");
        expect(code).toBe(1);
      }, 180_000);
    }

    if (name === 'claude') {
      it('a schema the CLI refuses at startup never reaches the provider: exit 1, rejected at startup', async () => {
        const file = path.join(root, 'meta.schema.json');
        writeFileSync(file, JSON.stringify({ ...readContractSchema(), _meta: {} }));
        const before = s.server.requests.length;
        const { code, out } = await capture(() => probeCommand({ cli: name, scenario: 'final', startup: true, schema: file, probeTimeout: 90_000, json: true, live: true }));
        expect(JSON.parse(out.slice(out.indexOf('{')))).toMatchObject({ accepted: false, stage: 'startup' });
        expect(s.server.requests.length).toBe(before);
        expect(code).toBe(1);
      }, 180_000);
    }
  });
}
