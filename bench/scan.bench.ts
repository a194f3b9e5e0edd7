/**
 * Scanner benchmark (issue 15): routecert's scanner against the raw_decode loop and, where the
 * input is one valid JSON document, `JSON.parse`, then (unless `--quick`) the memory section
 * (bench/memory.bench.ts): peak RSS per route family at 100 MiB and `run --cases` on a ~119 MiB case.
 *
 * Subjects, per input family and size (1 to 64 MiB by default; `--quick`: 1, 2, 4 MiB, 3 rounds,
 * no memory section; 1 MiB = 2^20 bytes, inputs are ASCII):
 * - `scan`: `scanJson(text)`, every top-level hit built and kept (the library call);
 * - `anchored`: `findJsonObjects(text, { anchor: 'position' })`, what the decoders run for the pov
 *   contract: only spans whose text can hold the key are parsed, the rest skipped as offsets;
 * - `raw_decode loop` (the baseline, bench/naive-scan.ts): Python's `json.JSONDecoder.raw_decode`
 *   tried at each `{` or `[` that is not inside an earlier hit: on a success it jumps past the
 *   value, on a failure it moves one character on (the usual way of pulling JSON out of model
 *   output; it is not raw_decode at literally every brace, which would re-read every nested value);
 * - `JSON.parse` on the valid document;
 * - `floor`: the scan's own hits rebuilt from their known spans, `JSON.parse` of each span's text and
 *   a hit record, all kept: what any scanner that builds its values with `JSON.parse` pays on that
 *   input with nothing left to find (issue 24). `scan/floor` is the scanner's share above it; a
 *   family whose floor is below the speed target cannot meet it by a faster search.
 *
 * Timing: medians of the process's CPU time (`--clock=cpu`, default; `--clock=wall` for elapsed
 * time). Every subject is timed in the same interleaved rounds (5 by default): each round times
 * every size once, sizes ascending then descending on alternate rounds, each timed call after a
 * full garbage collection and one untimed call on the same text. Ratios (growth per doubling,
 * baseline / scan, scan / JSON.parse) are medians of the ratios within each round. The baseline
 * runs at a size only while its previous size, scaled by its growth, predicts at most 3 s a call.
 * V8 flags: none, as `bin/routecert.js` (`npm run bench` is `node bin/bench.js`); `--expose-gc` is
 * set at run time only to collect garbage between timed calls.
 *
 * Targets (exit code 1 when one is missed): for `scan`, on every input family, >= 100 MB/s at its
 * slowest size and growth <= 2.2 per doubling at its worst step (issue 24); the valid document
 * within 2x of JSON.parse; growth <= 2.2 per doubling for `anchored`, every family, every size; and
 * the memory targets of bench/memory.bench.ts. A target that the options leave unmeasured (one
 * size: no growth) reads `n/a` and does not fail.
 */
import { availableParallelism, loadavg } from 'node:os';
import { findJsonObjects, type ScanHit, scanJson } from '#src/scan/index.ts';
import { runMemorySection } from './memory.bench.ts';
import { type Benchmark, type Clock, type Milliseconds, median, timeOnce } from './benchmark.ts';
import { naiveScan } from './naive-scan.ts';
import { INPUTS, type InputKind, asDecodedOutput } from './scan.inputs.ts';

const MB = 1 << 20;
const BASELINE_LIMIT_MS = 3_000;
const ANCHOR = 'position';
const TARGET_SCAN_MB_S = 100;
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
  anchoredMs: Milliseconds;
  anchoredGrowth: number | undefined;
  floorMs: Milliseconds;
  /** Median over rounds of scan time / floor time, both timed in the same round. */
  floorRatio: number | undefined;
  /** Median over rounds of baseline time / scan time, both timed in the same round. */
  baselineRatio: number | undefined;
  hits: string;
}

export const scanBench: Benchmark = {
  name: 'scan',
  description: 'routecert scanJson (all hits) and findJsonObjects with an anchor vs the raw_decode loop and JSON.parse, 1-64 MiB; then peak RSS per route family (100 MiB) and of run --cases',
  options: ['--quick', '--sizes=', '--runs=', '--clock=', '--memory-mb=', '--run-cases-mb=', '--run-cases-candidates='],
  run,
};

