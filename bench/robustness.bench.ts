/**
 * Robustness benchmark: hostile envelopes each get a verdict with a reason, in time and memory
 * proportional to the input, measured against a baseline on the same bytes in the same run.
 *
 * Inputs (built deterministically; bytes decoded as UTF-8 the way a child's output is):
 * - `envelope-100mb`: a Claude Code stream-json envelope of 100 MB (assistant events with prose,
 *   braces and fenced JSON, tool results, then the result line with the final answer);
 * - `line-1mb`: one 1 MB result line cut before its end, with no newline (pipe truncation);
 * - `nesting-10k`: a result object whose `structured_output` nests 10,000 levels deep;
 * - `invalid-utf8`: 1 MB of prose with invalid UTF-8 sequences in the `result` string, and a final answer;
 * - `nul-bytes`: 1 MB of events with NUL bytes between lines and inside prose lines, then the result
 *   line with the final answer followed by one NUL byte (which makes that line invalid JSON).
 *
 * The parent writes each input to a temporary file (removed afterwards). Subjects, each in its own
 * child process so that its peak RSS is its own:
 * - `baseline`: decode the bytes, then `JSON.parse` each line (try/catch), as a minimal reader would;
 * - `routecert`: decode the bytes, then the route's decoder and the pov contract (`judgeCase`).
 * Each child loads the code, reads the file, collects garbage, resets its peak RSS (Linux
 * /proc/self/clear_refs), records its RSS, runs the subject once, and reports its peak RSS since the
 * reset (VmHWM; elsewhere `process.resourceUsage().maxRSS`), CPU time and wall time. Every
 * input also runs at half size, so growth per doubling shows (about 2 for linear, 4 for quadratic).
 *
 * Targets (exit code 1 when one is missed): every input gets a pov verdict (no exception, no crash
 * of the child); routecert's extra peak RSS (peak minus RSS before the subject) is at most 6x the
 * input size plus 64 MB; routecert's CPU time grows by at most 2.6x per doubling of the input.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Benchmark } from './benchmark.ts';
import { SOURCE_CHILD_ARGS, sourceChildEnv } from './children.ts';

const MB = 1 << 20;
const CHILD_FLAG = '--robustness-child';
const TARGET_MEMORY_FACTOR = 6;
const TARGET_MEMORY_SLACK = 64 * MB;
const TARGET_GROWTH = 2.6;

/** One hostile input: its route and a builder of its bytes at a scale (1 = full size). */
interface HostileInput {
  name: string;
  route: string;
  description: string;
  build(scale: number): Buffer;
}

const FINAL = { voice: 'peer', position: 'Choose A', reasoning: 'A keeps the decoder linear.', evidence: ['src/a.ts:1'], external_check: 'ran', mode: 'independent', movement: 'initial', final: true };
const PLACEHOLDER = { ...FINAL, position: 'blocked: gathering subject evidence', final: false };

function resultLine(extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: JSON.stringify(FINAL), structured_output: FINAL, session_id: '<uuid>', ...extra });
}

function assistantText(text: string): string {
  return JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text }] }, session_id: '<uuid>' });
}

/** Lines joined with LF, filling `bytes` with events made by `event(k)`, then the closing line. */
function fill(bytes: number, event: (k: number) => string, closing: string): Buffer {
  const parts: Buffer[] = [Buffer.from('{"type":"system","subtype":"init","session_id":"<uuid>"}\n')];
  let size = parts[0]!.length;
  for (let k = 0; size < bytes; k++) {
    const b = Buffer.from(`${event(k)}\n`);
    parts.push(b);
    size += b.length;
  }
  parts.push(Buffer.from(closing));
  return Buffer.concat(parts);
}

const PROSE = 'Looking at src/a.ts {see the braces} and [INFO] notes; the decoder stays linear. ';

