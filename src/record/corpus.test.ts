import { mkdirSync, mkdtempSync, openSync, closeSync, ftruncateSync, rmSync, utimesSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_CASE_BYTES, loadCaseFile, loadCorpus, MAX_READABLE_CASE_BYTES, withAttempts } from '#src/record/corpus.ts';
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

describe('loadCorpus: large cases held one at a time (issue 23)', () => {
  const fixture = () => JSON.parse(readFileSync(projectPath('fixtures/cases/claude-code/json/final.json'), 'utf8')) as { id: string; attempts: { stdout: string }[] };

  it('lets go of the attempts of a case over releaseAbove, and gives them back whole when asked', async () => {
    const dir = path.join(root, 'released');
    mkdirSync(dir);
    const text = readFileSync(projectPath('fixtures/cases/claude-code/json/final.json'), 'utf8');
    writeFileSync(path.join(dir, 'final.json'), text);
    const listed = await loadCorpus(dir, { releaseAbove: 64 });
    const c = listed.cases[0]!;
    expect(c.released?.bytes).toBe(Buffer.byteLength(text));
    expect(c.case.attempts).toEqual([]);
    expect(c.case.id).toBe(fixture().id);
    const { loaded, errors } = await withAttempts(c);
    expect(errors).toEqual([]);
    expect(loaded?.released).toBeUndefined();
    expect(loaded?.case.attempts).toEqual(fixture().attempts);
    // Without the option every case stays whole.
    expect((await loadCorpus(dir)).cases[0]!.case.attempts).toEqual(fixture().attempts);
  });

  it('says the file changed when it is not the file that was checked', async () => {
    const dir = path.join(root, 'changed');
    mkdirSync(dir);
    const file = path.join(dir, 'final.json');
    writeFileSync(file, readFileSync(projectPath('fixtures/cases/claude-code/json/final.json'), 'utf8'));
    const c = (await loadCorpus(dir, { releaseAbove: 64 })).cases[0]!;
    const edited = fixture();
    edited.attempts[0]!.stdout = 'changed';
    writeFileSync(file, JSON.stringify(edited));
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    const { loaded, errors } = await withAttempts(c);
    expect(loaded).toBeUndefined();
    expect(errors[0]?.message).toMatch(/changed while routecert ran/);
  });

  it('reads a case holding a U+FFFD of its own, and still names invalid UTF-8 by byte offset', async () => {
    const value = fixture();
    value.attempts[0]!.stdout = `${value.attempts[0]!.stdout}\uFFFD`;
    const good = path.join(root, 'fffd.json');
    writeFileSync(good, JSON.stringify(value));
    expect((await loadCaseFile(good, 'fffd.json')).loaded?.case.attempts[0]?.stdout.endsWith('\uFFFD')).toBe(true);
    const bad = path.join(root, 'bad-utf8.json');
    writeFileSync(bad, Buffer.concat([Buffer.from('{"id":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]));
    expect((await loadCaseFile(bad, 'bad-utf8.json')).errors[0]?.where).toBe('byte 7');
  });
});
