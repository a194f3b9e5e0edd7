/**
 * A new user's first hour, spawned as a user runs the CLI (the friction a README walkthrough found):
 * a team's `run --config` probes only what its config selects; `init`'s starter cases point to
 * README sections that exist; a contract without `selection` says what to write; a reporter path
 * that does not exist is one line with the reporters that do; an unknown config field (top level
 * or worker) is an error naming it; a malformed `--bin` is refused the same way by every command.
 * Every folder is under a temporary root this file owns.
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

// Finding 4 of a new user's trial: `bogus: 1`, `case` for `cases` and `reporter` for `reporters`
// were ignored without a word (the run passed with the default folder and reporters), while an
// unknown contract field was an error. Now the same error, from the same rule.
describe('an unknown config field (top level or worker)', () => {
  it('is an error naming the file, the field, the known fields and the close one, exit 2, whichever command loads the config', async () => {
    const json = await project('unknown-fields-json', { case: 'cases', reporter: ['dot'], bogus: 1, contracts: [CONTRACT] });
    const ts = await project('unknown-fields-ts', {});
    await writeFile(path.join(ts, 'routecert.config.ts'), `import { defineConfig } from 'routecert';\nexport default defineConfig({ cases: 'cases', reporter: ['dot'], contracts: [${JSON.stringify(CONTRACT)}] } as never);\n`, 'utf8');
    // `run` on the JSON config spawned as a user runs it; the other commands, and the .ts config, in process.
    const runs = [
      { dir: json, file: 'routecert.config.json', args: ['run', '--no-probes', '--reports', 'reports'] },
      { dir: json, file: 'routecert.config.json', args: ['lint'] },
      { dir: json, file: 'routecert.config.json', args: ['probe', '--startup'] },
      { dir: json, file: 'routecert.config.json', args: ['record'] },
      { dir: ts, file: 'routecert.config.ts', args: ['run', '--no-probes', '--reports', 'reports'] },
    ];
    for (const [i, { dir, file, args }] of runs.entries()) {
      const r = await (i === 0 ? routecert : routecertInProcess)([...args, '--config', file], { cwd: dir });
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`config file ${file} is not usable`);
      expect(r.stderr).toContain('unknown field `reporter` (known: contracts, cases, reporters, worker, routes, contract, schema, prompt, finalAnswerMarker, concurrency); did you mean `reporters`?');
      if (file.endsWith('.json')) {
        expect(r.stderr).toContain('unknown field `case` (known: contracts, cases,');
        expect(r.stderr).toContain('did you mean `cases`?');
        expect(r.stderr).toMatch(/unknown field `bogus` \(known: [^)]*\)\n/);
      }
      await expect(readdir(path.join(dir, 'reports'))).rejects.toThrow();
    }
  }, 120_000);

  it("a misspelt worker field (`comand`, `windowEnv.retryMinSecs`, `artifact.strct`) is named by certify, with the worker's known fields", async () => {
    const worker = { name: 'w', comand: ['bash', 'w.sh'], prompt: 'none', windowEnv: { hardWindowS: 'H', retryMinSecs: 'R' }, artifact: { path: '{outDir}/a.json', strct: true } };
    const dir = await project('unknown-worker-fields', { worker, routes: ['claude-code/json'], contract: 'answer', contracts: [CONTRACT] });
    const r = await routecertInProcess(['certify', '--config', 'routecert.config.json'], { cwd: dir });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain('config file routecert.config.json is not usable');
    expect(r.stderr).toContain('unknown field `worker.comand` (known: name, command, run, cwd, prompt, artifact, publish, log, windowEnv, env, routeEnv, files, routeNames, tools, schemaChannel); did you mean `worker.command`?');
    expect(r.stderr).toContain('unknown field `worker.windowEnv.retryMinSecs` (known: hardWindowS, retryMinS, idleWindowS); did you mean `worker.windowEnv.retryMinS`?');
    expect(r.stderr).toContain('unknown field `worker.artifact.strct` (known: path, select, strict, ignore); did you mean `worker.artifact.strict`?');
    expect(r.stdout).not.toContain('certifying');
  }, 120_000);
});

describe('a hand-written case without an id', { timeout: 240_000 }, () => {
  it('is refused naming the command that writes its id; after `record --fix-ids` the run passes', async () => {
    const dir = path.join(root.dir, 'hand-written');
    await mkdir(path.join(dir, 'cases'), { recursive: true });
    const bundled = JSON.parse(await readFile(projectPath('fixtures/cases/claude-code/json/final.json'), 'utf8')) as Record<string, unknown>;
    delete bundled.id;
    await writeFile(path.join(dir, 'cases', 'mine.json'), JSON.stringify(bundled, null, 2), 'utf8');
    const before = await routecert(['run', '--no-probes', '--no-certify', '--cases', 'cases'], { cwd: dir });
    expect(before.exitCode).toBe(2);
    expect(before.stderr).toContain("must have required property 'id' (the id is the content hash: `routecert record --fix-ids --out <its cases folder>` writes it)");
    const fixed = await routecertInProcess(['record', '--fix-ids', '--out', 'cases'], { cwd: dir });
    expect(fixed.exitCode).toBe(0);
    expect(fixed.stdout).toMatch(/mine\.json: id \(none\) -> [0-9a-f]{16}/);
    const after = await routecertInProcess(['run', '--no-probes', '--no-certify', '--cases', 'cases'], { cwd: dir });
    expect(after.exitCode, after.stderr).toBe(0);
  });
});

describe('a path that does not exist', () => {
  it('a missing --config or lint path says what to do next, exit 2, the path as the user gave it', async () => {
    const dir = path.join(root.dir, 'missing-paths');
    await mkdir(dir, { recursive: true });
    const run = await routecert(['run', '--no-probes', '--config', 'nosuch.ts'], { cwd: dir });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('config file nosuch.ts not found: check the path, or write one with `npx routecert init`');
    const lint = await routecertInProcess(['lint', 'nosuch.schema.json'], { cwd: dir });
    expect(lint.exitCode).toBe(2);
    expect(lint.stderr).toContain('lint: no such file or folder: nosuch.schema.json (give *.schema.json files or folders holding them');
  });
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

/** A schema with a boolean `done`: init gives its contract finality { key: 'done' } and a retry policy. */
const DONE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['decision', 'reasons', 'done'],
  properties: { decision: { type: 'string', enum: ['approve', 'reject'] }, reasons: { type: 'array', items: { type: 'string' } }, done: { type: 'boolean' } },
};