const INPUTS: readonly HostileInput[] = [
  {
    name: 'envelope-100mb',
    route: 'claude-code/stream-json',
    description: '100 MB stream-json: prose, braces, fenced placeholders, tool results, then the final result line',
    build: (scale) =>
      fill(
        Math.round(100 * MB * scale),
        (k) =>
          k % 50 === 0
            ? assistantText(`Draft:\n\`\`\`json\n${JSON.stringify(PLACEHOLDER)}\n\`\`\``)
            : k % 7 === 0
              ? JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', content: PROSE.repeat(20) }] } })
              : assistantText(PROSE.repeat(25)),
        `${resultLine()}\n`,
      ),
  },
  {
    name: 'line-1mb',
    route: 'claude-code/stream-json',
    description: 'a 1 MB result line cut before its end, no newline',
    build: (scale) => {
      const line = JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: `${PROSE.repeat(Math.ceil((MB * scale) / PROSE.length))}${JSON.stringify(FINAL)}` });
      return Buffer.from(`{"type":"system","subtype":"init"}\n${line.slice(0, Math.round(MB * scale))}`);
    },
  },
  {
    name: 'nesting-10k',
    route: 'claude-code/json',
    description: 'structured_output nested 10,000 levels deep',
    build: (scale) => {
      const depth = Math.round(10_000 * scale);
      return Buffer.from(`{"type":"result","subtype":"success","is_error":false,"result":"x","structured_output":${'{"a":'.repeat(depth)}0${'}'.repeat(depth)}}\n`);
    },
  },
  {
    name: 'invalid-utf8',
    route: 'claude-code/json',
    description: '1 MB result prose with invalid UTF-8 (0xff, 0xc3 0x28, cut sequences), final answer in structured_output',
    build: (scale) => {
      const chunk = Buffer.concat([Buffer.from(PROSE), Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xe2, 0x82, 0x20])]);
      const prose = Buffer.concat(Array.from({ length: Math.ceil((MB * scale) / chunk.length) }, () => chunk));
      const head = Buffer.from('{"type":"result","subtype":"success","is_error":false,"result":"');
      const tail = Buffer.from(`","structured_output":${JSON.stringify(FINAL)},"session_id":"<uuid>"}\n`);
      return Buffer.concat([head, prose, tail]);
    },
  },
  {
    name: 'nul-bytes',
    route: 'claude-code/stream-json',
    description: '1 MB of events with NUL bytes between and inside lines; the result line ends with a NUL',
    build: (scale) => fill(Math.round(MB * scale), (k) => (k % 3 === 0 ? `\u0000\u0000 ${PROSE}\u0000` : assistantText(PROSE.repeat(4))), `${resultLine()}\u0000\n`),
  },
];

/** What one child reports. */
interface Measure {
  input: string;
  subject: 'baseline' | 'routecert';
  scale: number;
  inputBytes: number;
  rssBeforeBytes: number;
  peakRssBytes: number;
  cpuMs: number;
  wallMs: number;
  verdict?: string;
  reason?: string;
  error?: string;
}

/**
 * Resets this process's peak RSS (Linux: `5` to /proc/self/clear_refs sets VmHWM to the current
 * RSS, since Linux 4.0); false where that is not possible (the peak is then the process's own).
 */
