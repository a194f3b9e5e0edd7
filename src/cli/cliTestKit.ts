/**
 * For the CLI tests: spawn `routecert` as a user does (bin/routecert.js through execa), in a temp
 * root each test file owns, with a quiet, colourless, non-CI environment unless a test says otherwise.
 */
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { execa } from 'execa';
import { projectPath } from '#src/paths.ts';
import type { RunReport } from '#src/report/types.ts';
import { CANARIES, leakedMarkers } from '#src/record/canaries.ts';

/** The bundled corpus folder. */
export const BUNDLED_CASES = projectPath('fixtures/cases');

/** A bundled findings case whose accepted answer the hostile tests fill with canaries and odd values. */
export const FINDINGS_CASE = path.join(BUNDLED_CASES, 'contracts/findings-code/claude-code/json/claude-structured-populated.json');

/** A temp root for one test file; `remove()` in afterAll. */
export async function tempRoot(name: string): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), `routecert-${name}-`));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Run `routecert <args>` in `cwd`; never throws (the exit code is the result's). `env` is added to a
 * copy of this process's environment with NO_COLOR=1 and CI, GITHUB_ACTIONS, GITHUB_STEP_SUMMARY and
 * FORCE_COLOR cleared.
 */
export async function routecert(args: string[], options: { cwd: string; env?: Record<string, string | undefined>; timeoutMs?: number }): Promise<{ exitCode: number | undefined; stdout: string; stderr: string }> {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', CI: undefined, GITHUB_ACTIONS: undefined, GITHUB_STEP_SUMMARY: undefined, FORCE_COLOR: undefined, ...options.env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  const r = await execa('node', [projectPath('bin/routecert.js'), ...args], { cwd: options.cwd, env, extendEnv: false, reject: false, timeout: options.timeoutMs ?? 240_000, stdin: 'ignore' });
  // A run that never started or was killed (no exit code) says why in its stderr, so that a test
  // failing on it shows the cause, not an empty string (a CI run under load once got '' here).
  const why = r.exitCode === undefined ? `\n[cliTestKit] routecert gave no exit code: ${r.signal ? `signal ${r.signal}; ` : ''}${r.shortMessage}` : '';
  return { exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) + why };
}

/** Where the in-process console writes go while {@link routecertInProcess} runs a command. */
let sink: { stdout: string[]; stderr: string[] } | null = null;
let teeInstalled = false;
/** One chain: a command in process owns the working folder, the environment and the console. */
let queue: Promise<unknown> = Promise.resolve();

/** Route this process's stdout and stderr writes to `sink` while one is set (installed once, kept). */
function installTee(): void {
  if (teeInstalled) return;
  teeInstalled = true;
  for (const [stream, key] of [
    [process.stdout, 'stdout'],
    [process.stderr, 'stderr'],
  ] as const) {
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (sink === null) return write(chunk, ...rest);
      sink[key].push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
      const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      callback?.();
      return true;
    }) as typeof stream.write;
  }
}

/**
 * Run `routecert <args>` in this process: src/cli/main.ts `main`, the function bin/routecert.js
 * calls, in `cwd`, with the environment {@link routecert} gives a child and the console captured.
 * For the many inputs of one rule (argument checks, filters that select nothing, config errors),
 * where a spawn adds a Node start-up and nothing the test asserts; each such behaviour keeps one
 * spawned test. Not for what only a process shows: colours (picocolors reads the environment
 * once, at import), signals, a command that ends the process, or a config file imported twice.
 * Calls are serialised (they share the working folder, the environment and the console).
 */