async function run(argv: readonly string[]): Promise<number> {
  const quick = argv.includes('--quick');
  const sizes = option(argv, 'sizes', quick ? '1,2,4' : '1,2,4,8,16,32,64').split(',').map(Number);
  const rounds = Number(option(argv, 'runs', quick ? '3' : '5'));
  const clock = option(argv, 'clock', 'cpu');
  const memoryMb = Number(option(argv, 'memory-mb', quick ? '0' : '100'));
  const runCasesMb = Number(option(argv, 'run-cases-mb', quick ? '0' : '100'));
  const runCasesCandidates = Number(option(argv, 'run-cases-candidates', quick ? '0' : '500000'));
  if (sizes.some((s) => !(s > 0)) || !(rounds >= 1) || (clock !== 'cpu' && clock !== 'wall') || !(memoryMb >= 0) || !(runCasesMb >= 0) || !Number.isInteger(runCasesCandidates) || runCasesCandidates < 0) {
    console.error('[routecert] --sizes takes positive MiB values (e.g. 1,2,4,8), --runs a count >= 1, --clock cpu or wall, --memory-mb / --run-cases-mb a size, --run-cases-candidates a count (0 = off)');
    return 2;
  }
  const [load] = loadavg();
  console.log(`node ${process.version}, ${process.platform}/${process.arch}; V8 flags: none (as bin/routecert.js); one core, synchronous; ${rounds} interleaved rounds per cell; ${clock === 'cpu' ? 'CPU time of the process' : 'wall time'}`);
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
  let code = printTargets(rows);
  if (memoryMb > 0 || runCasesMb > 0 || runCasesCandidates > 0) code = Math.max(code, await runMemorySection(memoryMb, runCasesMb, runCasesCandidates));
  const [after] = loadavg();
  console.log(`\nload average at the end: ${after?.toFixed(2)}`);
  return code;
}

function measureInput(input: InputKind, seed: number, sizes: readonly number[], rounds: number, clock: Clock): Row[] {
  const texts = sizes.map((sizeMb) => asDecodedOutput(input.generate(Math.round(sizeMb * MB), seed)));
  const spans = texts.map((text) => hitSpans(scanJson(text)));
  const hits = spans.map((s) => s.length / 2);
  for (let w = 0; w < 2; w++) for (const text of texts) scanJson(text); // warm-up: let the JIT settle
  for (const text of texts.slice(0, 2)) findJsonObjects(text, { anchor: ANCHOR });

  const scan: Milliseconds[][] = sizes.map(() => []);
  const anchored: Milliseconds[][] = sizes.map(() => []);
  const floor: Milliseconds[][] = sizes.map(() => []);
  const parse: Milliseconds[][] = sizes.map(() => []);
  const baseline: (Milliseconds | undefined)[][] = sizes.map(() => []);
  const baseHits: (number | undefined)[] = sizes.map(() => undefined);
  // Whether the baseline runs at each size: decided in the first round, from the previous size.
  const baselineOn: boolean[] = sizes.map(() => false);
  let last: { ms: Milliseconds; sizeMb: number; growth: number } | undefined;
  for (let r = 0; r < rounds; r++) {
    // Rounds alternate ascending and descending sizes, so drift in machine speed evens out.
    for (let n = 0; n < texts.length; n++) {
      const k = r % 2 === 0 ? n : texts.length - 1 - n;
      const text = texts[k] as string;
      (scan[k] as Milliseconds[]).push(timeOnce(() => scanJson(text), clock, true));
      (anchored[k] as Milliseconds[]).push(timeOnce(() => findJsonObjects(text, { anchor: ANCHOR }), clock, true));
      const known = spans[k] as Int32Array;
      (floor[k] as Milliseconds[]).push(timeOnce(() => rebuildHits(text, known), clock, true));
      if (input.validJson) (parse[k] as Milliseconds[]).push(timeOnce(() => JSON.parse(text), clock, true));
      if (r === 0) {
        const sizeMb = sizes[k] as number;
        const predicted = last ? last.ms * last.growth ** Math.log2(sizeMb / last.sizeMb) : 0;
        baselineOn[k] = predicted <= BASELINE_LIMIT_MS && (last === undefined || last.ms <= BASELINE_LIMIT_MS);
      }
      if (baselineOn[k]) {
        let found = 0;
        const ms = timeOnce(() => (found = naiveScan(text).length), clock);
        (baseline[k] as (Milliseconds | undefined)[])[r] = ms;
        baseHits[k] = found;
        if (r === 0) {
          const sizeMb = sizes[k] as number;
          const growth = last ? (ms / last.ms) ** (1 / Math.log2(sizeMb / last.sizeMb)) : 2;
          last = { ms, sizeMb, growth: Math.max(growth, 2) };
        }
      }
    }
  }

  const perRound = (a: readonly (number | undefined)[], b: readonly number[], power = 1): number | undefined => {
    const ratios = b.flatMap((t, r) => (a[r] === undefined ? [] : [((a[r] as number) / t) ** power]));
    return ratios.length > 0 ? median(ratios) : undefined;
  };
  return sizes.map((sizeMb, k): Row => {
    const times = scan[k] as Milliseconds[];
    const perDoubling = 1 / Math.log2(sizeMb / (sizes[k - 1] ?? sizeMb));
    const base = (baseline[k] as (Milliseconds | undefined)[]).filter((t): t is number => t !== undefined);
    let hitsCell = String(hits[k]);
    if (baseHits[k] !== undefined && baseHits[k] !== hits[k]) hitsCell = `${hits[k]} vs ${baseHits[k]}`;
    return {
      input: input.name,
      sizeMb,
      routecertMs: median(times),
      baselineMs: base.length > 0 ? median(base) : `skipped: > ${BASELINE_LIMIT_MS / 1000} s predicted`,
      baselineRatio: perRound(baseline[k] as (number | undefined)[], times),
      parseMs: input.validJson ? median(parse[k] as Milliseconds[]) : undefined,
      parseRatio: input.validJson ? perRound(times, parse[k] as Milliseconds[]) : undefined,
      growth: k === 0 ? undefined : perRound(times, scan[k - 1] as Milliseconds[], perDoubling),
      anchoredMs: median(anchored[k] as Milliseconds[]),
      anchoredGrowth: k === 0 ? undefined : perRound(anchored[k] as Milliseconds[], anchored[k - 1] as Milliseconds[], perDoubling),
      floorMs: median(floor[k] as Milliseconds[]),
      floorRatio: perRound(times, floor[k] as Milliseconds[]),
      hits: hitsCell,
    };
  });
}

