/**
 * Scanner benchmark: routecert's `scanJson` against the raw_decode loop (`naiveScan`) and, where
 * the input is one valid JSON document, `JSON.parse` on the same text.
 *
 * For each input family and size (1, 2, 4, 8 MB by default; 1 MB = 2^20 bytes, inputs are ASCII)
 * it prints throughput, the baseline/routecert time ratio, routecert's growth per doubling of the
 * input (time(2n) / time(n): about 2 for a linear scan, about 4 for a quadratic one) and, for the
 * valid document, routecert time / JSON.parse time.
 *
 * Timing: every cell is a median, by default of the process's CPU time (`--clock=cpu`; on a shared
 * machine wall time mostly measures the neighbours; `--clock=wall` for elapsed time, see
 * {@link Clock}). Routecert and JSON.parse are timed in interleaved rounds (15 by default): each
 * round times every size once, sizes in ascending then descending order, and each timed call
 * follows a full garbage collection and one untimed call on the same text, so it pays the
 * steady-state cost of collecting its own garbage and nothing left over from another size.
 * Ratios (growth between two sizes, routecert / JSON.parse) are medians of the ratios within each
 * round, whose calls ran close together, so a slow spell on a shared machine cancels out instead
 * of skewing one ratio. The baseline gets one to three runs, each after a full collection; a size
 * is skipped once the baseline took, or is predicted from its previous doubling to take, more
 * than 20 s.
 *
 * Targets (exit code 1 when one is missed): >= 100 MB/s on plain log text on one core; the valid
 * brace-dense document within 2x of JSON.parse; routecert growth <= 2.2 per doubling. With default
 * V8 flags, inputs with ~20k hits per MB can show one step above 2.2 where the retained results
 * outgrow the young generation (about 2-8 MB here); with `--max-semi-space-size=128` the same
 * cells measure about 2.0.
 */
import { availableParallelism, loadavg } from 'node:os';
import { scanJson } from '#src/scan/index.ts';
import { type Benchmark, type Clock, type Milliseconds, median, timeOnce } from './benchmark.ts';
import { naiveScan } from './naive-scan.ts';
import { INPUTS, type InputKind, asDecodedOutput } from './scan.inputs.ts';

const MB = 1 << 20;
const BASELINE_LIMIT_MS = 20_000;
const TARGET_LOG_MB_S = 100;
const TARGET_PARSE_RATIO = 2;
const TARGET_GROWTH = 2.2;

interface Row {
  input: string;
  sizeMb: number;
  routecertMs: Milliseconds;
  baselineMs: Milliseconds | string;
  parseMs: Milliseconds | undefined;
  /** Median over rounds of routecert time / JSON.parse time, both timed back to back. */
  parseRatio: number | undefined;
  /** Median over rounds of time(this size) / time(previous size), per doubling. */
  growth: number | undefined;
  hits: string;
}

export const scanBench: Benchmark = {
  name: 'scan',
  description: 'routecert scanJson vs the raw_decode loop, and vs JSON.parse on a valid document',
  run,
};

async function run(argv: readonly string[]): Promise<number> {
  const sizes = option(argv, 'sizes', '1,2,4,8').split(',').map(Number);
  const rounds = Number(option(argv, 'runs', '15'));
  const clock = option(argv, 'clock', 'cpu');
  if (sizes.some((s) => !(s > 0)) || !(rounds >= 1) || (clock !== 'cpu' && clock !== 'wall')) {
    console.error('[routecert] --sizes takes positive MB values (e.g. 1,2,4,8), --runs a count >= 1, --clock cpu or wall');
    return 2;
  }
  const [load] = loadavg();
  console.log(`node ${process.version}, ${process.platform}/${process.arch}; one core, synchronous; ${rounds} rounds per cell; ${clock === 'cpu' ? 'CPU time of the process' : 'wall time'}`);
  console.log(`load average ${load?.toFixed(2)} on ${availableParallelism()} cores${(load ?? 0) >= availableParallelism() - 0.5 ? ': busy machine, figures will be noisy' : ''}\n`);
  for (const input of INPUTS) console.log(`  ${input.name.padEnd(10)} ${input.description}`);
  console.log('');

  const rows: Row[] = [];
  printHeader();
  for (const [index, input] of INPUTS.entries()) {
    for (const row of measureInput(input, 2026 + index, sizes, rounds, clock)) {
      rows.push(row);
      printRow(row);
    }
  }
  return printTargets(rows);
}

