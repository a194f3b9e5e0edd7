/**
 * A bad case never hides the others: a malformed case file, a case that breaks the case schema and
 * an unreadable envelope each give a clear message naming the file and the line or JSON Pointer,
 * and the run goes on with the other cases. Checked through the real `routecert run` command.
 */
import { cpSync, mkdtempSync, mkdirSync, rmSync, writeFileSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { projectPath } from '#src/paths.ts';

const root = mkdtempSync(path.join(tmpdir(), 'routecert-resilience-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const cases = path.join(root, 'cases');
mkdirSync(cases);
cpSync(projectPath('fixtures/cases/claude-code/json/final.json'), path.join(cases, 'good.json'));
writeFileSync(path.join(cases, 'broken.json'), '{\n  "id": "0000000000000000",\n  "description": "oops",\n  "route": "claude-code/json",,\n}\n');
const good = JSON.parse(readFileSync(projectPath('fixtures/cases/claude-code/json/final.json'), 'utf8')) as Record<string, unknown>;
writeFileSync(path.join(cases, 'bad-verdict.json'), JSON.stringify({ ...good, expect: { verdict: 'maybe' } }, null, 2));
writeFileSync(path.join(cases, 'no-stdout.json'), JSON.stringify({ ...good, attempts: [{ stderr: '', exitCode: 0, elapsedMs: 5 }] }, null, 2));
// An id of its own (its content differs from the good case; two files with one id are an error).
const binary = { ...good, id: '0000000000000001', attempts: [{ stdout: '\u0000\uFFFD\uFFFD{"type":"result","structured_output":', stderr: 'fatal: \u001b[31mboom\u001b[0m', exitCode: 139, signal: 'SIGSEGV', elapsedMs: 5 }], expect: { verdict: 'crashed' } };
writeFileSync(path.join(cases, 'garbled.json'), JSON.stringify(binary, null, 2));

const run = await execa('node', [projectPath('bin/routecert.js'), 'run', '--cases', cases, '--no-probes', '--reports', path.join(root, 'reports')], { reject: false, env: { NO_COLOR: '1' } });
const output = `${run.stdout}\n${run.stderr}`;

describe('routecert run with bad case files', () => {
  it('names the malformed JSON file with its line and column', () => {
    expect(output).toMatch(/FAULT case-file .*broken\.json \(line 4, column 31\): not valid JSON/);
  });

  it('names the schema problem with its JSON Pointer', () => {
    expect(output).toMatch(/FAULT case-file .*bad-verdict\.json \(\/expect\/verdict\): does not match schemas\/case\.schema\.json/);
    expect(output).toMatch(/no-stdout\.json \(\/attempts\/0\): does not match schemas\/case\.schema\.json: must have required property 'stdout'/);
  });

  it('still judges the good case and the garbled envelope', () => {
    expect(output).toMatch(/PASS +accepted .*claude-code\/json/);
    expect(output).toMatch(/crashed/);
    expect(output).toMatch(/2 cases: 2 passed/);
  });

  it('exits 2 (configuration error) and still writes the four reports', () => {
    expect(run.exitCode).toBe(2);
    const dirs = readdirSync(path.join(root, 'reports'));
    expect(dirs).toHaveLength(1);
    expect(readdirSync(path.join(root, 'reports', dirs[0]!)).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'summary.md']);
    const junit = readFileSync(path.join(root, 'reports', dirs[0]!, 'junit.xml'), 'utf8');
    expect(junit).toContain('<error message="not valid JSON');
  });
});
