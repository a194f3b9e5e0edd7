import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLint, type LintArgv } from '#src/schema/lintCommand.ts';
import type { LintFinding } from '#src/schema/types.ts';

async function run(argv: LintArgv): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runLint(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  return { code, stdout, stderr };
}

describe('runLint', () => {
  let dir: string;
  let clean: string;
  let dirty: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'routecert-lint-command-'));
    await mkdir(join(dir, 'set'));
    clean = join(dir, 'set', 'clean.schema.json');
    dirty = join(dir, 'set', 'dirty.schema.json');
    await writeFile(clean, JSON.stringify({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false }));
    await writeFile(dirty, JSON.stringify({ type: 'object', properties: { a: { type: 'string', _meta: 1, default: 'x' } }, required: ['a'], additionalProperties: false }));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('exits 0 and prints one ok line per file plus a summary when clean', async () => {
    const { code, stdout, stderr } = await run({ paths: [clean], profiles: ['claude-code', 'codex'], format: 'text' });
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toBe(`${clean}  ok (profiles: claude-code, codex)\nroutecert lint: 1 file, no findings\n`);
  });

  it('exits 1 and prints findings grouped by file, file:pointer  keyword  profile/rule  message (hint)', async () => {
    const { code, stdout } = await run({ paths: [join(dir, 'set')], profiles: ['claude-code', 'codex'], format: 'text' });
    expect(code).toBe(1);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`${clean}  ok (profiles: claude-code, codex)`);
    expect(lines[1]).toBe(`${dirty} (profiles: claude-code, codex)`);
    expect(lines[2]).toMatch(new RegExp(`^  ${dirty.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:/properties/a  _meta  claude-code/unknown-keyword  error: /properties/a/_meta: unknown keyword; .* \\(Remove the keyword`));
    expect(lines.slice(2, -1).map((line) => line.split('  ')[3])).toEqual(['claude-code/unknown-keyword', 'codex/disputed-keyword', 'codex/unlisted-keyword']);
    expect(lines.at(-1)).toBe('routecert lint: 2 files, 1 error, 2 warnings in 1 file');
  });

  it('prints a JSON array of findings with --format json', async () => {
    const { code, stdout } = await run({ paths: [dirty], profiles: ['claude-code'], format: 'json' });
    expect(code).toBe(1);
    const findings = JSON.parse(stdout) as LintFinding[];
    expect(findings).toEqual([expect.objectContaining({ file: dirty, pointer: '/properties/a', keyword: '_meta', profile: 'claude-code', rule: 'unknown-keyword', severity: 'error' })]);
  });

  it('prints [] and exits 0 for clean files with --format json', async () => {
    const { code, stdout } = await run({ paths: [clean], format: 'json' });
    expect(code).toBe(0);
    expect(stdout).toBe('[]\n');
  });

  it('prints file:line:column for invalid JSON', async () => {
    const bad = join(dir, 'bad.schema.json');
    await writeFile(bad, '{\n  "type": "object",,\n}');
    const { code, stdout } = await run({ paths: [bad], format: 'text' });
    expect(code).toBe(1);
    expect(stdout).toContain(`  ${bad}:2:20  -  */invalid-json  error: invalid JSON at line 2, column 20: `);
  });

  it('exits 2 for an unknown profile and lists the valid ones', async () => {
    const { code, stdout, stderr } = await run({ paths: [clean], profiles: ['claude-code', 'gpt'], format: 'text' });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe('[routecert] unknown profile "gpt". Valid profiles: claude-code, qwen-code, codex, openai-strict, anthropic, gemini, gemini-response-schema, xgrammar, portable\n');
  });

  it('exits 2 without paths or with an unknown format', async () => {
    const none = await run({ paths: [], format: 'text' });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^\[routecert\] lint needs at least one file or folder\.\nUsage: routecert lint/);
    const format = await run({ paths: [clean], format: 'yaml' as 'text' });
    expect(format.code).toBe(2);
    expect(format.stderr).toBe('[routecert] unknown format "yaml". Valid formats: text, json\n');
  });

  it('uses portable for files outside a manifest when no --profile is given', async () => {
    const { stdout } = await run({ paths: [clean], format: 'text' });
    expect(stdout).toContain('(profiles: portable)');
  });
});