/** `[start0, end0, start1, end1, ...]` of `hits`. */
function hitSpans(hits: readonly ScanHit[]): Int32Array {
  const spans = new Int32Array(hits.length * 2);
  hits.forEach((hit, k) => {
    spans[2 * k] = hit.start;
    spans[2 * k + 1] = hit.end;
  });
  return spans;
}

/**
 * The `floor` subject: a hit for each known span of `text`, its value built by `JSON.parse` of the
 * span's text, every hit kept (as `scanJson` keeps them). No search, no validation, no fence lookup.
 */
function rebuildHits(text: string, spans: Int32Array): ScanHit[] {
  const hits: ScanHit[] = [];
  for (let k = 0; k < spans.length; k += 2) {
    const start = spans[k] as number;
    const end = spans[k + 1] as number;
    hits.push({ start, end, value: JSON.parse(text.slice(start, end)) as unknown, kind: text.charCodeAt(start) === 0x7b ? 'object' : 'array', fenced: false });
  }
  return hits;
}

function option(argv: readonly string[], name: string, fallback: string): string {
  const prefix = `--${name}=`;
  return argv.find((a) => a.startsWith(prefix))?.slice(prefix.length) ?? fallback;
}

const COLUMNS = ['input', 'MiB', 'scan MB/s', 'growth/2x', 'anchored MB/s', 'growth/2x', 'floor MB/s', 'scan/floor', 'raw_decode loop MB/s', 'base/scan', 'scan/JSON.parse', 'hits (scan vs base)'];
const WIDTHS = [10, 3, 18, 9, 18, 9, 18, 10, 26, 9, 17, 17];

function printHeader(): void {
  console.log(COLUMNS.map((c, k) => c.padEnd(WIDTHS[k] as number)).join(' | '));
  console.log(WIDTHS.map((w) => '-'.repeat(w)).join('-|-'));
}

function printRow(row: Row): void {
  const rate = (ms: number): string => `${((row.sizeMb * MB) / 1e6 / (ms / 1000)).toFixed(1)} (${formatMs(ms)})`;
  const cells = [
    row.input,
    String(row.sizeMb),
    rate(row.routecertMs),
    row.growth === undefined ? '-' : row.growth.toFixed(2),
    rate(row.anchoredMs),
    row.anchoredGrowth === undefined ? '-' : row.anchoredGrowth.toFixed(2),
    rate(row.floorMs),
    row.floorRatio === undefined ? '-' : row.floorRatio.toFixed(2),
    typeof row.baselineMs === 'string' ? row.baselineMs : rate(row.baselineMs),
    row.baselineRatio === undefined ? '-' : `${row.baselineRatio.toFixed(1)}x`,
    row.parseMs === undefined || row.parseRatio === undefined ? '-' : `${row.parseRatio.toFixed(2)} (${formatMs(row.parseMs)})`,
    row.hits,
  ];
  console.log(cells.map((c, k) => c.padEnd(WIDTHS[k] as number)).join(' | '));
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
}

