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
 * whose valid `structured_output` wins early (about 119 MiB of case JSON), and one whose `result`
 * string holds 500,000 small candidate objects (`{"n":k}`) beside the final `structured_output`,
 * and one whose `result` holds 500,000 schema-shaped pov candidates in prose and no structured
 * field ({@link schemaShapedCandidatesStdout}, about 109 MiB; issue 24 experiment 3e), and the
 * same with a first line of prose that says `properties` (the word that sends candidatesFromText
 * to look for JSON Schemas around the candidates);
 * for each it runs the real `node bin/routecert.js run --cases <dir> --no-probes` (the sources of
 * this checkout, bench/children.ts) and reads that process's peak RSS
 * (`process.resourceUsage().maxRSS`, written on exit by a preloaded hook, bench/peak-rss-hook.mjs),
 * minus the peak of the same command on a one-case folder of a tiny envelope (the baseline, the
 * median of three runs: its peak alone varies by several MiB).
 *
 * Targets (exit code 1 when one is missed; a child that fails misses its target): peak RSS above
 * the loaded process below 3x the input for every library input; `run --cases` peak RSS above the
 * baseline run below 3x the envelope, for the 100 MiB envelope and for both 500 k candidate inputs.
 */
import { execFile } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { logText } from './scan.inputs.ts';
import { SOURCE_CHILD_ARGS, sourceChildEnv } from './children.ts';

const MB = 1 << 20;
const CHILD_FLAG = '--memory-child';
const TARGET_FACTOR = 3;
/** How many times the baseline of `run --cases` runs (its median is the baseline). */
const BASELINE_RUNS = 3;
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
    execFile(process.execPath, [...SOURCE_CHILD_ARGS, fileURLToPath(import.meta.url), CHILD_FLAG, name, String(bytes)], { maxBuffer: 1 << 20, cwd: ROOT, env: sourceChildEnv() }, (error, stdout, stderr) => {
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

/** One `run --cases` input: a one-case folder whose envelope is `stdout` on `route`. */
interface RunCasesInput {
  name: string;
  route: string;
  stdout: string;
  verdict: 'accepted' | 'dropped-unusable';
}

/** `run --cases` on a 100 MiB `claude-code/json` envelope whose valid `structured_output` wins early. */
function largeEnvelopeInput(megabytes: number): RunCasesInput {
  return { name: `${megabytes} MiB envelope`, route: 'claude-code/json', stdout: claudeResult(prose(Math.round(megabytes * MB), 23)), verdict: 'accepted' };
}

/** `run --cases` on a `result` string holding `count` small candidate objects beside the final `structured_output`. */
function manyCandidatesInput(count: number): RunCasesInput {
  const parts: string[] = [];
  for (let k = 0; k < count; k++) parts.push(`{"n":${k}}`);
  return { name: `${count / 1000}k candidates`, route: 'claude-code/json', stdout: claudeResult(parts.join(' ')), verdict: 'accepted' };
}

/**
 * `run --cases` on a `result` string of prose lines each holding one schema-shaped pov candidate
 * (the anchor `position` and every member; one in four `final: false`, one in ten missing
 * `reasoning`), `count` of them and no structured field: the contract scores every one and the last
 * final one is the answer. At 500,000 the envelope is about 109 MiB and the case file 138 MiB
 * (issue 24 experiment 3e: 1.18 GB peak before candidates were lazy). Built the same each time.
 * With `preamble`, that line of prose comes first (the `"properties" in prose` row: a word the
 * schema guard of candidatesFromText looks for).
 */
function schemaShapedCandidatesStdout(count: number, preamble?: string): string {
  const parts: string[] = preamble === undefined ? [] : [preamble];
  for (let k = 0; k < count; k++) {
    const o: Record<string, unknown> = { voice: 'peer', position: `Option ${k}`, reasoning: `Step ${k}: one pass.`, evidence: [`src/scan/scan.ts:${k % 311}`], external_check: 'ran', mode: 'independent', movement: 'initial', final: k % 4 !== 1 };
    if (k % 10 === 3) delete o.reasoning;
    parts.push(`${k}. ${JSON.stringify(o)}`);
  }
  return JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: parts.join('\n'), session_id: '<uuid>' });
}

