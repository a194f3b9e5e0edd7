/**
 * The role-output contract (DESIGN.md "Contracts in the mission" item 3): every wrong shape earns a
 * correction that restates the schema, two corrections at most, then `invalid_structured_output`; a
 * schema-valid reply that fails another check is not corrected; the usage of every turn is summed,
 * deep, whatever the provider's usage shape, and a replay from a saved cursor never counts a turn
 * twice. `routecert run --contract role-output` prints and records the summed usage of each case.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { judgeCase } from '#src/contract/judgeCase.ts';
import { loadContract } from '#src/contract/registry.ts';
import type { DefinedContract } from '#src/contract/define.ts';
import { decoderFor } from '#src/routes/registry.ts';
import { projectPath } from '#src/paths.ts';
import { readReport } from '#src/harness/readReport.ts';
import { corpus } from './_helpers/corpus.ts';

const rows = corpus.cases.filter((c) => c.case.contract === 'role-output');
const label = (c: (typeof rows)[number]) => `${c.case.id} ${c.case.route}: ${c.case.description}`;
const schema = JSON.parse(readFileSync(projectPath('schemas/contracts/role-output.schema.json'), 'utf8')) as Record<string, unknown>;
const SHAPES = ['prose', 'scalar-or-array', 'schema-echo', 'missing-required'];

/** Whether the route decoder reads a usage off any attempt of `c`. */
function reportsUsage(c: (typeof rows)[number]): boolean {
  return c.case.attempts.some((a) => decoderFor(c.case.route).decode(a).usage !== undefined);
}

async function fresh(): Promise<DefinedContract> {
  return (await loadContract('role-output')) as DefinedContract;
}

describe('role-output: corpus', () => {
  it('has at least eight cases covering every wrong shape, a correction that succeeds, exhausted corrections and a reply that is not corrected', () => {
    expect(rows.length).toBeGreaterThanOrEqual(8);
    for (const tag of [...SHAPES, 'correction-succeeds', 'corrections-exhausted', 'not-corrected']) {
      expect(rows.some((c) => c.case.tags.includes(tag)), tag).toBe(true);
    }
  });

  it.each(rows.map((c) => [label(c), c] as const))('%s', async (_label, c) => {
    const contract = await fresh();
    const judged = judgeCase(c.case, contract, decoderFor(c.case.route));
    expect(judged.verdict.verdict).toBe(c.case.expect.verdict);
    expect(judged.unusedAttempts).toBe(0);
    const retries = judged.attempts.filter((a) => a.verdict.verdict === 'retry');
    expect(retries.length).toBeLessThanOrEqual(2);
    for (const a of retries) {
      if (a.verdict.verdict !== 'retry') continue;
      const shape = a.verdict.reason.replace(/^correction: /, '');
      expect(SHAPES).toContain(shape);
      expect(c.case.tags).toContain(shape);
      expect(a.verdict.addendum).toContain(JSON.stringify(schema));
    }
    // Every verdict on the way carries the usage summed so far, never decreasing.
    const usages = judged.attempts.map((a) => a.verdict.usage ?? {});
    for (let i = 1; i < usages.length; i += 1) {
      for (const [k, v] of Object.entries(usages[i - 1]!)) expect(usages[i]![k], k).toBeGreaterThanOrEqual(v);
    }
    // A route whose CLI reports usage (most do; cursor-agent, Amp and grok-cli's messages do not) has it summed.
    if (reportsUsage(c)) expect(Object.keys(usages.at(-1)!).length).toBeGreaterThan(0);
  });
});

describe('role-output: usage', () => {
  const byDescription = (start: string) => rows.find((c) => c.case.description.startsWith(start))!;

  it('sums OpenAI-shaped usage of all three turns, nested *_details included, after exhausted corrections', async () => {
    const c = byDescription('generic: prose on every turn');
    const verdict = judgeCase(c.case, await fresh(), decoderFor(c.case.route)).verdict;
    expect(verdict.verdict).toBe('invalid_structured_output');
    expect(verdict.usage).toEqual({
      prompt_tokens: 700 + 760 + 800,
      completion_tokens: 20 + 18 + 4,
      total_tokens: 720 + 778 + 804,
      'prompt_tokens_details.cached_tokens': 0 + 512 + 640,
      'completion_tokens_details.reasoning_tokens': 64 + 32 + 0,
    });
  });

  it('sums Anthropic-shaped usage of every turn, cache fields included', async () => {
    const c = byDescription('claude-code/json: prose without JSON earns one correction');
    const verdict = judgeCase(c.case, await fresh(), decoderFor(c.case.route)).verdict;
    expect(verdict.usage).toMatchObject({ input_tokens: 900 + 1400, output_tokens: 40 + 120, cache_creation_input_tokens: 300, cache_read_input_tokens: 300 });
  });

  it.each(rows.filter((c) => c.case.attempts.length > 1).map((c) => [label(c), c] as const))('replaying %s from a saved cursor counts no turn twice', async (_label, c) => {
    const decoder = decoderFor(c.case.route);
    const once = judgeCase(c.case, await fresh(), decoder).verdict.usage;
    for (let cut = 1; cut < c.case.attempts.length; cut += 1) {
      const first = await fresh();
      judgeCase({ attempts: c.case.attempts.slice(0, cut) }, first, decoder);
      const replay = await fresh();
      replay.resume(first.save());
      expect(judgeCase(c.case, replay, decoder).verdict.usage).toEqual(once);
    }
  });
});

describe('routecert run --contract role-output', async () => {
  const root = mkdtempSync(path.join(tmpdir(), 'routecert-role-output-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const run = await execa('node', [projectPath('bin/routecert.js'), 'run', '--no-probes', '--contract', 'role-output', '--reports', root], {
    reject: false,
    env: { NO_COLOR: '1' },
  });

  it('passes every role-output case and prints the summed usage of each', () => {
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toContain(`${rows.length} cases: ${rows.length} passed`);
    expect(run.stdout.match(/usage \(all turns\): /g)).toHaveLength(rows.filter(reportsUsage).length);
    expect(run.stdout).toContain('usage (all turns): prompt_tokens 2260, completion_tokens 42, total_tokens 2302, prompt_tokens_details.cached_tokens 1152, completion_tokens_details.reasoning_tokens 96');
  });

  it('records the summed usage on each verdict in a report.json that validates', async () => {
    const [dir] = readdirSync(root);
    const report = await readReport(path.join(root, dir!, 'report.json'));
    expect(report.cases).toHaveLength(rows.length);
    const withUsage = new Set(rows.filter(reportsUsage).map((c) => c.case.id));
    for (const c of report.cases) if (withUsage.has(c.id)) expect(Object.keys(c.verdict?.usage ?? {}).length, c.id).toBeGreaterThan(0);
    const exhausted = report.cases.find((c) => c.verdict?.verdict === 'invalid_structured_output' && c.route === 'generic');
    expect(exhausted?.verdict?.usage?.prompt_tokens).toBe(2260);
  });
});
