/**
 * The whole run beside its floor (issue 24, "the whole run at the floor"): the real all-CLI
 * `npm start` (`node bin/routecert.js run`, a child process on the sources of this checkout, every
 * installed CLI) against the floor of every real CLI run it starts: each CLI's own start-up, times
 * the runs of that CLI the run started (scenario probes and startup table; the child prints them,
 * `CLI runs: ...`), summed and shared over the cores. Target: under 2x. `--phase` measures only the
 * probe phase in this process instead (issues 3 and 12: the scenario probes of every installed CLI,
 * target 3x).
 *
 * A CLI's start-up is measured the way a probe sees it: spawn to the first request at the mock in
 * a hermetic `final` run (the CLI has loaded, read its config and called the model). `--version`
 * is printed beside it but is no start-up: several CLIs answer it before loading anything
 * (Claude Code 2.1.332: 23 ms for `--version`, 510 ms to its first request; Qwen Code 0.24.4:
 * 54 ms and 2.5 s). The start-up rounds are interleaved with the measured run (two before, one
 * after; the median is used), so both see the same machine load.
 */
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { mkdtemp, readFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { execa } from 'execa';
import { planFor, schemaFor, type PlannedProbe } from '#src/harness/probePlan.ts';
import { executePlannedProbe, longestFirst, runAll } from '#src/harness/probeSource.ts';
import { parseCliRuns, ProbeRunPool } from '#src/probe/pool.ts';
import { projectPath } from '#src/paths.ts';
import { discoverCli, type DiscoveredCli } from '#src/probe/discover.ts';
import type { ProbeDriver } from '#src/probe/driver.ts';
import { PROBE_DRIVERS } from '#src/probe/drivers.ts';
import { runProbe } from '#src/probe/run.ts';
import type { Benchmark } from './benchmark.ts';
import { sourceChildEnv } from './children.ts';

/** Wall time (ms) of `<bin> --version` in a clean environment. */
async function versionMs(bin: string): Promise<number> {
  const started = performance.now();
  await execa(bin, ['--version'], { reject: false, stdin: 'ignore', extendEnv: false, env: { PATH: process.env.PATH ?? '', HOME: process.env.TMPDIR ?? '/tmp' }, timeout: 30_000 });
  return performance.now() - started;
}

/** The CLI's start-up (ms): spawn to its first request at the mock, in a hermetic run of its `final` plan; `null` when no request came. */
async function startupMs(driver: ProbeDriver, cli: DiscoveredCli, schema: Record<string, unknown>): Promise<number | null> {
  const final = planFor(driver.cli).find((p) => p.slug === 'final');
  const r = await runProbe({ cli, driver, route: driver.routes[0]!, scenario: 'final', schema: schemaFor(final?.schema ?? 'production', schema) });
  return r.firstRequestMs;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)] ?? Number.NaN;
};
const load = (): string => loadavg().map((l) => l.toFixed(2)).join(' / ');

