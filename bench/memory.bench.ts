/**
 * Memory benchmark (issue 15): peak RSS of decoding and judging one large envelope, per route
 * family, and of `routecert run --cases` on one large case file.
 *
 * Library inputs (100 MiB by default, `--memory-mb=N`; ASCII, so bytes = UTF-16 code units), each
 * judged by its route's decoder and the pov contract (`judgeCase`, what `run` does) in a child
 * process of its own, started with the flags `bin/routecert.js` uses (none):
 * - `claude-json`: `claude-code/json`, a `result` of log prose beside a final `structured_output`;
 * - `claude-stream`: `claude-code/stream-json`, assistant text events of log prose, then the result line;
 * - `codex-jsonl`: `codex/jsonl`, `item.completed` agent messages of log prose, then the final message;
 * - `gemini-json`: `gemini-cli/json`, pretty-printed `{"response": ..., "stats": ...}` of log prose;
 * - `free-text`: `generic`, plain log prose with small JSON objects and the final answer at the end;
 * - `brace-result`: `claude-code/json` whose `result` is nothing but `{ }`, `[1, 2]` and small
 *   objects (2.7 million of them per 100 MiB) beside a final `structured_output`.
 * The child builds its input, collects garbage, resets its peak RSS (Linux `/proc/self/clear_refs`,
 * `5`), judges, and reports the new peak (`VmHWM`) minus the RSS before judging: the memory the
 * decode and the verdict add to a process that already holds the envelope. Where the reset is not
 * available the figure is `maxRSS` minus that RSS, an upper bound (it includes building the input).
 *
 * `run --cases`: the parent writes one case file holding a 100 MiB `claude-code/json` envelope
 * whose valid `structured_output` wins early (about 119 MiB of case JSON), then runs the real
 * `node bin/routecert.js run --cases <dir> --no-probes` and reads that process's peak RSS
 * (`process.resourceUsage().maxRSS`, written on exit by a preloaded hook, bench/peak-rss-hook.mjs).
 *
 * Targets (exit code 1 when one is missed): peak RSS above the loaded process below 3x the input
 * for every library input; `run --cases` on the ~119 MiB case below 600 MiB in all.
 */
import { execFile } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { logText } from './scan.inputs.ts';

const MB = 1 << 20;
const CHILD_FLAG = '--memory-child';
const TARGET_FACTOR = 3;
const TARGET_RUN_CASES_MB = 600;
const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(HERE);

const FINAL = { voice: 'peer', position: 'Choose A', reasoning: 'A keeps the decoder linear.', evidence: ['src/a.ts:1'], external_check: 'ran', mode: 'independent', movement: 'initial', final: true };

/** One library input: its route and a builder of its stdout at `bytes` (about). */
interface MemoryInput {
  name: string;
  route: string;
  build(bytes: number): string;
}

const prose = (bytes: number, seed: number): string => logText.generate(bytes, seed);

/** JSONL lines of `line(k, chunk)` filling `bytes`, each holding ~64 KiB of prose, then `closing`. */
function events(bytes: number, line: (k: number, text: string) => string, closing: string): string {
  const chunk = prose(64 * 1024, 7);
  const lines: string[] = [];
  let size = 0;
  for (let k = 0; size < bytes; k++) {
    const l = line(k, chunk);
    lines.push(l);
    size += l.length + 1;
  }
  lines.push(closing);
  return lines.join('\n');
}

function braceNoise(bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let k = 0; size < bytes; k++) {
    const p = k % 3 === 0 ? '{ }' : k % 3 === 1 ? '[1, 2]' : `{"n": ${k % 1000}, "ok": true}`;
    parts.push(p);
    size += p.length + 1;
  }
  return parts.join(' ');
}

const claudeResult = (result: string): string =>
  JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result, structured_output: FINAL, session_id: '<uuid>' });

export const MEMORY_INPUTS: readonly MemoryInput[] = [
  { name: 'claude-json', route: 'claude-code/json', build: (bytes) => claudeResult(prose(bytes, 11)) },
  {
    name: 'claude-stream',
    route: 'claude-code/stream-json',
    build: (bytes) =>
      events(bytes, (k, text) => JSON.stringify({ type: 'assistant', message: { id: `m${k}`, role: 'assistant', content: [{ type: 'text', text }] }, session_id: '<uuid>' }), claudeResult(JSON.stringify(FINAL))),
  },
  {
    name: 'codex-jsonl',
    route: 'codex/jsonl',
    build: (bytes) =>
      events(
        bytes,
        (k, text) => JSON.stringify({ type: 'item.completed', item: { id: `item_${k}`, type: 'agent_message', text } }),
        `${JSON.stringify({ type: 'item.completed', item: { id: 'item_last', type: 'agent_message', text: JSON.stringify(FINAL) } })}\n${JSON.stringify({ type: 'turn.completed', usage: { input_tokens: 1, output_tokens: 1 } })}`,
      ),
  },
  { name: 'gemini-json', route: 'gemini-cli/json', build: (bytes) => JSON.stringify({ response: `${prose(bytes, 13)}\n${JSON.stringify(FINAL)}`, stats: { models: {} } }, null, 2) },
  { name: 'free-text', route: 'generic', build: (bytes) => `${prose(bytes, 17)}\n${JSON.stringify(FINAL)}\n` },
  { name: 'brace-result', route: 'claude-code/json', build: (bytes) => claudeResult(braceNoise(bytes)) },
];

