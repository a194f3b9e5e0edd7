/**
 * A new user's first hour, spawned as a user runs the CLI (the friction a README walkthrough found):
 * a team's `run --config` probes only what its config selects; `init`'s starter cases point to
 * README sections that exist; a contract without `selection` says what to write; a reporter path
 * that does not exist is one line with the reporters that do; a malformed `--bin` is refused the
 * same way by every command. Every folder is under a temporary root this file owns.
 */
import { chmod, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectPath } from '#src/paths.ts';
import { onlyRun, routecert, routecertInProcess, tempRoot } from './cliTestKit.ts';

let root: Awaited<ReturnType<typeof tempRoot>>;

beforeAll(async () => {
  root = await tempRoot('new-user');
});
afterAll(() => root.remove());

const SCHEMA = { type: 'object', additionalProperties: false, required: ['answer'], properties: { answer: { type: 'string' } } };
const CONTRACT = { name: 'answer', schema: 'answer.schema.json', anchor: 'answer', finality: 'none', selection: 'score', clis: ['claude'] };

/** A folder with answer.schema.json, an empty cases/ and `config` as routecert.config.json. */
async function project(name: string, config: unknown): Promise<string> {
  const dir = path.join(root.dir, name);
  await mkdir(path.join(dir, 'cases'), { recursive: true });
  await writeFile(path.join(dir, 'answer.schema.json'), JSON.stringify(SCHEMA), 'utf8');
  await writeFile(path.join(dir, 'routecert.config.json'), JSON.stringify(config), 'utf8');
  return dir;
}