function measureInput(input: InputKind, seed: number, sizes: readonly number[], rounds: number, clock: Clock): Row[] {
  const texts = sizes.map((sizeMb) => asDecodedOutput(input.generate(Math.round(sizeMb * MB), seed)));
  const hits = texts.map((text) => scanJson(text).length);
  for (let w = 0; w < 2; w++) for (const text of texts) scanJson(text); // warm-up: let the JIT settle

  // Rounds alternate ascending and descending sizes, so drift in machine speed evens out.
  const routecert: Milliseconds[][] = sizes.map(() => []);
  const parse: Milliseconds[][] = sizes.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (let n = 0; n < texts.length; n++) {
      const k = r % 2 === 0 ? n : texts.length - 1 - n;
      const text = texts[k] as string;
      (routecert[k] as Milliseconds[]).push(timeOnce(() => scanJson(text), clock, true));
      if (input.validJson) (parse[k] as Milliseconds[]).push(timeOnce(() => JSON.parse(text), clock, true));
    }
  }

  const rows: Row[] = [];
  let baselineOff: string | undefined;
  let lastBaseline: { ms: Milliseconds; sizeMb: number; growth: number } | undefined;
  sizes.forEach((sizeMb, k) => {
    const text = texts[k] as string;
    let hitsCell = String(hits[k]);
    let baselineMs: Milliseconds | string;
    const predicted = lastBaseline ? lastBaseline.ms * lastBaseline.growth ** Math.log2(sizeMb / lastBaseline.sizeMb) : 0;
    if (baselineOff === undefined && predicted > BASELINE_LIMIT_MS) {
      baselineOff = `skipped: > 20 s (predicted ${(predicted / 1000).toFixed(0)} s)`;
    }
    if (baselineOff !== undefined) {
      baselineMs = baselineOff;
    } else {
      let baseHits = 0;
      const baseTimes = [timeOnce(() => (baseHits = naiveScan(text).length), clock)];
      for (let n = 1; n < 3 && (baseTimes[0] as number) < 2_000; n++) baseTimes.push(timeOnce(() => naiveScan(text), clock));
      baselineMs = median(baseTimes);
      if (baseHits !== hits[k]) hitsCell = `${hits[k]} vs ${baseHits}`;
      const growth = lastBaseline ? (baselineMs / lastBaseline.ms) ** (1 / Math.log2(sizeMb / lastBaseline.sizeMb)) : 2;
      lastBaseline = { ms: baselineMs, sizeMb, growth: Math.max(growth, 2) };
      if (baselineMs > BASELINE_LIMIT_MS) baselineOff = 'skipped: > 20 s';
    }
    const times = routecert[k] as Milliseconds[];
    const before = routecert[k - 1];
    const perDoubling = 1 / Math.log2(sizeMb / (sizes[k - 1] ?? sizeMb));
    rows.push({
      input: input.name,
      sizeMb,
      routecertMs: median(times),
      baselineMs,
      parseMs: input.validJson ? median(parse[k] as Milliseconds[]) : undefined,
      parseRatio: input.validJson ? median(times.map((t, r) => t / ((parse[k] as Milliseconds[])[r] as number))) : undefined,
      growth: before === undefined ? undefined : median(times.map((t, r) => (t / (before[r] as number)) ** perDoubling)),
      hits: hitsCell,
    });
  });
  return rows;
}

function option(argv: readonly string[], name: string, fallback: string): string {
  const prefix = `--${name}=`;
  return argv.find((a) => a.startsWith(prefix))?.slice(prefix.length) ?? fallback;
}

const COLUMNS = ['input', 'MB', 'routecert MB/s', 'baseline MB/s', 'base/rc', 'rc growth/2x', 'rc/JSON.parse', 'hits (rc vs base)'];
const WIDTHS = [10, 2, 16, 36, 7, 12, 17, 17];

function printHeader(): void {
  console.log(COLUMNS.map((c, k) => c.padEnd(WIDTHS[k] as number)).join(' | '));
  console.log(WIDTHS.map((w) => '-'.repeat(w)).join('-|-'));
}

function printRow(row: Row): void {
  const rate = (ms: number): string => `${((row.sizeMb * 1000) / ms).toFixed(1)} (${formatMs(ms)})`;
  const cells = [
    row.input,
    String(row.sizeMb),
    rate(row.routecertMs),
    typeof row.baselineMs === 'string' ? row.baselineMs : rate(row.baselineMs),
    typeof row.baselineMs === 'string' ? '-' : `${(row.baselineMs / row.routecertMs).toFixed(1)}x`,
    row.growth === undefined ? '-' : row.growth.toFixed(2),
    row.parseMs === undefined || row.parseRatio === undefined ? '-' : `${row.parseRatio.toFixed(2)} (${formatMs(row.parseMs)})`,
    row.hits,
  ];
  console.log(cells.map((c, k) => c.padEnd(WIDTHS[k] as number)).join(' | '));
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
}

function printTargets(rows: readonly Row[]): number {
  const logRates = rows.filter((r) => r.input === 'log').map((r) => (r.sizeMb * 1000) / r.routecertMs);
  const parseRatios = rows.flatMap((r) => (r.parseRatio === undefined ? [] : [r.parseRatio]));
  const growths = rows.flatMap((r) => (r.growth === undefined ? [] : [r.growth]));
  const targets = [
    { name: `plain log text >= ${TARGET_LOG_MB_S} MB/s (slowest size)`, value: Math.min(...logRates), met: (v: number) => v >= TARGET_LOG_MB_S, unit: ' MB/s' },
    { name: `valid brace-dense JSON within ${TARGET_PARSE_RATIO}x of JSON.parse (worst size)`, value: Math.max(...parseRatios), met: (v: number) => v <= TARGET_PARSE_RATIO, unit: 'x' },
    { name: `routecert growth <= ${TARGET_GROWTH} per doubling (worst cell)`, value: Math.max(...growths), met: (v: number) => v <= TARGET_GROWTH, unit: '' },
  ];
  console.log('\ntargets:');
  let code = 0;
  for (const t of targets) {
    if (!Number.isFinite(t.value)) {
      console.log(`  n/a    ${t.name}: not measured with these options`);
      continue;
    }
    const met = t.met(t.value);
    if (!met) code = 1;
    console.log(`  ${met ? 'met   ' : 'MISSED'} ${t.name}: ${t.value.toFixed(2)}${t.unit}`);
  }
  if (Math.max(...growths) > TARGET_GROWTH) {
    console.log(
      '\nnote: a single growth step above 2.2 on an input with many hits is usually V8 collecting the\n' +
        'retained results once they outgrow the young generation (JSON.parse shows it too). To tell GC\n' +
        'from the scan, rerun with a larger young generation: node --max-semi-space-size=128 bin/bench.js scan',
    );
  }
  return code;
}