/** What a child reports. */
interface ChildReport {
  name: string;
  inputBytes: number;
  /** Peak RSS above the RSS with the input loaded, bytes. */
  extraBytes: number;
  /** Whether the peak was reset before judging (else `extraBytes` is an upper bound). */
  exact: boolean;
  verdict: string;
  cpuMs: number;
}

/** Results of the memory benchmark, for the report and the targets. */
export interface MemoryRow {
  name: string;
  route: string;
  inputMb: number;
  extraMb: number;
  ratio: number;
  exact: boolean;
  verdict: string;
  cpuMs: number;
}

function vmHwmBytes(): number | undefined {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

function vmRssBytes(): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]) * 1024;
  } catch {
    // not Linux
  }
  return process.memoryUsage.rss();
}

function resetPeak(): boolean {
  try {
    const fd = openSync('/proc/self/clear_refs', 'w');
    writeSync(fd, '5');
    closeSync(fd);
    return vmHwmBytes() !== undefined;
  } catch {
    return false;
  }
}

async function child(name: string, bytes: number): Promise<void> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const input = MEMORY_INPUTS.find((i) => i.name === name);
  if (!input) throw new Error(`unknown input ${name}`);
  const { judgeCase } = await import('#src/contract/judgeCase.ts');
  const { loadContract } = await import('#src/contract/registry.ts');
  const { decoderFor } = await import('#src/routes/registry.ts');
  const contract = await loadContract('pov');
  const decoder = decoderFor(input.route);
  // Warm the code on a small input, then build the large one as a flat string (what stdout is once read).
  judgeCase({ attempts: [{ stdout: input.build(64 * 1024), stderr: '', exitCode: 0, elapsedMs: 1 }] }, contract, decoder);
  const stdout = Buffer.from(input.build(bytes), 'latin1').toString('latin1');
  gc();
  gc();
  const before = vmRssBytes();
  const exact = resetPeak();
  const started = process.cpuUsage();
  const judged = judgeCase({ attempts: [{ stdout, stderr: '', exitCode: 0, elapsedMs: 1 }] }, contract, decoder);
  const used = process.cpuUsage(started);
  const peak = (exact ? vmHwmBytes() : undefined) ?? process.resourceUsage().maxRSS * 1024;
  const report: ChildReport = { name, inputBytes: stdout.length, extraBytes: Math.max(0, peak - before), exact, verdict: judged.verdict.verdict, cpuMs: (used.user + used.system) / 1000 };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

function runChild(name: string, bytes: number): Promise<ChildReport | string> {
  return new Promise((resolve) => {
    // No V8 flags: the product's (bin/routecert.js) defaults, heap limit included.
    execFile(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), CHILD_FLAG, name, String(bytes)], { maxBuffer: 1 << 20, cwd: ROOT }, (error, stdout, stderr) => {
      const line = stdout.trim().split('\n').pop() ?? '';
      if (error || !line.startsWith('{')) resolve(`child failed: ${(error?.message ?? '').split('\n')[0]} ${stderr.trim().split('\n').slice(-2).join(' ')}`.trim());
      else resolve(JSON.parse(line) as ChildReport);
    });
  });
}

/** Peak RSS figures of the library inputs, each in its own child, one at a time. */
export async function measureLibrary(megabytes: number): Promise<(MemoryRow | { name: string; route: string; error: string })[]> {
  const rows: (MemoryRow | { name: string; route: string; error: string })[] = [];
  for (const input of MEMORY_INPUTS) {
    const r = await runChild(input.name, Math.round(megabytes * MB));
    if (typeof r === 'string') {
      rows.push({ name: input.name, route: input.route, error: r });
      continue;
    }
    rows.push({ name: input.name, route: input.route, inputMb: r.inputBytes / MB, extraMb: r.extraBytes / MB, ratio: r.extraBytes / r.inputBytes, exact: r.exact, verdict: r.verdict, cpuMs: r.cpuMs });
  }
  return rows;
}