/** The peak RSS (MiB) of the real `node bin/routecert.js run --cases` on a folder holding one case of `input`, or why it failed. */
async function runCasesPeak(input: RunCasesInput): Promise<{ caseMb: number; peakMb: number; exitCode: number | null; line: string } | string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'routecert-memory-bench-'));
  try {
    const cases = path.join(dir, 'cases');
    mkdirSync(cases);
    const { caseId } = await import('#src/record/caseId.ts');
    const body = { attempts: [{ stdout: input.stdout, stderr: '', exitCode: 0, elapsedMs: 1_000 }], contract: 'pov', expect: { verdict: input.verdict } };
    const c = { id: caseId(body), description: `bench: ${input.name}`, route: input.route, cli: { name: 'claude', version: '2.1.332' }, provenance: { source: 'generated', ref: 'bench/memory.bench.ts', date: '2026-12-02' }, tags: [], ...body };
    const file = path.join(cases, 'large.json');
    writeFileSync(file, JSON.stringify(c));
    const caseMb = statSync(file).size / MB;
    const hook = path.join(HERE, 'peak-rss-hook.mjs');
    const maxCaseMb = String(Math.ceil(caseMb) + 1);
    return await new Promise((resolve) => {
      execFile(
        process.execPath,
        ['--import', pathToFileURL(hook).href, path.join(ROOT, 'bin/routecert.js'), 'run', '--cases', cases, '--no-probes', '--quiet', '--max-case-mb', maxCaseMb, '--reports', path.join(dir, 'reports')],
        { maxBuffer: 8 << 20, cwd: ROOT, env: sourceChildEnv({ NO_COLOR: '1' }) },
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

/** One `run --cases` row: the input, the case file, the peak and the peak above the baseline run. */
interface RunCasesRow {
  name: string;
  inputMb: number;
  caseMb: number;
  peakMb: number;
  extraMb: number;
  ratio: number;
  exitCode: number | null;
  line: string;
}

/**
 * `run --cases` on a `megabytes` MiB envelope and on `candidates` candidate objects, each against
 * the baseline: the same command on a one-case folder of a tiny envelope (the code loaded, nothing
 * large). A run that failed is a string (its target is missed).
 */
export async function measureRunCases(megabytes: number, candidates: number): Promise<{ baselineMb: number | string; baselineRuns: number[]; rows: (RunCasesRow | { name: string; error: string })[] }> {
  // The baseline's own peak varies by several MiB from run to run (measured 136-149 MiB at load 32):
  // against a 7 MiB input that alone moves the ratio by 1x, so it is the median of three runs.
  const baselineRuns: number[] = [];
  for (let k = 0; k < BASELINE_RUNS; k++) {
    const run = await runCasesPeak({ name: 'baseline', route: 'claude-code/json', stdout: claudeResult('done'), verdict: 'accepted' });
    if (typeof run === 'string') return { baselineMb: run, baselineRuns, rows: [] };
    baselineRuns.push(run.peakMb);
  }
  const baseline = { peakMb: [...baselineRuns].sort((a, b) => a - b)[Math.floor(BASELINE_RUNS / 2)]! };
  const inputs = [
    ...(megabytes > 0 ? [largeEnvelopeInput(megabytes)] : []),
    ...(candidates > 0 ? [manyCandidatesInput(candidates), { name: `${candidates / 1000}k schema-shaped`, route: 'claude-code/json', stdout: schemaShapedCandidatesStdout(candidates), verdict: 'accepted' as const },
          { name: `${candidates / 1000}k schema-shaped, "properties" in prose`, route: 'claude-code/json', stdout: schemaShapedCandidatesStdout(candidates, 'Each option below lists the properties the contract asks for.'), verdict: 'accepted' as const }] : []),
  ];
  const rows: (RunCasesRow | { name: string; error: string })[] = [];
  for (const input of inputs) {
    const r = await runCasesPeak(input);
    if (typeof r === 'string') {
      rows.push({ name: input.name, error: r });
      continue;
    }
    const inputMb = input.stdout.length / MB;
    const extraMb = Math.max(0, r.peakMb - baseline.peakMb);
    rows.push({ name: input.name, inputMb, caseMb: r.caseMb, peakMb: r.peakMb, extraMb, ratio: extraMb / inputMb, exitCode: r.exitCode, line: r.line });
  }
  return { baselineMb: baseline.peakMb, baselineRuns, rows };
}

/** Prints the memory section; returns 0 when every target is met, else 1 (a child that failed misses its target). */
export async function runMemorySection(megabytes: number, runCasesMb: number, runCasesCandidates = 500_000): Promise<number> {
  let code = 0;
  const lines: string[] = [];
  if (megabytes > 0) {
    console.log(`\nmemory: peak RSS above the process holding the input, one child per input (${megabytes} MiB each; no V8 flags, as bin/routecert.js; the sources of this checkout)\n`);
    console.log(`${'input'.padEnd(14)} | ${'route'.padEnd(24)} | ${'input MiB'.padEnd(9)} | ${'extra MiB'.padEnd(9)} | ${'extra/input'.padEnd(11)} | ${'CPU'.padEnd(8)} | verdict`);
    console.log(`${'-'.repeat(14)}-|-${'-'.repeat(24)}-|-${'-'.repeat(9)}-|-${'-'.repeat(9)}-|-${'-'.repeat(11)}-|-${'-'.repeat(8)}-|--------`);
    let worst = 0;
    const failed: string[] = [];
    for (const row of await measureLibrary(megabytes)) {
      if ('error' in row) {
        failed.push(row.name);
        console.log(`${row.name.padEnd(14)} | ${row.route.padEnd(24)} | ${row.error}`);
        continue;
      }
      worst = Math.max(worst, row.ratio);
      console.log(
        `${row.name.padEnd(14)} | ${row.route.padEnd(24)} | ${row.inputMb.toFixed(0).padEnd(9)} | ${row.extraMb.toFixed(0).padEnd(9)} | ${`${row.ratio.toFixed(2)}x${row.exact ? '' : ' (<=)'}`.padEnd(11)} | ${`${(row.cpuMs / 1000).toFixed(2)} s`.padEnd(8)} | ${row.verdict}`,
      );
    }
    const met = failed.length === 0 && worst < TARGET_FACTOR;
    if (!met) code = 1;
    lines.push(`  ${met ? 'met   ' : 'MISSED'} peak RSS above the loaded process < ${TARGET_FACTOR}x the input (worst input): ${worst.toFixed(2)}x${failed.length > 0 ? `; ${failed.length} child(ren) failed, measuring nothing: ${failed.join(', ')}` : ''}`);
  }
  if (runCasesMb > 0 || runCasesCandidates > 0) {
    const run = await measureRunCases(runCasesMb, runCasesCandidates);
    if (typeof run.baselineMb === 'string') {
      code = 1;
      console.log(`\nrun --cases baseline: ${run.baselineMb}`);
      lines.push(`  MISSED run --cases peak RSS above the baseline run < ${TARGET_FACTOR}x the input: the baseline run failed`);
    } else {
      console.log(`\nrun --cases (the real command on a one-case folder): peak RSS above the baseline run (a tiny case: ${run.baselineMb.toFixed(0)} MiB, the median of ${run.baselineRuns.map((b) => b.toFixed(0)).join(', ')})`);
      for (const row of run.rows) {
        if ('error' in row) {
          code = 1;
          console.log(`  ${row.name}: ${row.error}`);
          lines.push(`  MISSED run --cases on ${row.name}: the run failed, measuring nothing`);
          continue;
        }
        console.log(`  ${row.name.padEnd(18)} envelope ${row.inputMb.toFixed(1)} MiB, case file ${row.caseMb.toFixed(1)} MiB: peak ${row.peakMb.toFixed(0)} MiB, above baseline ${row.extraMb.toFixed(0)} MiB (${row.ratio.toFixed(2)}x the envelope); exit ${String(row.exitCode)}; ${row.line}`);
        const ok = row.ratio < TARGET_FACTOR && row.exitCode === 0;
        if (!ok) code = 1;
        lines.push(`  ${ok ? 'met   ' : 'MISSED'} run --cases on ${row.name}: peak RSS above the baseline run < ${TARGET_FACTOR}x the envelope: ${row.ratio.toFixed(2)}x${row.exitCode === 0 ? '' : ` (exit ${String(row.exitCode)})`}`);
      }
    }
  }
  console.log('\ntargets (memory):');
  for (const l of lines) console.log(l);
  return code;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href && process.argv[2] === CHILD_FLAG) {
  await child(process.argv[3] ?? '', Number(process.argv[4] ?? String(MB)));
}
