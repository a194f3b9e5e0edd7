import { lstat, mkdir, mkdtemp, readFile, readdir, readlink, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
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

/** Every entry under `dir` with what it is (a file's text, a link's target), to see that nothing changed. */
async function snapshot(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { recursive: true })) {
    const full = path.join(dir, entry);
    const info = await lstat(full);
    out.push(`${entry} ${info.isSymbolicLink() ? `-> ${await readlink(full)}` : info.isDirectory() ? '/' : await readFile(full, 'utf8')}`);
  }
  return out.sort();
}

type Node = { kind: 'dir'; name: string; children: Node[] } | { kind: 'file'; name: string } | { kind: 'link'; name: string; to: 'outside' | 'outside-file' | 'up' | 'sibling' | 'self' | 'missing' };

const NAMES = ['a', 'b', 'c.json'] as const;
const node: fc.Memo<Node> = fc.memo((n) =>
  fc.oneof(
    { depthSize: 'small' },
    fc.record({ kind: fc.constant('file' as const), name: fc.constantFrom(...NAMES) }),
    fc.record({ kind: fc.constant('link' as const), name: fc.constantFrom(...NAMES), to: fc.constantFrom('outside' as const, 'outside-file' as const, 'up' as const, 'sibling' as const, 'self' as const, 'missing' as const) }),
    n > 1 ? fc.record({ kind: fc.constant('dir' as const), name: fc.constantFrom(...NAMES), children: fc.array(node(n - 1), { maxLength: 3 }) }) : fc.record({ kind: fc.constant('file' as const), name: fc.constantFrom(...NAMES) }),
  ),
);

async function plant(dir: string, nodes: Node[], outside: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const made = new Set<string>();
  for (const n of nodes) {
    if (made.has(n.name)) continue;
    made.add(n.name);
    const at = path.join(dir, n.name);
    if (n.kind === 'file') await writeFile(at, 'planted');
    else if (n.kind === 'dir') await plant(at, n.children, outside);
    else {
      const to = { outside, 'outside-file': path.join(outside, 'kept.json'), up: '..', sibling: 'a', self: n.name, missing: 'nowhere' }[n.to];
      await symlink(to, at);
    }
  }
}

describe('writeFileExclusive on generated folders of links (property)', () => {
  it('whatever the links under --out and the path asked for, nothing outside --out changes: the case is written inside it, or refused', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(node(3), { maxLength: 5 }),
        fc.array(fc.constantFrom('a', 'b', 'c.json', '..', '.', 'new'), { minLength: 0, maxLength: 4 }),
        fc.constantFrom('a', 'c.json', 'new.json'),
        fc.boolean(),
        async (tree, steps, name, force) => {
          const base = path.join(root, `prop-${(run += 1)}`);
          const out = path.join(base, 'out');
          const outside = path.join(base, 'outside');
          await mkdir(outside, { recursive: true });
          await writeFile(path.join(outside, 'kept.json'), 'kept');
          await plant(out, tree, outside);
          const before = await snapshot(outside);
          const file = path.join(out, ...steps, name);
          let outcome: string;
          try {
            outcome = await writeFileExclusive(out, file, 'new text', force);
          } catch (error) {
            expect(error, String(error)).toBeInstanceOf(UnsafeCasePathError);
            outcome = 'refused';
          }
          expect(await snapshot(outside)).toEqual(before);
          expect((await readdir(base)).sort()).toEqual(['out', 'outside']);
          if (outcome === 'written') {
            const real = await realpath(file);
            expect(path.relative(await realpath(out), real).startsWith('..')).toBe(false);
            expect(await readFile(real, 'utf8')).toBe('new text');
          }
          await rm(base, { recursive: true, force: true });
        },
      ),
      { numRuns: 200, seed: 2323 },
    );
  }, 120_000);
});