/** The `## ...` headings of README.md, without the hashes. */
async function readmeHeadings(): Promise<Set<string>> {
  const readme = await readFile(projectPath('README.md'), 'utf8');
  return new Set(readme.split('\n').filter((l) => /^#{1,6} /.test(l)).map((l) => l.replace(/^#+ /, '').trim()));
}

describe("a team's run probes only what its config selects", () => {
  it('run --config with probes sends only the config schemas, only to the CLIs its contracts name: no keyword canaries', async () => {
    const dir = await project('team-run', { contracts: [CONTRACT] });
    // A stand-in claude: answers --version, logs every other run, refuses it (no credentials, no network).
    const fake = path.join(dir, 'fake-claude');
    await writeFile(fake, `#!/bin/sh\nif [ "$1" = "--version" ]; then echo "2.1.332 (Claude Code)"; exit 0; fi\necho run >> "${path.join(dir, 'calls.log')}"\necho "Error: the stand-in claude refuses every run" >&2\nexit 1\n`, 'utf8');
    await chmod(fake, 0o755);
    const reports = path.join(dir, 'reports');
    const r = await routecert(['run', '--config', 'routecert.config.json', '--bin', `claude=${fake}`, '--reports', reports, '--no-progress'], { cwd: dir });
    // The contract's CLI refuses its schema: a conformance failure of the team's run.
    expect(r.exitCode, r.stdout + r.stderr).toBe(1);
    const { report } = await onlyRun(reports);
    const table = report.startupProbes!;
    expect(table.rows.length).toBeGreaterThan(0);
    expect(table.rows.every((row) => row.id.startsWith('production:answer@')), table.rows.map((row) => row.id).join(', ')).toBe(true);
    expect(table.columns.map((c) => c.cli)).toEqual(['claude']);
    // Every run of the stand-in is one rejected cell: the config's schema under a claude output format.
    const calls = (await readFile(path.join(dir, 'calls.log'), 'utf8')).trim().split('\n');
    const rejected = table.rows.flatMap((row) => row.cells).filter((c) => c.outcome === 'rejected');
    expect(calls.length).toBe(rejected.length);
    expect(rejected.length).toBeGreaterThan(0);
    expect(rejected.length).toBeLessThanOrEqual(3);
  }, 240_000);
});

describe('init', () => {
  it("the starter cases' provenance.ref names README sections that exist", async () => {
    const dir = path.join(root.dir, 'init');
    await mkdir(dir, { recursive: true });
    const r = await routecert(['init', '--json'], { cwd: dir });
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    const folder = path.join(dir, 'cases', 'answer');
    const headings = await readmeHeadings();
    for (const file of await readdir(folder)) {
      const ref = (JSON.parse(await readFile(path.join(folder, file), 'utf8')) as { provenance: { ref: string } }).provenance.ref;
      const named = [...ref.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
      expect(named.length, ref).toBeGreaterThan(0);
      for (const title of named) expect(headings.has(title), `${file}: README has no section "${title}"`).toBe(true);
    }
  }, 120_000);

  it('every README section the sources name (README "...") exists', async () => {
    const headings = await readmeHeadings();
    const files: string[] = [];
    const walk = async (d: string): Promise<void> => {
      for (const e of await readdir(d, { withFileTypes: true })) {
        if (e.isDirectory()) await walk(path.join(d, e.name));
        else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) files.push(path.join(d, e.name));
      }
    };
    await walk(projectPath('src'));
    const named = new Set<string>();
    for (const f of files) {
      for (const m of (await readFile(f, 'utf8')).matchAll(/README (?:section )?"([^"]+)"(?: and "([^"]+)")?/g)) {
        named.add(m[1]!);
        if (m[2]) named.add(m[2]);
      }
    }
    expect(named.size).toBeGreaterThan(2);
    expect([...named].filter((t) => !headings.has(t))).toEqual([]);
  });
});

describe('a contract without `selection`', () => {
  it('is an error naming the file and the field, saying what to write (JSON and .ts config), exit 2', async () => {
    const { selection: _s, ...withoutSelection } = CONTRACT;
    const json = await project('no-selection-json', { contracts: [withoutSelection] });
    const ts = await project('no-selection-ts', {});
    await writeFile(
      path.join(ts, 'routecert.config.ts'),
      `import { defineConfig, defineContract } from 'routecert';\nexport default defineConfig({ contracts: [defineContract(${JSON.stringify(withoutSelection)} as never)] });\n`,
      'utf8',
    );
    // The JSON config spawned as a user runs it; the .ts one through the same loader in process.
    for (const [dir, file] of [
      [json, 'routecert.config.json'],
      [ts, 'routecert.config.ts'],
    ] as const) {
      const r = file.endsWith('.json') ? await routecert(['run', '--config', file, '--no-probes'], { cwd: dir }) : await routecertInProcess(['run', '--config', file, '--no-probes'], { cwd: dir });
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain(`config file ${file} is not usable`);
      expect(r.stderr).toContain('`selection` is missing: add "selection": "score"');
      expect(r.stderr).toContain('"selection": "last-shaped"');
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  }, 120_000);
});

describe('--reporter with a path that does not exist', () => {
  it('is one line naming the path and the reporters that exist, exit 2, and writes nothing', async () => {
    const dir = path.join(root.dir, 'reporter');
    await mkdir(dir, { recursive: true });
    const r = await routecert(['run', '--no-probes', '--reporter', './nosuch.mjs', '--reports', 'reports'], { cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`--reporter ./nosuch.mjs: no such file (${path.join(dir, 'nosuch.mjs')})`);
    expect(r.stderr).toContain('Reporters: default, verbose, dot, json, junit, markdown, html, github');
    expect(r.stderr).not.toContain('Require stack');
    await expect(readdir(path.join(dir, 'reports'))).rejects.toThrow();
  }, 120_000);
});

describe('a malformed --bin', () => {
  it('is refused by one rule, with the same words and exit 2, whichever command takes it', async () => {
    // `run` spawned as a user runs it; the other commands hold the same rule in process.
    for (const command of [['run', '--no-probes'], ['probe', '--list'], ['record', '--config', 'x.json']]) {
      const r = command[0] === 'run' ? await routecert([...command, '--bin', 'claude'], { cwd: root.dir }) : await routecertInProcess([...command, '--bin', 'claude'], { cwd: root.dir });
      expect(r.exitCode, `${command.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`option '--bin <cli=path>' argument 'claude' is invalid. --bin takes <cli>=<path>`);
    }
    const twice = await routecertInProcess(['probe', '--list', '--bin', 'claude=a', '--bin', 'claude=b'], { cwd: root.dir });
    expect(twice.exitCode).toBe(2);
    expect(twice.stderr).toContain('--bin names claude twice');
  }, 400_000);
});
