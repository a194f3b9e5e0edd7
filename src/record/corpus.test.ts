import { mkdtempSync, openSync, closeSync, ftruncateSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_CASE_BYTES, loadCaseFile, MAX_READABLE_CASE_BYTES } from '#src/record/corpus.ts';
import { projectPath } from '#src/paths.ts';

const root = mkdtempSync(path.join(tmpdir(), 'routecert-corpus-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A sparse file of `bytes` (zeros, no disk blocks): refused before it is read, so it costs nothing. */
function sparse(name: string, bytes: number): string {
  const file = path.join(root, name);
  const fd = openSync(file, 'w');
  ftruncateSync(fd, bytes);
  closeSync(fd);
  return file;
}

describe('loadCaseFile: size limits (issue 15)', () => {
  it('refuses a 1 GiB case file with an error naming the limits instead of crashing', async () => {
    const { loaded, errors } = await loadCaseFile(sparse('huge.json', 2 ** 30), 'huge.json');
    expect(loaded).toBeUndefined();
    expect(errors).toHaveLength(1);
    expect(errors[0]?.file).toBe('huge.json');
    expect(errors[0]?.message).toMatch(/^case file is 1024 MiB, over 512 MiB, the longest string Node can hold/);
    expect(errors[0]?.message).toContain('--max-case-mb');
    expect(MAX_READABLE_CASE_BYTES).toBeLessThan(2 ** 30);
  });

  it('refuses a file over --max-case-mb and names the value that would load it', async () => {
    const file = sparse('big.json', DEFAULT_MAX_CASE_BYTES + 5 * 2 ** 20);
    const { errors } = await loadCaseFile(file, 'big.json');
    expect(errors[0]?.message).toBe('case file is 261 MiB, over the 256 MiB limit; raise it with --max-case-mb 261 (default 256 MiB)');
  });

  it('loads a case under a raised limit and refuses it under a lowered one', async () => {
    const text = readFileSync(projectPath('fixtures/cases/claude-code/json/final.json'), 'utf8');
    const file = path.join(root, 'final.json');
    writeFileSync(file, text);
    expect((await loadCaseFile(file, 'final.json')).loaded?.case.id).toBe('2eb346fe9c34960a');
    const small = await loadCaseFile(file, 'final.json', { maxBytes: 1024 });
    expect(small.errors[0]?.message).toMatch(/^case file is \d+ KiB, over the 1 KiB limit; raise it with --max-case-mb 1 /);
  });
});
