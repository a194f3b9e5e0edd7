/**
 * Case discovery on generated hostile case folders (issue 23 point 4): nested folders, links to
 * ancestors and siblings (loops), second links to one file, named pipes called `*.json`, dangling
 * links, BOMs, invalid UTF-8 and copied cases. Whatever the tree, discovery ends, reads each file
 * once by its real path, never opens a pipe, and names every file it did not load.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectPath } from '#src/paths.ts';
import { caseId } from './caseId.ts';
import { discoverCaseFiles, firstInvalidUtf8, loadCorpus } from './corpus.ts';

let root: string;
let sample: Record<string, unknown>;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'routecert-discovery-'));
  sample = JSON.parse(await readFile(projectPath('fixtures/cases/contracts/findings-code/claude-code/json/claude-structured-populated.json'), 'utf8')) as Record<string, unknown>;
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

type Entry =
  | { kind: 'case'; n: number }
  | { kind: 'copy' }
  | { kind: 'dir'; entries: Entry[] }
  | { kind: 'link-up'; levels: number }
  | { kind: 'link-file' }
  | { kind: 'fifo' }
  | { kind: 'dangling' }
  | { kind: 'bom' }
  | { kind: 'bad-utf8'; at: number }
  | { kind: 'text' };

const entry: fc.Memo<Entry> = fc.memo((n) =>
  fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ kind: fc.constant('case' as const), n: fc.nat(1000) }),
    fc.constant({ kind: 'copy' as const }),
    fc.record({ kind: fc.constant('link-up' as const), levels: fc.integer({ min: 0, max: 3 }) }),
    fc.constant({ kind: 'link-file' as const }),
    fc.constant({ kind: 'fifo' as const }),
    fc.constant({ kind: 'dangling' as const }),
    fc.constant({ kind: 'bom' as const }),
    fc.record({ kind: fc.constant('bad-utf8' as const), at: fc.nat(200) }),
    fc.constant({ kind: 'text' as const }),
    n > 1 ? fc.record({ kind: fc.constant('dir' as const), entries: fc.array(entry(n - 1), { maxLength: 4 }) }) : fc.constant({ kind: 'text' as const }),
  ),
);

interface Expected {
  cases: Set<string>;
  fifos: string[];
  bad: string[];
  ids: Map<string, number>;
}

async function build(dir: string, entries: Entry[], depth: number, expected: Expected, firstCase: { file: string | null }): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const [i, e] of entries.entries()) {
    const name = path.join(dir, `e${i}`);
    const caseText = (n: number): string => {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test edits any field of a case
      const c = structuredClone(sample) as Record<string, any>;
      c.description = `generated ${n}`;
      c.expect = { verdict: 'accepted', origin: 'structured_output', attempt: 0 };
      c.attempts[0].elapsedMs = n;
      c.id = caseId(c as Parameters<typeof caseId>[0]);
      return JSON.stringify(c);
    };
    switch (e.kind) {
      case 'case': {
        const text = caseText(e.n);
        await writeFile(`${name}.json`, text);
        const id = JSON.parse(text).id as string;
        expected.ids.set(id, (expected.ids.get(id) ?? 0) + 1);
        expected.cases.add(await realpath(`${name}.json`));
        firstCase.file ??= `${name}.json`;
        break;
      }
      case 'copy': {
        const text = caseText(1001);
        await writeFile(`${name}.json`, text);
        const id = JSON.parse(text).id as string;
        expected.ids.set(id, (expected.ids.get(id) ?? 0) + 1);
        expected.cases.add(await realpath(`${name}.json`));
        break;
      }
      case 'dir':
        await build(name, e.entries, depth + 1, expected, firstCase);
        break;
      case 'link-up':
        await symlink(path.join(...Array<string>(Math.min(e.levels, depth)).fill('..'), '.'), name);
        break;
      case 'link-file':
        if (firstCase.file) await symlink(firstCase.file, `${name}.json`);
        break;
      case 'fifo':
        execFileSync('mkfifo', [`${name}.json`]);
        expected.fifos.push(`${name}.json`);
        break;
      case 'dangling':
        await symlink(`${name}-missing.json`, `${name}.json`);
        expected.bad.push(`${name}.json`);
        break;
      case 'bom':
        await writeFile(`${name}.json`, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(caseText(7))]));
        expected.bad.push(`${name}.json`);
        break;
      case 'bad-utf8': {
        const bytes = Buffer.from(caseText(8));
        bytes[Math.min(e.at, bytes.length - 1)] = 0xc0;
        await writeFile(`${name}.json`, bytes);
        expected.bad.push(`${name}.json`);
        break;
      }
      case 'text':
        await writeFile(`${name}.txt`, 'not a case');
        break;
    }
  }
}

describe('case discovery on generated hostile folders (property)', () => {
  it('ends, reads each case once by real path, never opens a pipe, names every file it skipped or could not load', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(entry(3), { maxLength: 6 }), async (entries) => {
        const dir = path.join(root, `t${(run += 1)}`);
        const expected: Expected = { cases: new Set(), fifos: [], bad: [], ids: new Map() };
        await build(dir, entries, 0, expected, { file: null });
        const found = await discoverCaseFiles(dir);
        const reals = await Promise.all(found.files.map((f) => realpath(f)));
        // Each file once by its real path, and every regular case file found.
        expect(new Set(reals).size).toBe(reals.length);
        for (const c of expected.cases) expect(reals).toContain(c);
        // Pipes are named and never in the files to read.
        const rel = (p: string) => path.relative(process.cwd(), p) || p;
        for (const fifo of expected.fifos) {
          expect(found.files).not.toContain(fifo);
          expect(found.skipped.map((s) => s.file)).toContain(rel(fifo));
        }
        const corpus = await loadCorpus(dir);
        const named = new Set(corpus.errors.map((e) => e.file));
        for (const bad of expected.bad) expect(named.has(rel(bad)), `${bad} not named`).toBe(true);
        // A duplicated id is an error; each id runs once.
        const ids = corpus.cases.map((c) => c.case.id);
        expect(new Set(ids).size).toBe(ids.length);
        for (const [id, count] of expected.ids) if (count > 1) expect(corpus.errors.some((e) => e.message.startsWith(`id ${id} is also the id of`)), `duplicate ${id}: ${JSON.stringify(corpus.errors)}`).toBe(true);
        await rm(dir, { recursive: true, force: true });
      }),
      { numRuns: 30, seed: Number(process.env.ROUTECERT_SEED ?? 2323), endOnFailure: true },
    );
  }, 120_000);
});

describe('firstInvalidUtf8', () => {
  it('finds the first byte of an ill-formed sequence, agrees with the decoder on well-formed text', () => {
    expect(firstInvalidUtf8(Buffer.from('héllo ✓ 😀'))).toBe(Buffer.byteLength('héllo ✓ 😀'));
    expect(firstInvalidUtf8(Buffer.from([0x61, 0xc0, 0x80]))).toBe(1); // overlong
    expect(firstInvalidUtf8(Buffer.from([0x61, 0x62, 0xed, 0xa0, 0x80]))).toBe(2); // surrogate
    expect(firstInvalidUtf8(Buffer.from([0xe2, 0x9c]))).toBe(0); // truncated
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const at = firstInvalidUtf8(bytes);
        let valid = true;
        try {
          new TextDecoder('utf-8', { fatal: true }).decode(bytes);
        } catch {
          valid = false;
        }
        expect(at === bytes.length).toBe(valid);
      }),
      { seed: 2323, numRuns: 500 },
    );
  });
});
