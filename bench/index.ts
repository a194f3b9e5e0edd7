/**
 * `npm run bench`: runs each registered benchmark in turn (bin/bench.js calls
 * {@link runBenchmarks}). To add one, export a {@link Benchmark} from `bench/<name>.bench.ts` and
 * append it to `benches`.
 *
 * Usage: `npm run bench [-- [name...] [options]]`; names select benchmarks (default: all), other
 * arguments go to each benchmark (see `--help`).
 */
import type { Benchmark } from './benchmark.ts';
import { robustnessBench } from './robustness.bench.ts';
import { scanBench } from './scan.bench.ts';
import { probesBench } from './probes.bench.ts';

const benches: readonly Benchmark[] = [scanBench, robustnessBench, probesBench];

/** Runs the selected benchmarks; resolves to the worst exit code (0 ok, 1 target missed, 2 usage). */
export async function runBenchmarks(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log('usage: npm run bench -- [name...] [options]\n\nbenchmarks:');
    for (const b of benches) console.log(`  ${b.name.padEnd(8)} ${b.description}`);
    console.log('\noptions (scan): --quick (1,2,4 MiB, 3 rounds, no memory section)  --sizes=1,2,4,8,16,32,64 (MiB)  --runs=5 (interleaved rounds)  --clock=cpu|wall  --memory-mb=100  --run-cases-mb=100 --run-cases-candidates=500000 (0 = off)');
    console.log('options (robustness): --inputs=envelope-100mb,line-1mb,nesting-10k,invalid-utf8,nul-bytes');
    console.log('options (probes): --reports=<dir> (where the whole run writes its reports; default a fresh temporary folder, kept)  --phase (the probe phase alone, in this process, target 3x)  --clis=claude,codex (with --phase; default: every installed CLI with a probe plan)');
    return 0;
  }
  const names = new Set(benches.map((b) => b.name));
  const selected = argv.filter((a) => names.has(a));
  const unknown = argv.filter((a) => !a.startsWith('-') && !names.has(a));
  if (unknown.length > 0) {
    console.error(`[routecert] unknown benchmark ${unknown.join(', ')}; valid: ${[...names].join(', ')}`);
    return 2;
  }
  const rest = argv.filter((a) => !names.has(a));
  // Every option must be one a selected benchmark reads: a typo (`--size=1`, `--quik`) is refused,
  // not run as the defaults (the whole 1-64 MiB scan and the memory section).
  const chosen = benches.filter((b) => selected.length === 0 || selected.includes(b.name));
  const known = chosen.flatMap((b) => b.options);
  const stray = rest.filter((a) => !known.some((o) => (o.endsWith('=') ? a.startsWith(o) && a.length > o.length : a === o)));
  if (stray.length > 0) {
    console.error(`[routecert] bench: unknown option ${stray.join(', ')} for ${chosen.map((b) => b.name).join(', ')}; options: ${known.map((o) => (o.endsWith('=') ? `${o}<value>` : o)).join(' ')} (npm run bench -- --help)`);
    return 2;
  }
  let code = 0;
  for (const bench of benches) {
    if (selected.length > 0 && !selected.includes(bench.name)) continue;
    console.log(`\n# ${bench.name}: ${bench.description}\n`);
    code = Math.max(code, await bench.run(rest));
  }
  return code;
}