/** `run --cases` on one case of a `megabytes` MiB envelope: the case file's size and the command's peak RSS. */
export async function measureRunCases(megabytes: number): Promise<{ caseMb: number; peakMb: number; exitCode: number | null; line: string } | string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'routecert-memory-bench-'));
  try {
    const cases = path.join(dir, 'cases');
    mkdirSync(cases);
    const stdout = claudeResult(prose(Math.round(megabytes * MB), 23));
    const { caseId } = await import('#src/record/caseId.ts');
    const body = { attempts: [{ stdout, stderr: '', exitCode: 0, elapsedMs: 1_000 }], contract: 'pov', expect: { verdict: 'accepted' as const, origin: 'structured_output' } };
    const c = { id: caseId(body), description: 'bench: 100 MiB claude-code/json envelope, structured_output wins early', route: 'claude-code/json', cli: { name: 'claude', version: '2.1.332' }, provenance: { source: 'generated', ref: 'bench/memory.bench.ts', date: '2026-12-01' }, tags: [], ...body };
    const file = path.join(cases, 'large.json');
    writeFileSync(file, JSON.stringify(c));
    const caseMb = statSync(file).size / MB;
    const hook = path.join(HERE, 'peak-rss-hook.mjs');
    const maxCaseMb = String(Math.ceil(caseMb) + 1);
    return await new Promise((resolve) => {
      execFile(
        process.execPath,
        ['--import', pathToFileURL(hook).href, path.join(ROOT, 'bin/routecert.js'), 'run', '--cases', cases, '--no-probes', '--quiet', '--max-case-mb', maxCaseMb, '--reports', path.join(dir, 'reports')],
        { maxBuffer: 8 << 20, cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } },
        (error, out, err) => {
          const m = /ROUTECERT_PEAK_RSS_KB (\d+)/.exec(err);
          if (!m) {
            resolve(`run --cases gave no peak RSS: ${(error?.message ?? '').split('\n')[0]} ${err.trim().split('\n').slice(-3).join(' ')}`);
            return;
          }
          const summary = [...out.split('\n').filter((l) => /\d+ cases?:|FAULT/.test(l)), ...err.split('\n').filter((l) => /FAULT|Error/.test(l))].join('; ');
          resolve({ caseMb, peakMb: Number(m[1]) / 1024, exitCode: error ? ((error as { code?: number }).code ?? null) : 0, line: summary.trim() });
        },
      );
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Prints the memory section; returns 0 when every target is met, else 1. */
export async function runMemorySection(megabytes: number, runCasesMb: number): Promise<number> {
  console.log(`\nmemory: peak RSS above the process holding the input, one child per input (${megabytes} MiB each; no V8 flags, as bin/routecert.js)\n`);
  console.log(`${'input'.padEnd(14)} | ${'route'.padEnd(24)} | ${'input MiB'.padEnd(9)} | ${'extra MiB'.padEnd(9)} | ${'extra/input'.padEnd(11)} | ${'CPU'.padEnd(8)} | verdict`);
  console.log(`${'-'.repeat(14)}-|-${'-'.repeat(24)}-|-${'-'.repeat(9)}-|-${'-'.repeat(9)}-|-${'-'.repeat(11)}-|-${'-'.repeat(8)}-|--------`);
  let code = 0;
  let worst = 0;
  for (const row of await measureLibrary(megabytes)) {
    if ('error' in row) {
      code = 1;
      console.log(`${row.name.padEnd(14)} | ${row.route.padEnd(24)} | ${row.error}`);
      continue;
    }
    worst = Math.max(worst, row.ratio);
    console.log(
      `${row.name.padEnd(14)} | ${row.route.padEnd(24)} | ${row.inputMb.toFixed(0).padEnd(9)} | ${row.extraMb.toFixed(0).padEnd(9)} | ${`${row.ratio.toFixed(2)}x${row.exact ? '' : ' (<=)'}`.padEnd(11)} | ${`${(row.cpuMs / 1000).toFixed(2)} s`.padEnd(8)} | ${row.verdict}`,
    );
  }
  const run = runCasesMb > 0 ? await measureRunCases(runCasesMb) : undefined;
  if (typeof run === 'string') {
    code = 1;
    console.log(`\nrun --cases: ${run}`);
  } else if (run) {
    console.log(`\nrun --cases, one case of ${run.caseMb.toFixed(0)} MiB (a ${runCasesMb} MiB envelope): peak RSS ${run.peakMb.toFixed(0)} MiB for the whole process; exit ${String(run.exitCode)}; ${run.line}`);
  }
  console.log('\ntargets (memory):');
  const met = worst < TARGET_FACTOR;
  if (!met) code = 1;
  console.log(`  ${met ? 'met   ' : 'MISSED'} peak RSS above the loaded process < ${TARGET_FACTOR}x the input (worst input): ${worst.toFixed(2)}x`);
  if (run && typeof run !== 'string') {
    const ok = run.peakMb < TARGET_RUN_CASES_MB && run.exitCode === 0;
    if (!ok) code = 1;
    console.log(`  ${ok ? 'met   ' : 'MISSED'} run --cases on a ~${run.caseMb.toFixed(0)} MiB case < ${TARGET_RUN_CASES_MB} MiB peak RSS: ${run.peakMb.toFixed(0)} MiB`);
  }
  return code;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href && process.argv[2] === CHILD_FLAG) {
  await child(process.argv[3] ?? '', Number(process.argv[4] ?? String(MB)));
}
