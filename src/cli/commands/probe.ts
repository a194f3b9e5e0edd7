/**
 * `routecert probe`: `--list` prints the known CLIs (installed or not, version, hermetic support,
 * routes); `--startup-table` prints the startup table of every installed schema-flag CLI; otherwise
 * one hermetic probe of a CLI, judged by the pov contract.
 */
import { didYouMeanTail } from '#src/diagnostics/didYouMean.ts';
import { availableParallelism } from 'node:os';
import pLimit from 'p-limit';
import { schemaSizeProblem } from '#src/schema/limit.ts';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import pc from 'picocolors';
import { planFor, schemaFor } from '#src/harness/probePlan.ts';
import { loadContract } from '#src/contract/registry.ts';
import { decoderFor } from '#src/routes/registry.ts';
import { projectPath } from '#src/paths.ts';
import { resolveCli } from '#src/probe/discover.ts';
import { probeTarget } from '../probeTarget.ts';
import { PROBE_DRIVERS, driverFor } from '#src/probe/drivers.ts';
import { rangeText } from '#src/probe/versions.ts';
import { KNOWN_CLIS } from '#src/probe/known.ts';
import { runProbe, runStartupProbe } from '#src/probe/run.ts';
import { liveSecrets, liveSetup } from '#src/probe/live.ts';
import { redactValue } from '#src/diagnostics/redact.ts';
import { classifyStartup } from '#src/probe/startup.ts';
import { SCENARIOS, isScenarioName } from '#src/mock/scenarios.ts';

/** Options of `routecert probe`. */
export interface ProbeCommandOptions {
  list?: boolean;
  cli: string;
  route?: string;
  scenario: string;
  schema?: string;
  startup?: boolean;
  startupTable?: boolean;
  probeTimeout: number;
  json?: boolean;
  /** A config file: `--startup` probes the schema of each of its contracts (see {@link configStartupCommand}). */
  config?: string;
  /** `--bin <cli>=<path>`: the binaries by CLI name (src/cli/options.ts `binOption` parsed them). */
  bin?: Record<string, string>;
  /** `--live`: the real provider with the credentials in the environment (never without the flag). */
  live?: boolean;
  /** Probe a version outside the driver's supported range anyway. */
  allowUnsupported?: boolean;
}