export const probesBench: Benchmark = {
  name: 'probes',
  description: 'wall time of the whole all-CLI `npm start` vs the floor of its CLI runs (their own start-up, summed over the runs, per core); --phase: the probe phase only',
  options: ['--clis=', '--phase', '--reports='],
  async run(argv) {
    const only = argv.find((a) => a.startsWith('--clis='))?.slice('--clis='.length).split(',');
    const cores = availableParallelism();
    console.log(`machine load (1/5/15 min) at the start: ${load()} on ${cores} cores`);
    const schema = JSON.parse(await readFile(projectPath('schemas/contracts/pov.schema.json'), 'utf8')) as Record<string, unknown>;
    const installed: { driver: ProbeDriver; cli: DiscoveredCli }[] = [];
    for (const driver of PROBE_DRIVERS) {
      if (only && !only.includes(driver.cli)) continue;
      const cli = await discoverCli(driver.cli, { bin: driver.bin, npmPackage: driver.npmPackage });
      if (cli.bin === null) console.log(`${driver.cli}: not installed (npm run probes:install), left out`);
      else if (planFor(driver.cli).length === 0) console.log(`${driver.cli}: no probe plan, left out`);
      else installed.push({ driver, cli });
    }
    if (installed.length === 0) {
      console.log('no installed CLI with a probe plan: nothing to measure');
      return 0;
    }
    const phase = argv.includes('--phase');
    if (!phase && only) {
      console.error('[routecert] --clis selects CLIs of the probe phase (--phase); the whole run probes every installed CLI');
      return 2;
    }
    const samples = new Map<string, { startup: number[]; version: number[] }>(installed.map(({ driver }) => [driver.cli, { startup: [], version: [] }]));
    const round = async (): Promise<void> => {
      for (const { driver, cli } of installed) {
        const s = samples.get(driver.cli)!;
        const ms = await startupMs(driver, cli, schema);
        if (ms !== null) s.startup.push(ms);
        s.version.push(await versionMs(cli.bin!));
      }
    };
    process.stdout.write('start-up rounds before the run: ');
    await round();
    await round();
    process.stdout.write('2 done\n');

    const measured = phase ? await probePhase(installed, schema, cores) : await wholeRun(argv);
    if (measured === null) return 1;
    process.stdout.write('start-up round after the run...\n');
    await round();

    console.log('');
    console.log(`cli        start-up (ms)  --version (ms)  runs${phase ? '  probe time (s)  per run (ms)  per run / start-up' : ''}`);
    let floorSerial = 0;
    let versionSerial = 0;
    let missing = 0;
    for (const { driver } of installed) {
      const s = samples.get(driver.cli)!;
      const spent = measured.byCli.get(driver.cli) ?? { runs: 0, ms: 0 };
      const startup = median(s.startup);
      if (s.startup.length === 0) missing += 1;
      floorSerial += (Number.isNaN(startup) ? 0 : startup) * spent.runs;
      versionSerial += median(s.version) * spent.runs;
      const perRun = spent.runs > 0 ? spent.ms / spent.runs : 0;
      const times = phase ? `  ${(spent.ms / 1000).toFixed(1).padStart(14)}  ${perRun.toFixed(0).padStart(12)}  ${(perRun / startup).toFixed(2).padStart(18)}` : '';
      console.log(`${driver.cli.padEnd(10)} ${(Number.isNaN(startup) ? 'no request' : startup.toFixed(0)).padStart(13)}  ${median(s.version).toFixed(0).padStart(14)}  ${String(spent.runs).padStart(4)}${times}`);
    }
    const floor = floorSerial / cores;
    const runs = [...measured.byCli.values()].reduce((n, c) => n + c.runs, 0);
    const target = phase ? 3 : 2;
    const ratio = measured.wallMs / floor;
    console.log('');
    console.log(`${measured.what}; CLI runs started: ${runs} (${measured.shared} asked-for runs shared one already started), ${cores} at once${measured.faults ? `, ${measured.faults} faults` : ''}`);
    console.log(`floor (start-up x runs started / ${cores} cores): ${(floor / 1000).toFixed(1)} s  (serial sum ${(floorSerial / 1000).toFixed(1)} s)`);
    console.log(`wall time of ${phase ? 'the probe phase' : 'the whole run'}: ${(measured.wallMs / 1000).toFixed(1)} s`);
    const met = ratio < target && measured.faults === 0 && missing === 0;
    console.log(`ratio wall / floor: ${ratio.toFixed(2)} (target < ${target}): ${met ? 'met' : '**missed**'}`);
    console.log(`for comparison, against --version x runs / ${cores} cores (${(versionSerial / cores / 1000).toFixed(1)} s): ${(measured.wallMs / (versionSerial / cores)).toFixed(2)}`);
    console.log(`machine load (1/5/15 min) at the end: ${load()} on ${cores} cores`);
    if (missing > 0) console.log(`${missing} CLI(s) made no request in a final run: their start-up is unknown and counted 0 (check \`npx routecert probe --cli <name> --scenario final\`)`);
    return met ? 0 : 1;
  },
};

