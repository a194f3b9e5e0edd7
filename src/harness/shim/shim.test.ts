import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { compileValidator } from '#src/contract/validator.ts';
import { waitGroupsGone } from '#src/harness/certify/processes.ts';
import { projectPath } from '#src/paths.ts';
import { installShims, ShimPlanError } from './install.ts';
import { readShimRecords, type ShimAttempt, type ShimCallRecord, type ShimPlan } from './plan.ts';

const roots: string[] = [];
const groups = new Set<number>();
const SECRET = 'sk-ant-routecert-unit-0123456789';

function newRoot(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'routecert-shim-'));
  roots.push(root);
  return root;
}

function plan(clis: ShimPlan['clis'], extra: Partial<ShimPlan> = {}): ShimPlan {
  return { version: 1, clis, secrets: [], maxHangMs: 20_000, ...extra };
}

const ok = (stdout: string, extra: Partial<ShimAttempt> = {}): ShimAttempt => ({ stdout, stderr: '', exitCode: 0, ...extra });

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

async function until<T>(probe: () => Promise<T | undefined>, tries = 200): Promise<T> {
  for (let i = 0; i < tries; i += 1) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition never held');
}

afterAll(async () => {
  for (const g of groups) {
    try {
      process.kill(-g, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  expect(await waitGroupsGone([...groups], 5000)).toEqual([]);
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe('installShims', () => {
  it('puts a fake CLI under every known name and links real tools, with interpreters resolved through themselves', async () => {
    const shims = await installShims({ root: newRoot(), plan: plan({}) });
    expect(shims.clis).toEqual(expect.arrayContaining(['claude', 'codex', 'grok', 'qwen', 'gemini', 'cursor-agent']));
    const names = shims.tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['sh', 'node', 'cat']));
    for (const cli of shims.clis) expect(names).not.toContain(cli);
    const python = shims.tools.find((t) => t.name === 'python3');
    if (python) {
      expect(readlinkSync(path.join(shims.binDir, 'python3'))).not.toMatch(/[/\\](shims|\.asdf)[/\\]/);
      const run = await execa('python3', ['-c', 'print(6 * 7)'], { env: { PATH: shims.binDir }, extendEnv: false });
      expect(run.stdout).toBe('42');
    }
    const which = await execa('sh', ['-c', 'command -v claude; command -v cat'], { env: { PATH: shims.binDir }, extendEnv: false });
    expect(which.stdout.split('\n')).toEqual([path.join(shims.binDir, 'claude'), path.join(shims.binDir, 'cat')]);
  });

  it('links a tool given as a path under its file name, in place of the one of that name on PATH; a missing one is reported', async () => {
    const root = newRoot();
    const own = path.join(root, 'jq');
    writeFileSync(own, '#!/bin/sh\necho "jq-own"\n', { mode: 0o755 });
    const shims = await installShims({ root: path.join(root, 'run'), plan: plan({}), tools: ['sh', 'jq', own, path.join(root, 'absent', 'python3')] });
    expect(shims.tools.filter((t) => t.name === 'jq')).toEqual([{ name: 'jq', target: own }]);
    expect(shims.missingTools).toEqual([path.join(root, 'absent', 'python3')]);
    const run = await execa('sh', ['-c', 'jq --version'], { env: { PATH: shims.binDir }, extendEnv: false });
    expect(run.stdout).toBe('jq-own');
  });

  it('refuses a plan that breaks schemas/shim.schema.json, naming the problem', async () => {
    const bad = { version: 1, clis: { claude: { version: '1', attempts: [{ stdout: 1 }] } }, secrets: [] } as unknown as ShimPlan;
    await expect(installShims({ root: newRoot(), plan: bad })).rejects.toThrow(ShimPlanError);
  });
});

describe('fake CLI', () => {
  it('replays attempt N on call N, then says the plan is exhausted', async () => {
    const shims = await installShims({
      root: newRoot(),
      plan: plan({ claude: { version: '2.1.332', attempts: [ok('first\n'), { stdout: '', stderr: 'second failed\n', exitCode: 3 }] } }),
    });
    const env = { PATH: shims.binDir };
    const one = await execa('claude', ['-p'], { env, extendEnv: false, input: 'x', reject: false });
    const two = await execa('claude', ['-p'], { env, extendEnv: false, input: 'x', reject: false });
    const three = await execa('claude', ['-p'], { env, extendEnv: false, input: 'x', reject: false });
    expect([one.stdout, one.exitCode]).toEqual(['first', 0]);
    expect([two.stderr, two.exitCode]).toEqual(['second failed', 3]);
    expect(three.exitCode).toBe(96);
    expect(three.stderr).toContain('called 3 times; the plan has 2 attempt(s)');
    const calls = (await readShimRecords(shims.stateDir)).filter((r) => r.kind === 'call');
    expect(calls.map((c) => c.attempt)).toEqual([0, 1, 2]);
  });

  it('answers --version with the planned version without counting an attempt', async () => {
    const shims = await installShims({ root: newRoot(), plan: plan({ grok: { version: '1.0.4', attempts: [ok('{}')] } }) });
    const version = await execa('grok', ['--version'], { env: { PATH: shims.binDir }, extendEnv: false });
    expect(version.stdout).toContain('1.0.4');
    const first = await execa('grok', ['--prompt-file', '/dev/null'], { env: { PATH: shims.binDir }, extendEnv: false });
    expect(first.stdout).toBe('{}');
  });

  it('records argv (the schema as one token), stdin, the prompt file and the environment with secrets redacted', async () => {
    const root = newRoot();
    const shims = await installShims({
      root,
      plan: plan({ claude: { version: '1', attempts: [ok('a')] }, grok: { version: '1', attempts: [ok('b')] } }, { secrets: ['hunter2-value'] }),
    });
    const schema = JSON.stringify({ type: 'object', properties: { a: { type: 'string' } } }, null, 2);
    const promptFile = path.join(root, 'prompt.txt');
    writeFileSync(promptFile, 'the prompt, from a file');
    const env = { PATH: shims.binDir, ANTHROPIC_API_KEY: SECRET, PLAIN: 'visible', OTHER: 'contains hunter2-value here', NOTE: `inline ${SECRET}` };
    await execa('claude', ['-p', '--json-schema', schema], { env, extendEnv: false, input: 'the prompt, on stdin' });
    await execa('grok', ['--prompt-file', promptFile, '--json-schema', schema], { env, extendEnv: false });
    const text = readFileSync(path.join(shims.stateDir, 'calls.jsonl'), 'utf8');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('hunter2-value');
    const records = await readShimRecords(shims.stateDir);
    const { anyOf: _either, ...shimSchema } = JSON.parse(readFileSync(projectPath('schemas/shim.schema.json'), 'utf8')) as Record<string, unknown>;
    const validate = compileValidator({ ...shimSchema, $ref: '#/$defs/record' });
    for (const r of records) expect(validate(r)).toEqual([]);
    const [claude, grok] = records as ShimCallRecord[];
    expect(claude!.argv).toEqual(['-p', '--json-schema', schema]);
    expect(claude!.stdin).toBe('the prompt, on stdin');
    expect(claude!.promptFile).toBeNull();
    expect(claude!.env).toMatchObject({ ANTHROPIC_API_KEY: '<redacted:secret>', PLAIN: 'visible', OTHER: 'contains <redacted:secret> here', NOTE: 'inline <redacted:secret>' });
    expect(grok!.promptFile).toEqual({ path: promptFile, content: 'the prompt, from a file' });
    expect(grok!.stdin).toBe('');
  });

  it("writes the attempt's side files where the route's flag points (codex -o), and records the schema file it was given", async () => {
    const root = newRoot();
    const facts = { sideFiles: { 'last-message': ['-o', '--output-last-message'] }, argFiles: ['--output-schema'] };
    const shims = await installShims({
      root,
      plan: plan({ codex: { version: '0.171.0', attempts: [ok('{"type":"turn.completed"}\n', { files: { 'last-message': '{"a":1}' } }), ok('', { files: { 'last-message': 'second' } })], ...facts } }),
    });
    const schemaFile = path.join(root, 'schema.json');
    writeFileSync(schemaFile, '{"type":"object"}');
    const last = path.join(root, 'last.txt');
    await execa('codex', ['exec', '--json', '--output-schema', schemaFile, '-o', last, '-'], { env: { PATH: shims.binDir }, extendEnv: false, input: 'p' });
    expect(readFileSync(last, 'utf8')).toBe('{"a":1}');
    // Without the flag the CLI writes no side file (as the real one), and the schema is not recorded.
    const run = await execa('codex', ['exec', '--json', '-'], { env: { PATH: shims.binDir }, extendEnv: false, input: 'p' });
    expect(run.exitCode).toBe(0);
    const [first, second] = (await readShimRecords(shims.stateDir)) as ShimCallRecord[];
    expect(first!.argFiles).toEqual([{ flag: '--output-schema', path: schemaFile, content: '{"type":"object"}' }]);
    expect(second!.argFiles).toBeUndefined();
  });

  it('writes chunks to stdout and stderr in the planned order', async () => {
    const shims = await installShims({
      root: newRoot(),
      plan: plan({
        claude: {
          version: '1',
          attempts: [{ stdout: '', stderr: '', exitCode: 0, chunks: [{ stream: 'stdout', data: 'out1 ' }, { stream: 'stderr', data: 'err1 ', delayMs: 30 }, { stream: 'stdout', data: 'out2', delayMs: 30 }] }],
        },
      }),
    });
    const run = await execa('sh', ['-c', 'claude -p </dev/null 2>&1'], { env: { PATH: shims.binDir }, extendEnv: false });
    expect(run.stdout).toBe('out1 err1 out2');
  });

  it('ends by the planned signal', async () => {
    const shims = await installShims({ root: newRoot(), plan: plan({ claude: { version: '1', attempts: [ok('partial', { signal: 'SIGTERM', exitCode: null })] } }) });
    const run = await execa('claude', ['-p'], { env: { PATH: shims.binDir }, extendEnv: false, input: '', reject: false });
    expect(run.stdout).toBe('partial');
    expect(run.signal).toBe('SIGTERM');
  });

  it('exits 127 for a CLI the plan does not name, and records the call', async () => {
    const shims = await installShims({ root: newRoot(), plan: plan({ claude: { version: '1', attempts: [ok('x')] } }) });
    const run = await execa('codex', ['exec', '-'], { env: { PATH: shims.binDir }, extendEnv: false, input: '', reject: false });
    expect(run.exitCode).toBe(127);
    expect(run.stderr).toContain('no plan for this CLI');
    expect((await readShimRecords(shims.stateDir)).map((r) => [r.kind, r.cli])).toEqual([['call', 'codex']]);
  });

  it('hangs with a grandchild in its process group that ignores SIGTERM: only SIGKILL to the group ends it', async () => {
    const shims = await installShims({ root: newRoot(), plan: plan({ claude: { version: '1', attempts: [ok('{"type":"system"}\n', { hang: { children: 1 } })] } }) });
    const child = spawn('claude', ['-p'], { env: { PATH: shims.binDir }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    groups.add(child.pid!);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const grandchild = await until(async () => (await readShimRecords(shims.stateDir)).find((r) => r.kind === 'child'));
    const call = (await readShimRecords(shims.stateDir)).find((r) => r.kind === 'call')!;
    expect(grandchild.parentPid).toBe(child.pid);
    expect(grandchild.pgid).toBe(call.pgid);
    expect(call.pgid).toBe(child.pid);
    expect(grandchild.kind === 'child' && grandchild.ignoresSigterm).toBe(true);
    // The fake CLI starts its grandchildren before it prints: wait for its output, so the SIGTERM
    // below never lands before it (on a loaded machine it did, and stdout stayed empty).
    await until(async () => (out === '{"type":"system"}\n' ? true : undefined));
    // SIGTERM to the whole group: the CLI dies, its grandchild does not (it was recorded only once
    // its SIGTERM was ignored, so this is not a race).
    process.kill(-child.pid!, 'SIGTERM');
    await until(async () => (alive(child.pid!) ? undefined : true));
    await new Promise((r) => setTimeout(r, 300));
    expect(alive(grandchild.pid)).toBe(true);
    process.kill(-child.pid!, 'SIGKILL');
    await until(async () => (alive(grandchild.pid) ? undefined : true));
    expect(out).toBe('{"type":"system"}\n');
  });
});