/** Probe or list; returns the exit code. */
export async function probeCommand(opts: ProbeCommandOptions): Promise<number> {
  // One resolution of the CLI under test for every probe command: --bin, else ROUTECERT_BIN_<CLI>, else installed.
  // A named candidate that cannot be run never gets here (src/cli/main.ts checks them for every command that takes --bin).
  const bins = opts.bin ?? {};
  if (opts.list) return listClis(opts.json ?? false, bins);
  if (opts.live && (opts.config !== undefined || opts.startupTable)) {
    process.stderr.write('[routecert] --live probes one CLI: use --live --startup --cli <cli> [--schema <file>] (not with --config or --startup-table)\n');
    return 2;
  }
  if (opts.config !== undefined && (opts.startup || opts.startupTable)) return configStartupCommand(opts, bins);
  if (opts.config !== undefined) {
    process.stderr.write('[routecert] probe --config probes the schemas of the config at startup: add --startup\n');
    return 2;
  }
  if (opts.startupTable) return startupTableCommand(opts, bins);
  const driver = driverFor(opts.cli);
  if (!driver) {
    const clis = PROBE_DRIVERS.map((d) => d.cli);
    process.stderr.write(`[routecert] hermetic probes exist for: ${clis.join(', ')}. "${opts.cli}" has none yet${didYouMeanTail(opts.cli, clis)} (see \`routecert probe --list\`).\n`);
    return 2;
  }
  const route = opts.route ?? driver.routes[0]!;
  if (!driver.routes.includes(route)) {
    process.stderr.write(`[routecert] unknown route "${route}". Routes of ${driver.cli}: ${driver.routes.join(', ')}.\n`);
    return 2;
  }
  if (!isScenarioName(opts.scenario)) {
    process.stderr.write(`[routecert] unknown scenario "${opts.scenario}". Scenarios: ${SCENARIOS.join(', ')}.\n`);
    return 2;
  }
  let schema: Record<string, unknown>;
  const schemaFile = opts.schema ? path.resolve(opts.schema) : projectPath('schemas/contracts/pov.schema.json');
  const tooLarge = schemaSizeProblem(schemaFile);
  if (tooLarge) {
    process.stderr.write(`[routecert] ${tooLarge}\n`);
    return 2;
  }
  try {
    schema = JSON.parse(await readFile(schemaFile, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    process.stderr.write(`[routecert] cannot read the schema ${schemaFile}: ${(error as Error).message}\n`);
    return 2;
  }
  // Without --schema: the pov schema as the CLI's own probe plan sends it (Codex: the OpenAI-strict
  // variant its provider takes), so the README's `probe --cli codex` passes as written.
  const variant = opts.schema ? null : (planFor(driver.cli).find((p) => p.slug === opts.scenario) ?? planFor(driver.cli).find((p) => p.slug === 'final'))?.schema;
  if (variant === 'openai-strict') schema = schemaFor(variant, schema);
  const schemaShown = opts.schema ?? (variant === 'openai-strict' ? 'the default pov schema in its OpenAI-strict form (schemas/contracts/pov.openai-strict.schema.json)' : 'the default pov production schema');
  // --live without a credential is refused before anything else: the variable to set is the answer.
  let live: ReturnType<typeof liveSetup> | undefined;
  if (opts.live) {
    try {
      live = liveSetup(driver);
    } catch (error) {
      process.stderr.write(`${(error as Error).message}\n`);
      return 2;
    }
  }
  const cli = await probeTarget(driver, bins, opts.allowUnsupported === true);
  if (typeof cli === 'number') return cli;
  if (live) process.stderr.write(`[routecert] --live: ${driver.cli} ${cli.version ?? '?'} against ${live.endpoint} with ${live.credentialVar}, model ${live.model} (throwaway HOME and cwd)\n`);
  if (opts.startup) {
    // classifyStartup also reads a provider's refusal (Codex: the mock's `invalid_json_schema`), not only the CLI's stderr.
    // Live: through the loopback tap, reaped at the provider's first answer; shown redacted.
    const probed = await runStartupProbe(cli, route, schema, { timeoutMs: opts.probeTimeout, driver, ...(opts.live ? { live: true } : {}) });
    const r = opts.live ? redactValue(probed, { secrets: liveSecrets() }) : probed;
    const seen = classifyStartup(r, driver);
    const accepted = seen.outcome === 'accepted';
    if (opts.json) process.stdout.write(`${JSON.stringify({ accepted, stage: seen.stage, rejection: seen.outcome === 'rejected' ? seen.message : null, fault: r.fault ?? (seen.outcome === 'fault' ? seen.message : null), cli: r.cli, route, ...(r.live ? { live: r.live } : {}) }, null, 2)}\n`);
    else process.stdout.write(seen.outcome === 'fault' ? `${pc.magenta('FAULT')} ${seen.message ?? ''}\n` : accepted ? `${pc.green('accepted')}: ${driver.cli} ${cli.version ?? '?'} takes the schema on ${route}\n` : `${pc.red('rejected')} (${seen.stage ?? '?'}): ${seen.message ?? ''}\n`);
    return seen.outcome === 'fault' ? 3 : accepted ? 0 : 1;
  }
  const probed = await runProbe({ cli, driver, route, scenario: opts.scenario, schema, timeoutMs: opts.probeTimeout, ...(opts.live ? { live: true } : {}) });
  // A live run's output is redacted before it is shown: no credential, token, e-mail or home path.
  const r = opts.live ? redactValue(probed, { secrets: liveSecrets() }) : probed;
  if (r.fault) {
    process.stderr.write(`${r.fault}\n`);
    return 3;
  }
  const contract = await loadContract('pov');
  const decoder = decoderFor(route);
  const verdict = contract.judge(decoder.decode(r.envelope, contract.decodeOptions), { attempt: 0, elapsedMs: r.envelope.elapsedMs });
  if (opts.json) {
    process.stdout.write(`${JSON.stringify({ route, scenario: opts.live ? 'live' : opts.scenario, cli: r.cli, argv: r.argv, envelope: r.envelope, verdict, unexpected: r.unexpected, ...(r.live ? { live: r.live } : {}) }, null, 2)}\n`);
  } else {
    process.stdout.write(`${driver.cli} ${cli.version ?? '?'} ${route} ${opts.live ? `live (${r.live?.model ?? '?'})` : `scenario ${opts.scenario}`}: exit ${String(r.envelope.exitCode)}, ${r.envelope.elapsedMs} ms, ${r.requests.length} request(s)\n`);
    process.stdout.write(`verdict: ${verdict.verdict}\n`);
    for (const e of verdict.evidence) process.stdout.write(`  ${e}\n`);
    for (const u of r.unexpected) process.stdout.write(`${pc.red('unexpected request')}: ${u.method} ${u.path}\n`);
  }
  if (r.unexpected.length > 0) return 3;
  // The verdict the scenario must reach (the probe plan's, for this CLI and route): another one is a conformance failure.
  const expected = expectedVerdict(driver.cli, route, opts.scenario);
  if (expected === null) {
    if (!opts.json) process.stdout.write(pc.dim(`(no expectation for scenario ${opts.scenario}; the verdict is shown, not judged)\n`));
    return 0;
  }
  if (verdict.verdict !== expected) {
    if (!opts.json) process.stdout.write(`${pc.red('FAIL')}: expected ${expected}, got ${verdict.verdict} (with ${schemaShown}${opts.schema ? '' : '; give --schema to send another'})\n`);
    return 1;
  }
  if (!opts.json) process.stdout.write(`${pc.green('PASS')}: ${verdict.verdict}, as scenario ${opts.scenario} expects\n`);
  return 0;
}

/**
 * The verdict a one-attempt scenario must reach on `route`: `accepted` for `final`, else the probe
 * plan's expectation for the planned probe with that single scenario and the pov schema (production or OpenAI-strict);
 * null when the plan has none.
 */
function expectedVerdict(cli: string, route: string, scenario: string): string | null {
  if (scenario === 'final') return 'accepted';
  const planned = planFor(cli).find((p) => p.scenarios.length === 1 && p.scenarios[0] === scenario && p.schema !== 'meta-root');
  return planned ? planned.expect(route).verdict : null;
}

/**
 * `--startup --config <file>`: the startup smoke test of a team's schemas: the schema of every
 * contract of the config, on every installed schema-flag CLI and each of its output formats, one
 * table. Exit 1 when a CLI that a contract sends its schema to (`clis`) rejects it; 3 when a probe
 * could not be carried out or no schema-flag CLI is installed; 2 for a bad config; else 0. A
 * rejection by a CLI the contract does not name is shown, not counted.
 */
async function configStartupCommand(opts: ProbeCommandOptions, bins: Readonly<Record<string, string>>): Promise<number> {
  const { buildStartupTable, contractSubjects, startupTargets } = await import('#src/harness/startupProbes.ts');
  const { startupTableText } = await import('#src/report/startupTable.ts');
  const { configFor, profilesOf } = await import('#src/config/project.ts');
  let production;
  try {
    const project = await configFor(opts.config);
    if (!project || project.contracts.length === 0) {
      process.stderr.write('[routecert] the config defines no contracts whose schemas could be probed\n');
      return 2;
    }
    const byName = new Map(project.contracts.map((c) => [c.name, c]));
    production = await contractSubjects(project.contracts, (c) => profilesOf(byName.get(c.name)!));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 2;
  }
  const targets = await startupTargets(undefined, bins);
  const table = await buildStartupTable({ targets, rows: ['production'], production, timeoutMs: opts.probeTimeout, ...cellProgress() });
  process.stdout.write(opts.json ? `${JSON.stringify(table, null, 2)}\n` : startupTableText(table));
  if (!table.columns.some((c) => c.installed)) {
    process.stderr.write('[routecert] no CLI that takes a schema flag is installed (claude, codex, qwen): nothing was probed\n');
    return 3;
  }
  if (table.summary.faults > 0) return 3;
  return table.summary.listedRejected > 0 ? 1 : 0;
}

/**
 * `--startup-table`: build the startup table (src/harness/startupProbes.ts) and print it (text, or
 * the table as JSON with `--json`). Exit 3 when a probe could not be carried out or no schema-flag
 * CLI is installed, 1 when a cell disagrees with the lint profile or a production schema is rejected
 * by a CLI that profiles.json sends it to, else 0.
 */
async function startupTableCommand(opts: ProbeCommandOptions, bins: Readonly<Record<string, string>>): Promise<number> {
  const { buildStartupTable, startupTargets } = await import('#src/harness/startupProbes.ts');
  const { startupTableText } = await import('#src/report/startupTable.ts');
  const targets = await startupTargets(undefined, bins);
  const table = await buildStartupTable({ targets, timeoutMs: opts.probeTimeout, ...cellProgress() });
  process.stdout.write(opts.json ? `${JSON.stringify(table, null, 2)}\n` : startupTableText(table));
  if (table.summary.faults > 0 || !table.columns.some((c) => c.installed)) return 3;
  return table.summary.disagreements > 0 || table.summary.listedRejected > 0 ? 1 : 0;
}

/** Progress of a startup table on stderr: one line per cell as it is probed, `[done/total] cli version row: outcome`. */
function cellProgress(): { onPlanned: (cells: number) => void; onCell: (row: { label: string }, cell: { cli: string; version: string | null; outcome: string }) => void } {
  let total = 0;
  let done = 0;
  return {
    onPlanned: (cells) => {
      total = cells;
      process.stderr.write(`[routecert] startup probes: ${cells} cell(s) to probe\n`);
    },
    onCell: (row, cell) => {
      done += 1;
      process.stderr.write(`[routecert] [${done}/${total}] ${cell.cli} ${cell.version ?? '(version unknown)'} ${row.label}: ${cell.outcome}\n`);
    },
  };
}

async function listClis(json: boolean, bins: Readonly<Record<string, string>>): Promise<number> {
  // Each CLI's `--version` takes 0.1-5 s (Gemini CLI and Qwen Code start their whole bundle): they
  // run side by side, one per core, and each row is printed as soon as it and those above it are known.
  const limit = pLimit(Math.max(1, availableParallelism()));
  const pending = KNOWN_CLIS.map((known) =>
    limit(async () => {
      let installed = false;
      let version: string | null = null;
      let where: string | null = null;
      let installHint: string | null = null;
      const driver = PROBE_DRIVERS.find((d) => d.cli === known.name);
      if (driver) {
        const d = await resolveCli(driver, bins);
        installed = d.bin !== null;
        version = d.version;
        where = d.source === 'candidate' ? `candidate ${d.bin ?? ''}` : d.source;
        installHint = installed ? null : (d.problem ?? d.installHint);
      } else if (known.npmPackage !== null || known.hermetic === 'no') {
        const found = await execa('sh', ['-c', `command -v ${known.bin}`], { reject: false });
        installed = found.exitCode === 0 && found.stdout.trim() !== '';
        where = installed ? 'PATH' : null;
      }
      return { ...known, installed, version, where, supported: driver ? rangeText(driver.versions) : null, installHint };
    }),
  );
  if (json) {
    process.stdout.write(`${JSON.stringify(await Promise.all(pending), null, 2)}\n`);
    return 0;
  }
  for (const row of pending) {
    const r = await row;
    const state = r.installed ? pc.green(`installed ${r.version ?? ''}`.trim()) : pc.yellow('not installed');
    process.stdout.write(`${r.name.padEnd(14)} ${state.padEnd(30)} hermetic: ${r.hermetic.padEnd(8)} routes: ${r.routes.join(', ')}${r.supported ? `; supported ${r.supported}` : ''}\n`);
    process.stdout.write(pc.dim(`${''.padEnd(14)} ${r.npmPackage ? `npm ${r.npmPackage}` : 'not on npm'}; ${r.note}\n`));
    if (r.installHint) process.stdout.write(pc.dim(`${''.padEnd(14)} to install: ${r.installHint}\n`));
  }
  return 0;
}
