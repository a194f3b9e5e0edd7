/**
 * A case file can carry terminal control sequences (issue 23 repeated on hostile inputs): a
 * description holding `\r`, an OSC title and a screen clear made `run` send them to the user's
 * terminal, where `\r PASS` overwrote the `FAIL` of that very line. The console shows them instead.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editCase, routecert, smallCorpus, tempRoot } from './cliTestKit.ts';

let root: { dir: string; remove: () => Promise<void> };
beforeAll(async () => {
  root = await tempRoot('terminal');
});
afterAll(async () => {
  await root.remove();
});

describe('control characters of a case never reach the terminal', () => {
  it('run: a description with \\r, OSC and CSI sequences is printed shown, its FAIL line intact', async () => {
    const { dir, failing } = await smallCorpus(path.join(root.dir, 'cases'));
    await editCase(path.join(dir, 'claude-code/json/final.json'), (c) => {
      c.description = 'evil \u001b]0;OWNED\u0007\u001b[2J\u009b1A\r\rPASS all good';
    });
    const r = await routecert(['run', '--no-probes', '--no-certify', '--cases', dir, '--reports', path.join(root.dir, 'reports')], { cwd: root.dir });
    expect(r.exitCode).toBe(1);
    // NO_COLOR (the kit's default): nothing routecert prints holds a control character but newline and tab.
    const controls = (out: string): string[] => [...out].filter((ch) => {
      const c = ch.charCodeAt(0);
      return (c < 0x20 && c !== 0x0a && c !== 0x09) || (c >= 0x7f && c <= 0x9f);
    });
    expect(controls(r.stdout)).toEqual([]);
    expect(controls(r.stderr)).toEqual([]);
    const line = r.stdout.split('\n').find((l) => l.includes(failing))!;
    expect(line).toMatch(/^FAIL /);
    expect(line).toContain('evil \\x1b]0;OWNED\\x07\\x1b[2J\\x9b1A\\x0d\\x0dPASS all good');
  });
});