/** `init --json --schemas schemas` in a fresh folder holding DONE_SCHEMA; returns the folder. */
async function doneProject(name: string): Promise<string> {
  const dir = path.join(root.dir, name);
  await mkdir(path.join(dir, 'schemas'), { recursive: true });
  await writeFile(path.join(dir, 'schemas', 'decision.schema.json'), JSON.stringify(DONE_SCHEMA), 'utf8');
  const r = await routecert(['init', '--json', '--schemas', 'schemas'], { cwd: dir });
  expect(r.exitCode, r.stdout + r.stderr).toBe(0);
  return dir;
}

describe('a fresh user: a command line that does nothing never passes', { timeout: 240_000 }, () => {
  it('`routecert` without a command prints the help on stderr and exits 2; --help and `help run` exit 0', async () => {
    const none = await routecert([], { cwd: root.dir });
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('Usage: routecert [options] [command]');
    expect((await routecert(['--help'], { cwd: root.dir })).exitCode).toBe(0);
    expect((await routecert(['help', 'run'], { cwd: root.dir })).exitCode).toBe(0);
  });

  it('lint of a folder without *.schema.json exits 2 naming it; beside a folder that has one, it stays a warning', async () => {
    const empty = path.join(root.dir, 'lint-empty');
    const full = path.join(root.dir, 'lint-full');
    await mkdir(empty, { recursive: true });
    await mkdir(full, { recursive: true });
    await writeFile(path.join(full, 'a.schema.json'), JSON.stringify(SCHEMA), 'utf8');
    const r = await routecert(['lint', empty], { cwd: root.dir });
    expect(r.exitCode, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain(`lint: nothing to lint: no *.schema.json file under ${empty}`);
    const both = await routecert(['lint', empty, full], { cwd: root.dir });
    expect(both.exitCode, both.stdout + both.stderr).toBe(0);
    expect(both.stdout).toContain('no-schema-files');
  });

  it("fuzz --config refuses the options of routecert's own properties it would not read; --contract without --config is refused", async () => {
    const dir = await project('fuzz-mode', { contracts: [CONTRACT] });
    for (const extra of [['--property', 'key-spelling'], ['--save'], ['--no-examples']]) {
      const r = await routecert(['fuzz', '--config', 'routecert.config.json', ...extra], { cwd: dir });
      expect(r.exitCode, `${extra.join(' ')}: ${r.stdout}${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`${extra[0]} is an option of routecert's own properties, which --config does not run`);
      expect(r.stdout).not.toContain('ok   contract:');
    }
    const alone = await routecert(['fuzz', '--contract', 'answer', '--runs', '1'], { cwd: dir });
    expect(alone.exitCode).toBe(2);
    expect(alone.stderr).toContain('--contract picks a contract of your config: give --config too');
    const ok = await routecert(['fuzz', '--config', 'routecert.config.json', '--runs', '5', '--seed', '1'], { cwd: dir });
    expect(ok.exitCode, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toContain('ok   contract:answer: 5 runs');
  });
});

describe("a fresh user's team contract", { timeout: 400_000 }, () => {
  it("init's retry paragraph names the contract's own finality key, not the pov contract's words", async () => {
    const dir = await doneProject('init-done');
    const config = JSON.parse(await readFile(path.join(dir, 'routecert.config.json'), 'utf8')) as { contracts: { finality: unknown; retry: { paragraph: string } }[] };
    const [decision] = config.contracts;
    expect(decision!.finality).toEqual({ key: 'done' });
    expect(decision!.retry.paragraph).toContain('"done": true');
    expect(decision!.retry.paragraph).not.toMatch(/position|evidence|Blocked|"final"/);
  });

  it('certify --check nosuch names the option, not the config file, and fails before any work (no "certifying" line, the valid checks listed)', async () => {
    const dir = await doneProject('certify-option');
    const config = JSON.parse(await readFile(path.join(dir, 'routecert.config.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(path.join(dir, 'routecert.config.json'), JSON.stringify({ ...config, worker: { name: 'w', command: ['bash', 'w.sh', '{prompt}'], prompt: 'file', artifact: '{outDir}/a.json', windowEnv: { hardWindowS: 'H', retryMinS: 'R' } }, routes: ['claude-code/json'], contract: 'decision' }), 'utf8');
    for (const [option, value] of [['--check', 'nosuch'], ['--route', 'codex']] as const) {
      const r = await routecert(['certify', option, value], { cwd: dir });
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain(`[routecert] ${option} ${value}: `);
      expect(r.stderr).not.toContain('config file');
      // Refused before the run starts: nothing on stdout (no "certifying ..." line).
      expect(r.stdout).toBe('');
    }
    const nosuch = await routecert(['certify', '--check', 'nosuch'], { cwd: dir });
    expect(nosuch.stderr).toMatch(/Checks: .*accepted-artifact.*forbidden-flags/);
  });

  it('missing-final removes the finality key the contract names (`done`): a worker that publishes an answer without it is refused', async () => {
    const dir = await doneProject('certify-done');
    const config = JSON.parse(await readFile(path.join(dir, 'routecert.config.json'), 'utf8')) as Record<string, unknown>;
    // A worker over the fake claude: publishes structured_output when it is final; `loose` takes any answer whose done is not false.
    const worker = (loose: boolean) =>
      [
        '#!/usr/bin/env bash',
        'out=$(claude -p --output-format json --json-schema "$(cat "$1")" < "$2") || exit 1',
        `printf '%s' "$out" | '${process.execPath}' -e '`,
        'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {',
        '  const e = JSON.parse(s); const a = e.structured_output;',
        '  if (e.is_error || a === null || typeof a !== "object") process.exit(1);',
        `  if (${loose ? 'a.done === false' : 'a.done !== true'}) { console.error("peer skip evidence: non-final decision: " + JSON.stringify(a).slice(0, 200)); process.exit(1); }`,
        '  require("node:fs").writeFileSync(process.argv[1], JSON.stringify(a));',
        `});' "$3"`,
        '',
      ].join('\n');
    await writeFile(path.join(dir, 'strict.sh'), worker(false), 'utf8');
    await writeFile(path.join(dir, 'loose.sh'), worker(true), 'utf8');
    const adapter = (script: string) => ({
      ...config,
      worker: { name: script, command: ['bash', script, '{schema}', '{prompt}', '{out}'], prompt: 'file', artifact: '{outDir}/decision.json', windowEnv: { hardWindowS: 'H', retryMinS: 'R' } },
      routes: ['claude-code/json'],
      contract: 'decision',
    });
    await writeFile(path.join(dir, 'strict.json'), JSON.stringify(adapter('strict.sh')), 'utf8');
    await writeFile(path.join(dir, 'loose.json'), JSON.stringify(adapter('loose.sh')), 'utf8');
    const strict = await routecert(['certify', '--config', 'strict.json', '--check', 'missing-final', '--reports', 'reports'], { cwd: dir });
    expect(strict.exitCode, strict.stdout + strict.stderr).toBe(0);
    expect(strict.stdout).toMatch(/PASS missing-final +case \S+ \(claude-code\/json\/accepted\) with "done" removed, on every call: nothing published/);
    const loose = await routecert(['certify', '--config', 'loose.json', '--check', 'missing-final', '--reports', 'reports'], { cwd: dir });
    expect(loose.exitCode, loose.stdout + loose.stderr).toBe(1);
    expect(loose.stdout).toContain('FAIL missing-final');
    expect(loose.stdout).toContain('although every answer lacked "done"');
  });

  it("a retry check without a non-final case names the step that gives one (record --from), not record --config, which records none", async () => {
    const dir = await doneProject('certify-retry');
    const config = JSON.parse(await readFile(path.join(dir, 'routecert.config.json'), 'utf8')) as Record<string, unknown>;
    // Publishes a final structured_output; never retries (the check that would say so cannot run).
    const script = [
      '#!/usr/bin/env bash',
      'out=$(claude -p --output-format json --json-schema "$(cat "$1")" < "$2") || exit 1',
      `printf '%s' "$out" | '${process.execPath}' -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => { const a = JSON.parse(s).structured_output; if (a && a.done === true) require("node:fs").writeFileSync(process.argv[1], JSON.stringify(a)); });' "$3"`,
      '',
    ].join('\n');
    await writeFile(path.join(dir, 'w.sh'), script, 'utf8');
    const worker = { name: 'w', command: ['bash', 'w.sh', '{schema}', '{prompt}', '{out}'], prompt: 'file', artifact: '{outDir}/decision.json', windowEnv: { hardWindowS: 'H', retryMinS: 'R' } };
    await writeFile(path.join(dir, 'routecert.config.json'), JSON.stringify({ ...config, worker, routes: ['claude-code/json'], contract: 'decision' }), 'utf8');
    const r = await routecert(['certify', '--check', 'retry-once', '--reports', 'reports'], { cwd: dir });
    expect(r.stdout).toContain('retry-once did not run: the corpus has no non-final case and final case for claude-code/json');
    expect(r.stdout).toContain('next step: give the corpus a non-final answer of claude-code/json that the contract retries');
    expect(r.stdout).toContain('npx routecert record --from <capture> --route claude-code/json --expect retry');
    expect(r.stdout).not.toContain('`npx routecert record --config <file>` records one');
  });
});

describe('diff of a run with startup probes against one without', { timeout: 240_000 }, () => {
  it('names each startup cell the later run did not probe (not a regression)', async () => {
    const dir = await doneProject('diff-startup');
    const file = path.join(dir, 'routecert.config.json');
    const config = JSON.parse(await readFile(file, 'utf8')) as { contracts: { clis: string[] }[] };
    config.contracts[0]!.clis = ['claude'];
    await writeFile(file, JSON.stringify(config), 'utf8');
    // A stand-in claude that answers --version and refuses every run (no credentials, no network).
    const fake = path.join(dir, 'fake-claude');
    await writeFile(fake, '#!/bin/sh\nif [ "$1" = "--version" ]; then echo "2.1.332 (Claude Code)"; exit 0; fi\necho "Error: the stand-in claude refuses every run" >&2\nexit 1\n', 'utf8');
    await chmod(fake, 0o755);
    const probed = await routecert(['run', '--bin', `claude=${fake}`, '--reports', 'before', '--no-progress'], { cwd: dir });
    expect(probed.exitCode, probed.stdout + probed.stderr).toBe(1);
    const cases = await routecert(['run', '--no-probes', '--reports', 'after'], { cwd: dir });
    expect(cases.exitCode, cases.stdout + cases.stderr).toBe(0);
    const before = await onlyRun(path.join(dir, 'before'));
    const after = await onlyRun(path.join(dir, 'after'));
    const d = await routecert(['diff', before.dir, after.dir], { cwd: dir });
    const cells = before.report.startupProbes!.rows.flatMap((row) => row.cells);
    expect(cells.length).toBeGreaterThan(0);
    expect(d.stdout.split('\n').filter((l) => l.startsWith('startup ') && l.endsWith('-> not probed in the later run'))).toHaveLength(cells.length);
  });
});
