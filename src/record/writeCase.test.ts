import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnsafeCasePathError, writeFileExclusive } from './writeCase.ts';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'routecert-writecase-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('writeFileExclusive', () => {
  it('two writers of one new case: exactly one writes it, the other is told it exists', async () => {
    const out = path.join(root, 'race');
    const file = path.join(out, 'a', 'case.json');
    const results = await Promise.all(['one', 'two', 'three'].map((t) => writeFileExclusive(out, file, t)));
    expect(results.filter((r) => r === 'written')).toHaveLength(1);
    expect(['one', 'two', 'three'][results.indexOf('written')]).toBe(await readFile(file, 'utf8'));
  });

  it('never writes through a symlink, nor outside its root', async () => {
    const out = path.join(root, 'links');
    await mkdir(out, { recursive: true });
    const outside = path.join(root, 'outside.json');
    await writeFile(outside, 'kept');
    await symlink(outside, path.join(out, 'linked.json'));
    await expect(writeFileExclusive(out, path.join(out, 'linked.json'), 'x', true)).rejects.toThrow(UnsafeCasePathError);
    await symlink(root, path.join(out, 'up'));
    await expect(writeFileExclusive(out, path.join(out, 'up', 'escaped.json'), 'x')).rejects.toThrow(/leads outside/);
    await expect(writeFileExclusive(out, path.join(out, '..', 'dotdot.json'), 'x')).rejects.toThrow(/outside/);
    expect(await readFile(outside, 'utf8')).toBe('kept');
  });

  it('with force, replaces a file at once (no half-written file under the name)', async () => {
    const out = path.join(root, 'force');
    const file = path.join(out, 'c.json');
    expect(await writeFileExclusive(out, file, 'first')).toBe('written');
    expect(await writeFileExclusive(out, file, 'second')).toBe('exists');
    expect(await writeFileExclusive(out, file, 'third', true)).toBe('written');
    expect(await readFile(file, 'utf8')).toBe('third');
  });
});
