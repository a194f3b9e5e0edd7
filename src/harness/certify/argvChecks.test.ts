import { describe, expect, it } from 'vitest';
import type { ShimCallRecord } from '#src/harness/shim/plan.ts';
import { forbiddenIn, schemaSent } from './argvChecks.ts';
import type { CheckEnv, JudgedRun } from './checkTypes.ts';
import { certifyRoute } from './routes.ts';

const SCHEMA = { type: 'object', required: ['findings'], properties: { findings: { type: 'array', items: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } } } } };

function call(over: Partial<ShimCallRecord>): ShimCallRecord {
  return { kind: 'call', cli: 'codex', attempt: 0, argv: ['exec', '--json', '-'], cwd: '<tmp>', stdin: '', promptFile: null, env: {}, source: null, pid: 1, startTicks: null, pgid: null, ...over } as ShimCallRecord;
}

function judge(route: string, channel: 'flag' | 'prompt', calls: ShimCallRecord[]) {
  const env = { route: certifyRoute(route), schema: SCHEMA, schemaChannel: channel } as unknown as CheckEnv;
  const all = [{ planned: { label: 'smoke', attempts: [], cases: [] }, observed: { label: 'smoke', calls } }] as unknown as JudgedRun[];
  return { plan: schemaSent.plan(env), verdict: schemaSent.judge([], env, all) };
}

const persona = 'You are an adversarial reviewer.\n\nReturn ONE JSON object and nothing else matching this schema:\n\n';

describe('schema-sent with the schema channel a worker declares', () => {
  it('passes a Codex call whose prompt (stdin) holds the schema when the worker declares the channel "prompt"', () => {
    const { verdict } = judge('codex/jsonl', 'prompt', [call({ stdin: `${persona}${JSON.stringify(SCHEMA, null, 2)}\n\nSet "reviewer".\n--- BEGIN DIFF ---\n{ not json\n` })]);
    expect(verdict.pass, verdict.evidence.join('\n')).toBe(true);
    expect(verdict.evidence.join('\n')).toContain('in its prompt');
  });

  it('reads the prompt file when the CLI was given one (grok-cli --prompt-file)', () => {
    const { verdict } = judge('grok/json', 'prompt', [call({ cli: 'grok', promptFile: { path: '<tmp>/p', content: `${persona}${JSON.stringify(SCHEMA)}` } })]);
    expect(verdict.pass, verdict.evidence.join('\n')).toBe(true);
  });

  it('fails a worker that drops the schema from the prompt, and one that sends another schema there', () => {
    const dropped = judge('codex/jsonl', 'prompt', [call({ stdin: `${persona}\n\nSet "reviewer".` })]).verdict;
    expect(dropped.pass).toBe(false);
    expect(dropped.evidence.join('\n')).toContain('holds no JSON schema');
    const other = { ...SCHEMA, required: ['findings', 'verdict'] };
    const wrong = judge('codex/jsonl', 'prompt', [call({ stdin: `${persona}${JSON.stringify(other)}` })]).verdict;
    expect(wrong.pass).toBe(false);
    expect(wrong.evidence.join('\n')).toContain("not the contract's");
  });

  it('still asks for the route flag when nothing is declared: the same Codex call without --output-schema fails', () => {
    const { verdict } = judge('codex/jsonl', 'flag', [call({ stdin: `${persona}${JSON.stringify(SCHEMA)}` })]);
    expect(verdict.pass).toBe(false);
    expect(verdict.evidence.join('\n')).toContain('no --output-schema');
  });
});

describe('forbiddenIn', () => {
  it('finds the sandbox lifted through a Codex configuration override, in every spelling a user can send', () => {
    // ai-sdk-provider-codex-cli 2.2.1 sends its sandboxMode setting as `-c sandbox_mode=<mode>`.
    for (const argv of [
      ['exec', '--experimental-json', '-c', 'sandbox_mode=danger-full-access'],
      ['exec', '--config', 'sandbox_mode="danger-full-access"'],
      ['exec', '--config=sandbox_mode = "danger-full-access"'],
      ['exec', "-csandbox_mode='danger-full-access'"],
    ]) {
      expect(forbiddenIn('codex', argv).join('\n'), argv.join(' ')).toContain('sandbox_mode=danger-full-access');
    }
  });

  it('leaves other configuration overrides and safe sandbox modes alone', () => {
    expect(forbiddenIn('codex', ['exec', '-c', 'sandbox_mode=workspace-write', '-c', 'approval_policy=never', '-c', 'model_reasoning_effort="high"', '-s', 'read-only'])).toEqual([]);
  });

  it('reads an attached one-letter value as the CLI does (`-sdanger-full-access`)', () => {
    expect(forbiddenIn('codex', ['exec', '-sdanger-full-access']).join('\n')).toContain('-s danger-full-access');
    expect(forbiddenIn('codex', ['exec', '-sread-only'])).toEqual([]);
  });

  it("finds cursor-agent's sandbox turned off, and leaves it alone when enabled", () => {
    expect(forbiddenIn('cursor-agent', ['-p', '--mode', 'ask', '--trust', '--sandbox', 'disabled']).join('\n')).toContain('--sandbox disabled');
    expect(forbiddenIn('cursor-agent', ['-p', '--sandbox=disabled']).join('\n')).toContain('--sandbox disabled');
    expect(forbiddenIn('cursor-agent', ['-p', '--mode', 'ask', '--trust', '--sandbox', 'enabled'])).toEqual([]);
  });
});