function printTargets(rows: readonly Row[]): number {
  const rate = (r: Row): number => (r.sizeMb * MB) / 1e6 / (r.routecertMs / 1000);
  const parseRatios = rows.flatMap((r) => (r.parseRatio === undefined ? [] : [r.parseRatio]));
  /** The worst cell of `rows` by `pick` (the largest value; `sign` -1: the smallest). */
  const worst = (of: readonly Row[], pick: (r: Row) => number | undefined, sign = 1): { value: number; where: string } => {
    let value = -Infinity * sign;
    let where = '';
    for (const r of of) {
      const v = pick(r);
      if (v !== undefined && v * sign > value * sign) {
        value = v;
        where = `${r.input} ${r.sizeMb} MiB`;
      }
    }
    return { value, where };
  };
  const families = [...new Set(rows.map((r) => r.input))];
  const slowest = worst(rows, rate, -1);
  const scanGrowth = worst(rows, (r) => r.growth);
  const anchoredGrowth = worst(rows, (r) => r.anchoredGrowth);
  const maxParse = parseRatios.reduce((m, v) => Math.max(m, v), -Infinity);
  const targets = [
    // Issue 24: scan >= 100 MB/s and growth <= 2.2 per doubling on every input family, every size.
    ...families.flatMap((family) => {
      const of = rows.filter((r) => r.input === family);
      const speed = worst(of, rate, -1);
      const growth = worst(of, (r) => r.growth);
      return [
        { name: `${family}: scan >= ${TARGET_SCAN_MB_S} MB/s (slowest size)`, value: speed.value, met: (v: number) => v >= TARGET_SCAN_MB_S, unit: ' MB/s', where: speed.where },
        { name: `${family}: scan growth <= ${TARGET_GROWTH} per doubling (worst step)`, value: growth.value, met: (v: number) => v <= TARGET_GROWTH, unit: '', where: growth.where },
      ];
    }),
    { name: `valid brace-dense JSON within ${TARGET_PARSE_RATIO}x of JSON.parse (worst size)`, value: maxParse, met: (v: number) => v <= TARGET_PARSE_RATIO, unit: 'x', where: '' },
    { name: `anchored growth <= ${TARGET_GROWTH} per doubling (worst cell)`, value: anchoredGrowth.value, met: (v: number) => v <= TARGET_GROWTH, unit: '', where: anchoredGrowth.where },
  ];
  console.log('\ntargets (time):');
  let code = 0;
  for (const t of targets) {
    if (!Number.isFinite(t.value)) {
      console.log(`  n/a    ${t.name}: not measured with these options`);
      continue;
    }
    const met = t.met(t.value);
    if (!met) code = 1;
    console.log(`  ${met ? 'met   ' : 'MISSED'} ${t.name}: ${t.value.toFixed(2)}${t.unit}${t.where ? ` (${t.where})` : ''}`);
  }
  if (Number.isFinite(slowest.value) && Number.isFinite(scanGrowth.value)) {
    const met = slowest.value >= TARGET_SCAN_MB_S && scanGrowth.value <= TARGET_GROWTH;
    console.log(
      `  ${met ? 'met   ' : 'MISSED'} scan >= ${TARGET_SCAN_MB_S} MB/s and growth <= ${TARGET_GROWTH} per doubling on every input family: ` +
        `slowest ${slowest.value.toFixed(1)} MB/s (${slowest.where}), worst growth ${scanGrowth.value.toFixed(2)} (${scanGrowth.where})`,
    );
  }
  if (scanGrowth.value > TARGET_GROWTH) {
    console.log(
      '\nnote: scan builds and keeps every hit; a growth step above 2.2 there is V8 collecting the retained\n' +
        'results once they outgrow the young generation (JSON.parse and the floor column show it too); the\n' +
        'anchored column, which builds only candidates, is what a decoder pays.',
    );
  }
  const floorRate = (r: Row): number => (r.sizeMb * MB) / 1e6 / (r.floorMs / 1000);
  for (const family of families) {
    const of = rows.filter((r) => r.input === family);
    const floorSlowest = worst(of, floorRate, -1);
    if (worst(of, rate, -1).value >= TARGET_SCAN_MB_S || floorSlowest.value >= TARGET_SCAN_MB_S) continue;
    console.log(
      `note: ${family}: the floor alone (JSON.parse of each hit's span and its hit record, all kept, nothing searched)\n` +
        `runs at ${floorSlowest.value.toFixed(1)} MB/s (${floorSlowest.where}), below ${TARGET_SCAN_MB_S} MB/s in this run: a faster search alone\n` +
        'cannot meet this speed target there; only cheaper values or fewer kept objects could.',
    );
  }
  return code;
}
