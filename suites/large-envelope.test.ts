/**
 * Issue 15: a valid final answer is never lost to the size of an envelope. A `claude-code/json`
 * envelope whose `result` holds 150,000 small `{"position": ...}` objects (about 4.7 MB, past the
 * ~120,000 elements at which `push(...list)` overflows the stack) beside a valid final
 * `structured_output` is accepted from `structured_output`: by the decoder and contract in
 * process, by `routecert run --cases`, and by the reference worker (`routecert-worker`) behind a
 * fake `claude` on PATH. The envelope is built here, at test time; nothing of that size is committed.
 */
import { chmodSync, closeSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { judgeCase } from '#src/contract/judgeCase.ts';
import { loadContract } from '#src/contract/registry.ts';
import { decoderFor } from '#src/routes/registry.ts';
import type { Envelope } from '#src/envelope/types.ts';
import { projectPath } from '#src/paths.ts';
import { caseId } from '#src/record/caseId.ts';

const root = mkdtempSync(path.join(tmpdir(), 'routecert-large-envelope-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const FINAL = {
  voice: 'peer',
  position: 'Choose A',
  reasoning: 'A keeps the decoder linear and the evidence is in src/a.ts.',
  evidence: ['src/a.ts:1'],
  external_check: 'ran',
  mode: 'independent',
  movement: 'initial',
  final: true,
};
const CANDIDATES = 150_000;

/** Claude Code `--output-format json` stdout: `result` full of small position objects, a valid final `structured_output`. */
function manyCandidateStdout(): string {
  const drafts: string[] = [];
  for (let k = 0; k < CANDIDATES; k++) drafts.push(`{"position": "draft ${k}"}`);
  return `${JSON.stringify({
    type: 'result',
    subtype: 'success',
    is_error: false,
    api_error_status: null,
    result: drafts.join('\n'),
    structured_output: FINAL,
    session_id: '<uuid>',
    terminal_reason: 'completed',
  })}\n`;
}

const stdout = manyCandidateStdout();
const envelope: Envelope = { stdout, stderr: '', exitCode: 0, elapsedMs: 1_000 };

describe(`a claude-code/json envelope with ${CANDIDATES.toLocaleString('en')} candidates beside a final structured_output`, () => {
  it('is bigger than what a spread call survives', () => {
    expect(stdout.length).toBeGreaterThan(4 * 2 ** 20);
  });

  it('decodes without throwing and the pov contract accepts structured_output', async () => {
    const contract = await loadContract('pov');
    const judged = judgeCase({ attempts: [envelope] }, contract, decoderFor('claude-code/json'));
    expect(judged.verdict).toMatchObject({ verdict: 'accepted', origin: 'structured_output', value: FINAL });
    expect(judged.attempts[0]?.candidates).toBe(CANDIDATES + 1);
  }, 300_000);

  it('routecert run --cases passes the case: accepted from structured_output', async () => {
    const cases = path.join(root, 'cases');
    mkdirSync(cases, { recursive: true });
    const body = { attempts: [envelope], contract: 'pov', expect: { verdict: 'accepted' as const, origin: 'structured_output' } };
    const c = {
      id: caseId(body),
      description: `claude-code/json: ${CANDIDATES} small position objects in result beside a final structured_output (issue 15)`,
      route: 'claude-code/json',
      cli: { name: 'claude', version: '2.1.332' },
      provenance: { source: 'generated', ref: 'suites/large-envelope.test.ts', date: '2026-12-01' },
      tags: ['large'],
      ...body,
    };
    writeFileSync(path.join(cases, 'many-candidates.json'), JSON.stringify(c));
    const run = await execa('node', [projectPath('bin/routecert.js'), 'run', '--cases', cases, '--no-probes', '--reports', path.join(root, 'reports')], {
      reject: false,
      env: { NO_COLOR: '1' },
    });
    const output = `${run.stdout}\n${run.stderr}`;
    expect(output).toMatch(/PASS +accepted .*claude-code\/json/);
    expect(output).toMatch(/1 case: 1 passed|1 cases: 1 passed/);
    expect(output).not.toMatch(/RangeError|ERROR/);
    expect(run.exitCode).toBe(0);
  }, 300_000);

  it('the reference worker publishes structured_output and exits 0', async () => {
    const bin = path.join(root, 'bin');
    mkdirSync(bin, { recursive: true });
    const stdoutFile = path.join(root, 'claude-stdout.json');
    writeFileSync(stdoutFile, stdout);
    // A fake `claude`: reads the prompt from stdin, prints the envelope, exits 0.
    writeFileSync(path.join(bin, 'claude'), `#!/bin/sh\ncat > /dev/null\ncat '${stdoutFile}'\n`);
    chmodSync(path.join(bin, 'claude'), 0o755);
    const prompt = path.join(root, 'prompt.txt');
    writeFileSync(prompt, 'Should we choose A or B?');
    const out = path.join(root, 'out', 'artifact.json');
    const run = await execa(
      'node',
      [projectPath('bin/routecert-worker.js'), '--route', 'claude-code/json', '--schema', projectPath('schemas/contracts/pov.schema.json'), '--prompt-file', prompt, '--out', out],
      { reject: false, env: { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, NO_COLOR: '1' } },
    );
    expect(run.stderr).not.toMatch(/RangeError/);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(FINAL);
  }, 300_000);
});

describe('a 1 GiB case file in routecert run --cases', () => {
  it('is refused with a FAULT naming the limit and the option, and the other cases still run', async () => {
    const cases = path.join(root, 'huge-cases');
    mkdirSync(cases, { recursive: true });
    writeFileSync(path.join(cases, 'good.json'), readFileSync(projectPath('fixtures/cases/claude-code/json/final.json')));
    const fd = openSync(path.join(cases, 'huge.json'), 'w');
    ftruncateSync(fd, 2 ** 30); // sparse: no disk blocks, refused before it is read
    closeSync(fd);
    const run = await execa('node', [projectPath('bin/routecert.js'), 'run', '--cases', cases, '--no-probes', '--reports', path.join(root, 'reports-huge')], {
      reject: false,
      env: { NO_COLOR: '1' },
    });
    const output = `${run.stdout}\n${run.stderr}`;
    expect(output).toMatch(/FAULT case-file .*huge\.json.*case file is 1024 MiB, over 512 MiB, the longest string Node can hold.*--max-case-mb/);
    expect(output).toMatch(/PASS +accepted .*claude-code\/json/);
    expect(run.exitCode).toBe(2);
  }, 300_000);
});