export function routecertInProcess(args: string[], options: { cwd: string; env?: Record<string, string | undefined> }): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const next = queue.then(async () => {
    const { main } = await import('./main.ts');
    installTee();
    const wanted: Record<string, string | undefined> = { NO_COLOR: '1', CI: undefined, GITHUB_ACTIONS: undefined, GITHUB_STEP_SUMMARY: undefined, FORCE_COLOR: undefined, ...options.env };
    const saved = Object.fromEntries(Object.keys(wanted).map((k) => [k, process.env[k]]));
    const cwd = process.cwd();
    const exit = process.exit;
    const captured = { stdout: [] as string[], stderr: [] as string[] };
    const listeners = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
    try {
      for (const [k, v] of Object.entries(wanted)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      process.chdir(options.cwd);
      process.exit = ((code?: number) => {
        throw new Error(`routecert ${args.join(' ')} ended the process (exit ${code}): spawn it with routecert() instead`);
      }) as typeof process.exit;
      sink = captured;
      const exitCode = await main([...args]);
      // Colourless as a child with NO_COLOR is (picocolors chose colours when this process started).
      return { exitCode, stdout: stripVTControlCharacters(captured.stdout.join('')), stderr: stripVTControlCharacters(captured.stderr.join('')) };
    } finally {
      sink = null;
      process.exit = exit;
      // main() handles SIGINT and SIGTERM for the command it runs; this process keeps its own.
      for (const signal of ['SIGINT', 'SIGTERM'] as const) {
        for (const l of process.listeners(signal)) if (!listeners[signal].includes(l)) process.off(signal, l);
      }
      process.chdir(cwd);
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
  queue = next.catch(() => undefined);
  return next;
}

/** Copy the bundled corpus (or the files whose path under it passes `keep`) to `dest`. */
export async function copyCorpus(dest: string, keep: (relative: string) => boolean = () => true): Promise<void> {
  await cp(BUNDLED_CASES, dest, { recursive: true, filter: (src) => src === BUNDLED_CASES || !src.endsWith('.json') || keep(path.relative(BUNDLED_CASES, src)) });
}

/** Rewrite one case file's JSON (its id stays, so the case keeps its identity in a diff). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test edits any field of a case
export async function editCase(file: string, edit: (c: Record<string, any>) => void): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const c = JSON.parse(await readFile(file, 'utf8')) as Record<string, any>;
  edit(c);
  await writeFile(file, `${JSON.stringify(c, null, 2)}\n`, 'utf8');
}

/** The single run folder under `reports` (each `run` makes one), and its report. */
export async function onlyRun(reports: string): Promise<{ dir: string; report: RunReport }> {
  const runs = await readdir(reports);
  if (runs.length !== 1) throw new Error(`expected one run folder under ${reports}, found ${runs.join(', ') || 'none'}`);
  const dir = path.join(reports, runs[0]!);
  return { dir, report: JSON.parse(await readFile(path.join(dir, 'report.json'), 'utf8')) as RunReport };
}

/**
 * A copy of the bundled corpus with a failing case (claude-code/json `final` expects `retry`), a
 * known-bug skip (codex/jsonl `final`) and a case file that is not JSON: every outcome a report
 * shows. Returns the ids of the failing and the skipped case.
 */
export async function mixedCorpus(dest: string): Promise<{ failing: string; skipped: string }> {
  await copyCorpus(dest);
  let failing = '';
  let skipped = '';
  await editCase(path.join(dest, 'claude-code/json/final.json'), (c) => {
    failing = c.id as string;
    c.expect = { verdict: 'retry' };
  });
  await editCase(path.join(dest, 'codex/jsonl/final.json'), (c) => {
    skipped = c.id as string;
    c.skip = { reason: 'a known bug kept as a case', issue: 'https://example.invalid/issue/1' };
  });
  await writeFile(path.join(dest, 'broken.json'), '{ "id": "x", ', 'utf8');
  return { failing, skipped };
}

/**
 * Every claude-code/json case of the bundled corpus copied to `dest`, one of them failing
 * (final.json expects retry): the small corpus of the CLI tests. Returns its folder, how many
 * cases it holds and the failing case's id.
 */
export async function smallCorpus(dest: string): Promise<{ dir: string; count: number; failing: string }> {
  await copyCorpus(dest, (rel) => rel.startsWith(`claude-code${path.sep}json${path.sep}`));
  const count = (await readdir(path.join(dest, 'claude-code/json'))).filter((f) => f.endsWith('.json')).length;
  let failing = '';
  await editCase(path.join(dest, 'claude-code/json/final.json'), (c) => {
    failing = c.id as string;
    c.expect = { verdict: 'retry' };
  });
  return { dir: dest, count, failing };
}

/** Every file under `dir` (recursively) with its text. */
export async function filesUnder(dir: string): Promise<{ file: string; text: string }[]> {
  const out: { file: string; text: string }[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out.push({ file, text: await readFile(file, 'utf8') });
  }
  return out;
}

/** What of the canaries (src/record/canaries.ts: a marker of one, or one whole) each of `texts` holds, as `<file> leaks <what>`; empty when none. */
export function canaryLeaks(texts: { file: string; text: string }[]): string[] {
  const leaks: string[] = [];
  for (const w of texts) {
    for (const marker of leakedMarkers(w.text)) leaks.push(`${w.file} leaks ${marker}`);
    for (const canary of Object.values(CANARIES)) if (w.text.includes(canary)) leaks.push(`${w.file} holds ${canary}`);
  }
  return leaks;
}