/** What a measured run started and how long it took. */
interface Measured {
  what: string;
  wallMs: number;
  byCli: Map<string, { runs: number; ms: number }>;
  shared: number;
  faults: number;
}

/** The probe phase alone, in this process: every planned probe of every installed CLI through one pool (`--phase`). */
async function probePhase(installed: readonly { driver: ProbeDriver; cli: DiscoveredCli }[], schema: Record<string, unknown>, cores: number): Promise<Measured> {
  const tasks: { driver: ProbeDriver; cli: DiscoveredCli; route: string; planned: PlannedProbe }[] = [];
  for (const { driver, cli } of installed) for (const route of driver.routes) for (const planned of planFor(driver.cli)) tasks.push({ driver, cli, route, planned });
  const attempts = tasks.reduce((n, t) => n + t.planned.scenarios.length, 0);
  console.log('probing every installed CLI (the probe phase only)...');
  const pool = new ProbeRunPool(cores);
  const started = performance.now();
  let faults = 0;
  let done = 0;
  await runAll(longestFirst(tasks), (t) => executePlannedProbe(t.cli, t.driver, t.route, t.planned, schema, 60_000, false, pool), async (e) => {
    done += 1;
    if (e.fault) {
      faults += 1;
      console.log(`  fault: ${e.route} ${e.planned.slug}: ${e.fault}`);
    }
    if (process.env.ROUTECERT_BENCH_TRACE) console.log(`  [${done}/${tasks.length}] ${e.route} ${e.planned.slug}: ${e.durationMs.toFixed(0)} ms`);
  });
  return { what: `planned attempts: ${attempts} in ${tasks.length} planned probes`, wallMs: performance.now() - started, byCli: pool.byCli, shared: pool.reused, faults };
}

/**
 * The whole `npm start` (`node bin/routecert.js run`, reports in a fresh folder under the system's
 * temporary folder, kept for `routecert diff`), its progress lines passed through; `null` (after
 * saying why) when it printed no `CLI runs:` line. A run that does not exit 0 counts as a fault.
 */
async function wholeRun(argv: readonly string[]): Promise<Measured | null> {
  const reports = argv.find((a) => a.startsWith('--reports='))?.slice('--reports='.length) ?? (await mkdtemp(path.join(tmpdir(), 'routecert-bench-whole-')));
  console.log(`the whole run: node bin/routecert.js run --reports ${reports} (progress every 30 s)...`);
  const started = performance.now();
  const child = await execa(process.execPath, [projectPath('bin/routecert.js'), 'run', '--reports', reports], {
    reject: false,
    cwd: projectPath('.'),
    env: sourceChildEnv({ ROUTECERT_PROGRESS_MS: '30000' }),
    stdin: 'ignore',
    stderr: 'inherit',
    maxBuffer: 512 * 2 ** 20,
  });
  const wallMs = performance.now() - started;
  const out = String(child.stdout);
  const lines = out.split('\n').filter((l) => l.trim() !== '');
  for (const l of lines.slice(-4)) console.log(`  | ${l}`);
  const runs = parseCliRuns(out);
  if (runs === null) {
    console.log(`the whole run printed no \`CLI runs:\` line (exit ${String(child.exitCode)}): no CLI ran, nothing to set beside a floor: **missed**`);
    return null;
  }
  if (child.exitCode !== 0) console.log(`the whole run exited ${String(child.exitCode)}: counted as a fault`);
  return {
    what: `the whole run (exit ${String(child.exitCode)}, reports in ${reports})`,
    wallMs,
    byCli: new Map([...runs.byCli].map(([cli, n]) => [cli, { runs: n, ms: 0 }])),
    shared: runs.shared,
    faults: child.exitCode === 0 ? 0 : 1,
  };
}