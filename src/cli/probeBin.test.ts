import { chmod, mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routecert, routecertInProcess, tempRoot } from './cliTestKit.ts';

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

// Finding 1 of a new user's trial: `--bin cluade=<candidate>` was accepted by every command, and
// `run` and `probe --list` went on (exit 0) past a candidate that cannot be run, probing the pinned
// or PATH version instead. One check (src/cli/probeTarget.ts `candidateProblems`, called by
// src/cli/main.ts for every command that takes --bin) stops them all before anything runs.
describe('--bin: a name of no CLI, or a candidate that cannot be run, stops every command before it starts', () => {
  let root: Awaited<ReturnType<typeof tempRoot>>;
  let team: string;
  beforeAll(async () => {
    root = await tempRoot('bin-refused');
    team = path.join(root.dir, 'team');
    await mkdir(path.join(team, 'cases'), { recursive: true });
    await writeFile(path.join(team, 'answer.schema.json'), JSON.stringify({ type: 'object', required: ['answer'], properties: { answer: { type: 'string' } } }), 'utf8');
    await writeFile(
      path.join(team, 'routecert.config.json'),
      JSON.stringify({ cases: 'cases', contracts: [{ name: 'answer', schema: 'answer.schema.json', anchor: 'answer', finality: 'none', selection: 'score', clis: ['claude', 'codex'] }] }),
      'utf8',
    );
  });
  afterAll(() => root.remove());

  /**
   * Every command that takes --bin, as a new user types it, in the team folder; `run` also without a
   * config (the bundled corpus, in the root folder, which has none).
   */
  const COMMANDS = [
    { args: ['run', '--reports', 'reports'], where: 'team' },
    { args: ['run', '--no-certify', '--route', 'claude-code/json', '--reports', 'reports'], where: 'root' },
    { args: ['probe', '--list'], where: 'team' },
    { args: ['probe', '--cli', 'claude'], where: 'team' },
    { args: ['probe', '--startup-table'], where: 'team' },
    { args: ['record', '--config'], where: 'team' },
  ] as const;
  const cwdOf = (where: 'team' | 'root'): string => (where === 'team' ? team : root.dir);
  /** Nothing was judged: neither folder got a reports/ folder. */
  const nothingWritten = async (): Promise<void> => {
    for (const dir of [team, root.dir]) await expect(readdir(path.join(dir, 'reports'))).rejects.toThrow();
  };

  it('--bin cluade=... (a typo of claude) and ROUTECERT_BIN_CLUADE: exit 2 with "did you mean" and the names it takes, nothing written', async () => {
    // The first, `run` with the team's config, is spawned as a user runs it; the others in process.
    for (const [i, command] of COMMANDS.entries()) {
      const run = i === 0 ? routecert : routecertInProcess;
      const r = await run([...command.args, '--bin', 'cluade=candidate/claude'], { cwd: cwdOf(command.where) });
      expect(r.exitCode, `${command.args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`--bin cluade=${path.join(cwdOf(command.where), 'candidate', 'claude')} names no CLI routecert probes; did you mean "claude"? The CLIs --bin takes: claude, codex,`);
    }
    const fromEnv = await routecertInProcess(['probe', '--list'], { cwd: team, env: { ROUTECERT_BIN_CLUADE: 'candidate/claude' } });
    expect(fromEnv.exitCode, fromEnv.stderr).toBe(2);
    expect(fromEnv.stderr).toContain('the environment variable ROUTECERT_BIN_CLUADE names no CLI routecert probes; did you mean "ROUTECERT_BIN_CLAUDE"?');
    expect(fromEnv.stdout).toBe('');
    await nothingWritten();
  }, 240_000);

  it('a candidate that is not there: run (with or without a config) and probe --list stop too, exit 2, naming the path and what to do', async () => {
    for (const [i, command] of COMMANDS.entries()) {
      const run = i === 0 ? routecert : routecertInProcess;
      const r = await run([...command.args, '--bin', 'claude=nosuch'], { cwd: cwdOf(command.where) });
      expect(r.exitCode, `${command.args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`the candidate binary of claude (--bin claude=${path.join(cwdOf(command.where), 'nosuch')}) is not an executable file, nor a prefix folder with node_modules/.bin/claude: nothing is there.`);
      expect(r.stderr).toContain('or drop --bin claude to probe the installed claude');
      // Stopped before it started: no case judged, no CLI listed, no probe.
      expect(r.stdout, command.args.join(' ')).toBe('');
    }
    const missing = path.join(team, 'nosuch');
    const fromEnv = await routecertInProcess(['run', '--reports', 'reports'], { cwd: team, env: { ROUTECERT_BIN_CLAUDE: 'nosuch' } });
    expect(fromEnv.exitCode, fromEnv.stderr).toBe(2);
    expect(fromEnv.stderr).toContain(`the candidate binary of claude (ROUTECERT_BIN_CLAUDE=${missing})`);
    expect(fromEnv.stderr).toContain('or drop ROUTECERT_BIN_CLAUDE to probe');
    await nothingWritten();
  }, 240_000);
});
