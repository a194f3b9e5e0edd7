/**
 * Probe wall time: probing every installed CLI (its whole plan, all routes, concurrency bounded by
 * the cores, as `routecert run` does) beside the floor, the sum of the CLIs' own start-up times
 * (`<cli> --version`, once per probe run) shared over the cores. The baseline runs in the same
 * process right before, so both see the same machine load. Issue 3: "npm run bench reports the wall
 * time of probing every installed CLI beside the sum of the CLIs' own start-up times (the floor)".
 */
import { availableParallelism, loadavg } from 'node:os';
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { execa } from 'execa';
import { planFor, type PlannedProbe } from '#src/harness/probePlan.ts';
import { executePlannedProbe, longestFirst, runBounded } from '#src/harness/probeSource.ts';
import { projectPath } from '#src/paths.ts';
import { discoverCli, type DiscoveredCli } from '#src/probe/discover.ts';
import type { ProbeDriver } from '#src/probe/driver.ts';
import { PROBE_DRIVERS } from '#src/probe/drivers.ts';
import type { Benchmark } from './benchmark.ts';

/** Wall time (ms) of `<bin> --version` in a clean environment: the CLI's own start-up. */
async function startupMs(bin: string): Promise<number> {
  const started = performance.now();
  await execa(bin, ['--version'], { reject: false, stdin: 'ignore', extendEnv: false, env: { PATH: process.env.PATH ?? '', HOME: process.env.TMPDIR ?? '/tmp' }, timeout: 30_000 });
  return performance.now() - started;
}

export const probesBench: Benchmark = {
  name: 'probes',
  description: 'wall time of probing every installed CLI vs the sum of their start-up times (the floor)',
  async run(argv) {
    const only = argv.find((a) => a.startsWith('--clis='))?.slice('--clis='.length).split(',');
    const cores = availableParallelism();
    // Measure only on a quiet machine: the ratio is meaningless when other work holds the cores.
    console.log(`machine load (1/5/15 min) at the start: ${loadavg().map((l) => l.toFixed(2)).join(' / ')} on ${cores} cores`);
    const schema = JSON.parse(await readFile(projectPath('schemas/contracts/pov.schema.json'), 'utf8')) as Record<string, unknown>;
    const installed: { driver: ProbeDriver; cli: DiscoveredCli }[] = [];
    for (const driver of PROBE_DRIVERS) {
      if (only && !only.includes(driver.cli)) continue;
      const cli = await discoverCli(driver.cli, { bin: driver.bin });
      if (cli.bin === null) console.log(`${driver.cli}: not installed (npm run probes:install), left out`);
      else if (planFor(driver.cli).length === 0) console.log(`${driver.cli}: no probe plan, left out`);
      else installed.push({ driver, cli });
    }
    if (installed.length === 0) {
      console.log('no installed CLI with a probe plan: nothing to measure');
      return 0;
    }
    const tasks: { driver: ProbeDriver; cli: DiscoveredCli; route: string; planned: PlannedProbe }[] = [];
    for (const { driver, cli } of installed) for (const route of driver.routes) for (const planned of planFor(driver.cli)) tasks.push({ driver, cli, route, planned });

    // Baseline: each CLI's start-up, measured 3 times (median), counted once per process a probe spawns.
    const rows: { cli: string; startup: number; runs: number }[] = [];
    for (const { driver, cli } of installed) {
      const samples = [await startupMs(cli.bin!), await startupMs(cli.bin!), await startupMs(cli.bin!)].sort((a, b) => a - b);
      const runs = tasks.filter((t) => t.driver === driver).reduce((n, t) => n + t.planned.scenarios.length, 0);
      rows.push({ cli: driver.cli, startup: samples[1]!, runs });
    }
    const floorSerial = rows.reduce((s, r) => s + r.startup * r.runs, 0);
    const floor = floorSerial / cores;

    const started = performance.now();
    let faults = 0;
    await runBounded(longestFirst(tasks), cores, (t) => executePlannedProbe(t.cli, t.driver, t.route, t.planned, schema, 60_000), async (e) => {
      if (e.fault) faults += 1;
    });
    const wall = performance.now() - started;

    console.log('cli        start-up (ms)  probe runs');
    for (const r of rows) console.log(`${r.cli.padEnd(10)} ${r.startup.toFixed(0).padStart(13)}  ${String(r.runs).padStart(10)}`);
    console.log('');
    console.log(`probe runs: ${tasks.reduce((n, t) => n + t.planned.scenarios.length, 0)} in ${tasks.length} planned probes, ${cores} at once${faults ? `, ${faults} faults` : ''}`);
    console.log(`floor (sum of start-up times / ${cores} cores): ${(floor / 1000).toFixed(1)} s  (serial sum ${(floorSerial / 1000).toFixed(1)} s)`);
    console.log(`routecert wall time probing every installed CLI: ${(wall / 1000).toFixed(1)} s`);
    console.log(`ratio wall / floor: ${(wall / floor).toFixed(2)} (target <= 3)`);
    console.log(`machine load (1/5/15 min) at the end: ${loadavg().map((l) => l.toFixed(2)).join(' / ')} on ${cores} cores`);
    return faults > 0 ? 1 : 0;
  },
};
