/**
 * `npm run probes:matrix` (not in CI; slow, needs the npm registry): for each CLI with a probe
 * driver, install the oldest supported, a middle and the newest release into a temp prefix
 * (`npm install --prefix <tmp> <pkg>@<version>`), probe each with its whole plan (as
 * `routecert run` does, through `--bin`), compare with the recorded corpus, and write the support
 * table to probes/support.md and into README.md between the `probes:matrix` markers. The rows of
 * CLIs this run did not probe are kept (read back from probes/support.md), sorted by CLI then
 * version (src/probe/supportTable.ts).
 *
 * Options: `--clis=claude,copilot` (default: every driver), `--plans=final,stall` (plan slugs;
 * default: the whole plan), `--versions=claude:2.1.250+2.1.290,copilot:1.0.81` (instead of
 * oldest/middle/newest), `--no-readme`.
 *
 * "Oldest supported" is the driver's `versions.min` (src/routes/<cli>/probe.ts); a driver without a table
 * starts at its pinned version. The supported range is a fact of the driver file, set by a person
 * from this table: the matrix is evidence, not the rule.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { probeLiveSource } from '../src/harness/probeSource.ts';
import { planFor } from '../src/harness/probePlan.ts';
import { projectPath } from '../src/paths.ts';
import type { ProbeDriver } from '../src/probe/driver.ts';
import { PROBE_DRIVERS } from '../src/probe/drivers.ts';
import { mergeRows, parseTable, renderTable, spliceReadme, type SupportRow } from '../src/probe/supportTable.ts';
import { compareVersions, rangeText, supportOf } from '../src/probe/versions.ts';
import type { CaseResult } from '../src/report/types.ts';

const run = promisify(execFile);

function arg(name: string): string | undefined {
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

async function pinnedVersion(driver: ProbeDriver): Promise<string | null> {
  const pkg = JSON.parse(await readFile(projectPath('probes/package.json'), 'utf8')) as { dependencies: Record<string, string> };
  return pkg.dependencies[driver.npmPackage] ?? null;
}

/** Stable releases of `pkg`, oldest first (`npm view <pkg> versions --json`). */
async function releases(pkg: string): Promise<string[]> {
  const { stdout } = await run('npm', ['view', pkg, 'versions', '--json'], { maxBuffer: 16 * 1024 * 1024 });
  const all = JSON.parse(stdout) as string[] | string;
  return (Array.isArray(all) ? all : [all]).filter((v) => !v.includes('-')).sort(compareVersions);
}

/** Oldest supported, middle, newest (distinct). */
function pick(stable: string[], from: string): string[] {
  const inRange = stable.filter((v) => compareVersions(v, from) >= 0);
  if (inRange.length === 0) return [from];
  const chosen = [inRange[0]!, inRange[Math.floor((inRange.length - 1) / 2)]!, inRange[inRange.length - 1]!];
  return [...new Set(chosen)];
}

async function probeVersion(driver: ProbeDriver, version: string, plans: string[] | undefined, probed: string): Promise<SupportRow> {
  const prefix = await mkdtemp(path.join(tmpdir(), `routecert-matrix-${driver.cli}-`));
  try {
    await run('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-save', `${driver.npmPackage}@${version}`], { maxBuffer: 64 * 1024 * 1024, timeout: 15 * 60_000 });
    const source = probeLiveSource({ timeoutMs: 60_000, drivers: [driver], bins: { [driver.cli]: prefix } });
    const [status] = await source.clis();
    if (!status?.installed) return { cli: driver.cli, version, passed: 0, probes: 0, result: 'broken', inRange: false, note: status?.note ?? 'not installed', probed };
    const ids = plans ? driver.routes.flatMap((r) => plans.map((p) => `probe-${r.replace(/\//g, '-')}-${p}`)) : undefined;
    const results: CaseResult[] = [];
    const faults = await source.run(async (r) => void results.push(r), ids ? { ids } : {});
    const versions = source.sections?.().versions ?? [];
    const passed = results.filter((r) => r.outcome === 'pass').length;
    const failing = results.filter((r) => r.outcome !== 'pass');
    const result = versions[0]?.result ?? (failing.length === 0 ? 'same' : `breaks: ${failing.map((r) => r.id).join(', ')}`);
    // The row names the release installed; a CLI whose `--version` says otherwise (grok-cli 0.0.34
    // prints 1.0.1) gets that in the note, since the range check reads what the CLI reports.
    const reports = status.version !== null && status.version !== version ? [`\`${driver.bin} --version\` says ${status.version}`] : [];
    const note = [...reports, ...faults.map((f) => f.message), ...failing.slice(0, 2).map((r) => `${r.id}: ${r.problems[0] ?? r.outcome}`)].join('; ').slice(0, 300);
    return { cli: driver.cli, version, passed, probes: results.length, result, inRange: supportOf(driver, status.version).supported, note, probed };
  } catch (error) {
    return { cli: driver.cli, version, passed: 0, probes: 0, result: 'broken', inRange: false, note: `install or probe failed: ${(error as Error).message.split('\n')[0]}`, probed };
  } finally {
    await rm(prefix, { recursive: true, force: true }).catch(() => undefined);
  }
}

async function main(): Promise<number> {
  const clis = arg('clis')?.split(',');
  const plans = arg('plans')?.split(',');
  const fixed = new Map((arg('versions')?.split(',') ?? []).map((s) => [s.split(':')[0]!, s.split(':')[1]!.split('+')]));
  const date = new Date().toISOString().slice(0, 10);
  const probed = plans ? `${date}, plans ${plans.join(', ')}` : date;
  const supportFile = projectPath('probes/support.md');
  // Read before probing: a table that does not parse fails now, not after an hour of probes.
  const previous = parseTable(await readFile(supportFile, 'utf8').catch(() => ''), 'probes/support.md');
  const probedClis = new Set<string>();
  const rows: SupportRow[] = [];
  for (const driver of PROBE_DRIVERS) {
    if (clis && !clis.includes(driver.cli)) continue;
    if (planFor(driver.cli).length === 0) continue;
    const from = driver.versions?.min ?? (await pinnedVersion(driver)) ?? '0.0.0';
    const versions = fixed.get(driver.cli) ?? pick(await releases(driver.npmPackage), from);
    probedClis.add(driver.cli);
    for (const version of versions) {
      process.stdout.write(`${driver.cli} ${version}: installing and probing...\n`);
      const row = await probeVersion(driver, version, plans, probed);
      process.stdout.write(`${driver.cli} ${row.version}: ${row.passed}/${row.probes} passed; ${row.result}${row.note ? ` (${row.note})` : ''}\n`);
      rows.push(row);
    }
  }
  const text = renderTable(mergeRows(previous, rows, probedClis), (cli) => rangeText(PROBE_DRIVERS.find((d) => d.cli === cli)?.versions));
  await writeFile(supportFile, `# CLI support\n\n${text}`);
  if (!process.argv.includes('--no-readme')) {
    const readme = await readFile(projectPath('README.md'), 'utf8');
    await writeFile(projectPath('README.md'), spliceReadme(readme, text));
  }
  process.stdout.write(`\n${text}\nwrote probes/support.md${process.argv.includes('--no-readme') ? '' : ' and the README table'}\n`);
  return rows.some((r) => r.result === 'broken' && r.inRange) ? 1 : 0;
}

process.exitCode = await main();