function resetPeakRss(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

/** VmHWM (bytes) of /proc/self/status: the peak RSS since the last {@link resetPeakRss}; null without it. */
function peakRssSinceReset(): number | null {
  try {
    const kb = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null;
  }
}

/** Runs in the child: read the input file, measure, print one JSON line. */
async function child(name: string, subject: 'baseline' | 'routecert', scale: number, file: string): Promise<void> {
  const input = INPUTS.find((i) => i.name === name);
  if (!input) throw new Error(`unknown input ${name}`);
  // Load the code under test before measuring, so module loading is not counted as the subject's memory.
  const [{ decoderFor }, { loadContract }, { judgeCase }] = await Promise.all([
    import('#src/routes/registry.ts'),
    import('#src/contract/registry.ts'),
    import('#src/contract/judgeCase.ts'),
  ]);
  const contract = await loadContract('pov');
  const decoder = decoderFor(input.route);
  let bytes: Buffer | null = readFileSync(file);
  const inputBytes = bytes.length;
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  // The peak from here on, not since the child started: loading the sources through tsx peaks
  // about 140 MB above what stays, which a subject on a 1 MB input would otherwise be charged.
  const peakReset = resetPeakRss();
  const rssBeforeBytes = process.memoryUsage().rss;
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  const out: Measure = { input: name, subject, scale, inputBytes, rssBeforeBytes, peakRssBytes: 0, cpuMs: 0, wallMs: 0 };
  try {
    const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
    bytes = null;
    if (subject === 'baseline') {
      let parsed = 0;
      for (const line of text.split('\n')) {
        try {
          JSON.parse(line);
          parsed += 1;
        } catch {
          // not JSON: skipped, as a minimal reader would
        }
      }
      out.verdict = `${parsed} JSON lines`;
    } else {
      const judgement = judgeCase({ attempts: [{ stdout: text, stderr: '', exitCode: 0, elapsedMs: 1000 }] }, contract, decoder);
      out.verdict = judgement.verdict.verdict;
      const notes = judgement.attempts[0]?.notes ?? [];
      out.reason = [judgement.verdict.evidence[0] ?? '', ...notes].filter(Boolean).join(' | ').slice(0, 200);
    }
  } catch (error) {
    out.error = `${(error as Error).name}: ${(error as Error).message}`.slice(0, 200);
  }
  const cpu = process.cpuUsage(cpu0);
  out.cpuMs = (cpu.user + cpu.system) / 1000;
  out.wallMs = performance.now() - wall0;
  out.peakRssBytes = (peakReset ? peakRssSinceReset() : null) ?? process.resourceUsage().maxRSS * 1024;
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

function runChild(name: string, subject: 'baseline' | 'routecert', scale: number, inputFile: string): Promise<Measure> {
  const file = fileURLToPath(import.meta.url);
  return new Promise((resolve) => {
    execFile(process.execPath, ['--expose-gc', '--max-old-space-size=4096', ...SOURCE_CHILD_ARGS, file, CHILD_FLAG, name, subject, String(scale), inputFile], { maxBuffer: 1 << 20, env: sourceChildEnv() }, (error, stdout, stderr) => {
      const line = stdout.trim().split('\n').at(-1) ?? '';
      try {
        resolve(JSON.parse(line) as Measure);
      } catch {
        resolve({ input: name, subject, scale, inputBytes: 0, rssBeforeBytes: 0, peakRssBytes: 0, cpuMs: 0, wallMs: 0, error: `child failed: ${error?.message ?? ''} ${stderr.slice(-300)}` });
      }
    });
  });
}

const mb = (bytes: number) => (bytes / MB).toFixed(1);
const extra = (m: Measure) => Math.max(0, m.peakRssBytes - m.rssBeforeBytes);

async function run(argv: readonly string[]): Promise<number> {
  const only = argv.find((a) => a.startsWith('--inputs='))?.slice('--inputs='.length).split(',');
  const inputs = INPUTS.filter((i) => !only || only.includes(i.name));
  const [load] = loadavg();
  console.log(`node ${process.version}; each subject in its own child process; load average ${load?.toFixed(2)} on ${availableParallelism()} cores`);
  console.log('extra RSS = peak RSS minus RSS before the subject ran (after loading the code, reading the input file and a full GC); CPU = user + system\n');
  console.log(
    `${'input'.padEnd(15)} ${'MB'.padStart(6)} | ${'routecert: verdict'.padEnd(18)} ${'cpu ms'.padStart(8)} ${'extra MB'.padStart(8)} | ${'baseline cpu ms'.padStart(15)} ${'extra MB'.padStart(8)} | ${'cpu x'.padStart(6)} ${'mem x'.padStart(6)} ${'growth'.padStart(6)}`,
  );
  let code = 0;
  const misses: string[] = [];
  const dir = mkdtempSync(path.join(tmpdir(), 'routecert-robustness-'));
  const write = (input: HostileInput, scale: number) => {
    const file = path.join(dir, `${input.name}-${scale}.out`);
    writeFileSync(file, input.build(scale));
    return file;
  };
  try {
    for (const input of inputs) {
      const halfFile = write(input, 0.5);
      const half = await runChild(input.name, 'routecert', 0.5, halfFile);
      rmSync(halfFile);
      const fullFile = write(input, 1);
      const ours = await runChild(input.name, 'routecert', 1, fullFile);
      const base = await runChild(input.name, 'baseline', 1, fullFile);
      rmSync(fullFile);
      const growth = half.cpuMs > 0 ? ours.cpuMs / half.cpuMs : NaN;
      const cpuRatio = base.cpuMs > 0 ? ours.cpuMs / base.cpuMs : NaN;
      const memRatio = extra(base) > 0 ? extra(ours) / extra(base) : NaN;
      console.log(
        `${input.name.padEnd(15)} ${mb(ours.inputBytes).padStart(6)} | ${(ours.error ? 'ERROR' : (ours.verdict ?? '')).padEnd(18)} ${ours.cpuMs.toFixed(0).padStart(8)} ${mb(extra(ours)).padStart(8)} | ${base.cpuMs.toFixed(0).padStart(15)} ${mb(extra(base)).padStart(8)} | ${cpuRatio.toFixed(2).padStart(6)} ${memRatio.toFixed(2).padStart(6)} ${growth.toFixed(2).padStart(6)}`,
      );
      console.log(`${''.padEnd(15)}        reason: ${ours.error ?? ours.reason ?? ''}`);
      if (ours.error || !ours.verdict) misses.push(`${input.name}: no verdict (${ours.error ?? 'none'})`);
      // A child that failed measures nothing: its target is missed, never met by a ratio of zeros.
      if (half.error) misses.push(`${input.name}: the half-size child failed, so growth is unmeasured (${half.error})`);
      if (base.error) misses.push(`${input.name}: the baseline child failed, so the ratios are unmeasured (${base.error})`);
      if (extra(ours) > TARGET_MEMORY_FACTOR * ours.inputBytes + TARGET_MEMORY_SLACK) misses.push(`${input.name}: extra RSS ${mb(extra(ours))} MB > ${TARGET_MEMORY_FACTOR}x input + 64 MB`);
      if (ours.cpuMs > 200 && growth > TARGET_GROWTH) misses.push(`${input.name}: CPU grows ${growth.toFixed(2)}x per doubling (> ${TARGET_GROWTH})`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log('');
  if (misses.length > 0) {
    code = 1;
    for (const m of misses) console.log(`target missed: ${m}`);
  } else {
    console.log(`targets met: every input got a verdict; extra RSS <= ${TARGET_MEMORY_FACTOR}x input + 64 MB; CPU growth <= ${TARGET_GROWTH}x per doubling (inputs over 200 ms)`);
  }
  return code;
}

/** The benchmark registered in bench/index.ts (`npm run bench -- robustness`; `--inputs=a,b` picks inputs). */
export const robustnessBench: Benchmark = {
  name: 'robustness',
  description: 'hostile envelopes (100 MB, 1 MB line, 10k nesting, invalid UTF-8, NUL) vs decode + JSON.parse: verdict, CPU, peak RSS',
  options: ['--inputs='],
  run,
};

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href && process.argv[2] === CHILD_FLAG) {
  await child(process.argv[3] ?? '', process.argv[4] === 'baseline' ? 'baseline' : 'routecert', Number(process.argv[5] ?? '1'), process.argv[6] ?? '');
}
