/**
 * Nothing left behind (issue 23, repeated): a run stopped by SIGTERM while its probes run removes
 * each probe's throwaway folder (`routecert-probe-*`: HOME, cwd, tmp); they were left in the temp
 * folder because the process ended before the probes' own clean-up ran.
 */
import { chmod, cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { projectPath } from '#src/paths.ts';
import { BUNDLED_CASES, tempRoot } from './cliTestKit.ts';

let root: { dir: string; remove: () => Promise<void> };
beforeAll(async () => {
  root = await tempRoot('interrupt-temp');
});
afterAll(async () => {
  await root.remove();
});

describe('SIGTERM during probes', () => {
  it("removes every probe's temp folder before routecert exits 143", async () => {
    const dir = root.dir;
    const tmp = path.join(dir, 'tmp');
    await mkdir(path.join(dir, 'cases'), { recursive: true });
    await mkdir(tmp);
    await cp(path.join(BUNDLED_CASES, 'claude-code/json/final.json'), path.join(dir, 'cases', 'final.json'));
    // A claude that answers --version and otherwise hangs, saying so in `started`.
    const started = path.join(dir, 'started');
    const bin = path.join(dir, 'claude');
    await writeFile(bin, `#!/bin/sh\nif [ "$1" = "--version" ]; then echo "2.1.332 (Claude Code)"; exit 0; fi\necho $$ >> ${started}\nexec sleep 1000\n`);
    await chmod(bin, 0o755);
    const child = execa('node', [projectPath('bin/routecert.js'), 'run', '--no-certify', '--no-progress', '--route', 'claude-code/json', '--cases', 'cases', '--reports', 'reports', '--bin', `claude=${bin}`, '--probe-timeout', '600000'], {
      cwd: dir,
      reject: false,
      stdin: 'ignore',
      env: { NO_COLOR: '1', CI: '', GITHUB_ACTIONS: '', TMPDIR: tmp },
    });
    let ended = false;
    void child.then(() => (ended = true));
    // However long the start takes: until a probed CLI runs (its folder exists by then).
    while (!(await readFile(started, 'utf8').catch(() => ''))) {
      if (ended) throw new Error(`routecert ended before a probe started: ${String((await child).stderr)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    child.kill('SIGTERM');
    const r = await child;
    expect(r.exitCode, String(r.stderr)).toBe(143);
    expect((await readdir(tmp)).filter((n) => n.startsWith('routecert-'))).toEqual([]);
  });
});
