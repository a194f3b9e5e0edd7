/**
 * A `--reports` that cannot hold a run folder (issue 23 repeated on hostile inputs: `--reports`
 * naming a file) is a usage error, exit 2, named before anything runs: not an internal error (exit
 * 3) after the run, and for `certify` not after a whole certification whose certificate is lost.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectPath } from '#src/paths.ts';
import { routecert, smallCorpus, tempRoot } from './cliTestKit.ts';

let root: { dir: string; remove: () => Promise<void> };
beforeAll(async () => {
  root = await tempRoot('reports-folder');
});
afterAll(async () => {
  await root.remove();
});

describe('--reports naming a file', () => {
  it('run: exit 2 naming --reports, no internal error, the file untouched', async () => {
    const { dir } = await smallCorpus(path.join(root.dir, 'cases'));
    const file = path.join(root.dir, 'a-file');
    await writeFile(file, 'mine\n');
    const r = await routecert(['run', '--no-probes', '--no-certify', '--cases', dir, '--reports', file], { cwd: root.dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('is not a folder');
    expect(r.stderr).toContain('--reports');
    expect(r.stderr).not.toContain('internal error');
    expect(await readFile(file, 'utf8')).toBe('mine\n');
  });

  it('certify: exit 2 before the certification starts (a file on the path of --reports)', async () => {
    const file = path.join(root.dir, 'b-file');
    await writeFile(file, 'mine\n');
    const r = await routecert(['certify', '--config', projectPath('examples/bash-worker/routecert.config.ts'), '--reports', path.join(file, 'sub')], { cwd: root.dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--reports .*b-file.sub is not a folder/);
    expect(r.stderr).not.toContain('internal error');
    // Nothing was certified: no check line, no certificate line.
    expect(r.stdout).not.toContain('certifying');
    expect(r.stdout).not.toMatch(/PASS|FAIL|certificate:/);
  });
});
