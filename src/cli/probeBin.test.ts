import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routecert, tempRoot } from './cliTestKit.ts';

// Issue 21.10: one resolution of the CLI under test for every probe command (--bin, else
// ROUTECERT_BIN_<CLI>, else the installed one), and the version of the binary it ran.
describe('probe: --bin is honoured by every command', () => {
  let root: Awaited<ReturnType<typeof tempRoot>>;
  let fake: string;
  beforeAll(async () => {
    root = await tempRoot('probe-bin');
    await mkdir(path.join(root.dir, 'candidate'), { recursive: true });
    fake = path.join(root.dir, 'candidate', 'claude');
    await writeFile(fake, '#!/bin/sh\necho "9.9.901 (Claude Code)"\n', 'utf8');
    await chmod(fake, 0o755);
  });
  afterAll(() => root.remove());

  it('--list names the candidate and its version, by --bin and by ROUTECERT_BIN_CLAUDE', async () => {
    for (const how of [{ args: ['--bin', `claude=${fake}`], env: {} }, { args: [], env: { ROUTECERT_BIN_CLAUDE: fake } }]) {
      const r = await routecert(['probe', '--list', '--json', ...how.args], { cwd: root.dir, env: how.env });
      expect(r.exitCode, r.stderr).toBe(0);
      const claude = (JSON.parse(r.stdout) as { name: string; version: string | null; where: string | null }[]).find((row) => row.name === 'claude')!;
      expect(claude.version).toBe('9.9.901');
      expect(claude.where).toBe(`candidate ${fake}`);
    }
  }, 60_000);

  it('--startup-table and --startup --config use the candidate: one that cannot run stops them before any probe (exit 2)', async () => {
    const missing = path.join(root.dir, 'no-such-claude');
    const config = path.join(root.dir, 'routecert.config.json');
    await writeFile(path.join(root.dir, 'answer.schema.json'), JSON.stringify({ type: 'object', required: ['answer'], properties: { answer: { type: 'string' } } }), 'utf8');
    await writeFile(config, JSON.stringify({ contracts: [{ name: 'answer', schema: 'answer.schema.json', anchor: 'answer', finality: 'none', selection: 'score', clis: ['claude'] }] }), 'utf8');
    for (const args of [['probe', '--startup-table'], ['probe', '--startup', '--config', config]]) {
      const r = await routecert([...args, '--bin', `claude=${missing}`], { cwd: root.dir });
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(missing);
    }
  }, 60_000);
});
