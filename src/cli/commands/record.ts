/**
 * `routecert record`: probe the real CLI for each planned behaviour and write redacted case files;
 * `--fix-ids` recomputes the content-hash ids of existing cases instead.
 */
import { readFile } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import { redactValue } from '#src/diagnostics/redact.ts';
import { UnsafeCasePathError, writeFileExclusive } from '#src/record/writeCase.ts';
import { existsSync } from 'node:fs';
import path from 'node:path';
import pc from 'picocolors';
import { loadContract } from '#src/contract/registry.ts';
import { judgeCase } from '#src/contract/judgeCase.ts';
import { decoderFor } from '#src/routes/registry.ts';
import { compareVerdict } from '#src/harness/compare.ts';
import { probeDrift, versionResult } from '#src/harness/drift.ts';
import { planFor } from '#src/harness/probePlan.ts';
import { executePlannedProbe, longestFirst, runAll } from '#src/harness/probeSource.ts';
import { ProbeRunPool } from '#src/probe/pool.ts';
import { projectPath } from '#src/paths.ts';
import { probeTarget } from '../probeTarget.ts';
import { PROBE_DRIVERS, driverFor } from '#src/probe/drivers.ts';
import { caseId } from '#src/record/caseId.ts';
import type { CaseFile } from '#src/envelope/caseTypes.ts';
import { discoverCaseFiles, parseCaseText, readCaseText } from '#src/record/corpus.ts';
import { caseFromProbe, recordedCasePath, writeCaseFile } from '#src/record/recordProbes.ts';
import { availableParallelism } from 'node:os';
import { liveSetup } from '#src/probe/live.ts';
import { CertifyConfigError } from '#src/harness/certify/config.ts';
import { configFor, ownCasesFolder, type ProjectConfig } from '#src/config/project.ts';
import { PayloadGenerationError } from '#src/record/recordContract.ts';
import { UsageError } from '../options.ts';
import { interruption } from '#src/process/interrupt.ts';

/** Options of `routecert record`. */
export interface RecordCommandOptions {
  /** The CLI to record (@default claude); with `config`: only these CLIs of those the contracts name. */
  cli?: string | string[];
  route?: string[];
  scenario?: string[];
  /** The cases folder (see `routecert record --help` for the defaults). */
  out?: string;
  /** `--config <file>`: record the config's contracts (./recordConfig.ts). */
  config?: string;
  /** With `config`: only these contracts; with `from`: the contract that judges the case. */
  contract?: string[];
  /** `--from <capture>`: a bug report to a case (./recordFrom.ts); also `stdout`, `stderr`, `exitCode`, `expect`, `name`, `description`, `ref`, `cliVersion`. */
  from?: string;
  stdout?: string;
  stderr?: string;
  exitCode?: number;
  /** `--signal <name>`: the signal that ended the reported run. */
  signal?: string;
  /** `--timed-out`: the worker's deadline ended the reported run. */
  timedOut?: boolean;
  expect?: string;
  name?: string;
  description?: string;
  ref?: string;
  cliVersion?: string;
  force?: boolean;
  fixIds?: boolean;
  probeTimeout: number;
  /** `--bin <cli>=<path>`: the binaries by CLI name (src/cli/options.ts `binOption` parsed them). */
  bin?: Record<string, string>;
  /** `--live`: record the `final` plan against the real provider with the credentials in the environment. */
  live?: boolean;
  /** Probe a version outside the driver's supported range anyway. */
  allowUnsupported?: boolean;
}

/** Record; returns the exit code (0 all recorded or refused, 1 a recorded verdict differs from the plan's, 2 usage, 3 a probe could not run). */
export async function recordCommand(opts: RecordCommandOptions): Promise<number> {
  try {
    if (opts.from !== undefined || (opts.stdout !== undefined && opts.config === undefined)) return await fromReport(opts);
    if (opts.config !== undefined && !opts.fixIds) {
      const { recordConfigCommand } = await import('./recordConfig.ts');
      const { cli, ...rest } = opts;
      return await recordConfigCommand({ ...rest, config: opts.config, ...(cli !== undefined ? { cli: typeof cli === 'string' ? [cli] : cli } : {}) });
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof CertifyConfigError || error instanceof PayloadGenerationError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const inCheckout = path.resolve(process.cwd()) === projectPath();
  const outDir = opts.out === undefined ? (inCheckout ? projectPath('fixtures/cases') : path.resolve('fixtures/cases')) : path.resolve(opts.out);
  if (opts.fixIds) {
    if (opts.out !== undefined) return fixIds(outDir);
    // Without --out, the folder `run` judges: the config's own cases (--config, or ./routecert.config.*).
    let project: ProjectConfig | null;
    try {
      project = await configFor(typeof opts.config === 'string' ? opts.config : undefined);
    } catch (error) {
      if (!(error instanceof CertifyConfigError)) throw error;
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    const own = project && ownCasesFolder(project);
    return fixIds(own ?? outDir);
  }
  const clis = typeof opts.cli === 'string' ? [opts.cli] : (opts.cli ?? []);
  if (clis.length > 1) {
    process.stderr.write(`[routecert] record (without --config) records one CLI at a time; got --cli ${clis.join(', ')}\n`);
    return 2;
  }
  const cliName = clis[0] ?? 'claude';
  const driver = driverFor(cliName);
  if (!driver) {
    process.stderr.write(`[routecert] record knows these CLIs: ${PROBE_DRIVERS.map((d) => d.cli).join(', ')}. "${cliName}" is not one of them.\n`);
    return 2;
  }
  const bins = opts.bin ?? {};
  // --live without a credential is refused before anything else: the variable to set is the answer.
  if (opts.live) {
    try {
      liveSetup(driver);
    } catch (error) {
      process.stderr.write(`${(error as Error).message}\n`);
      return 2;
    }
  }
  const fullPlan = planFor(driver.cli);
  const routes = driver.routes.filter((r) => !opts.route?.length || opts.route.some((x) => r === x || r.startsWith(`${x}/`)));
  // Live: only the `final` plan (the other plans need the mock to misbehave), written as `live-final`.
  const plan = fullPlan.filter((p) => (opts.live ? p.slug === 'final' : !opts.scenario?.length || opts.scenario.includes(p.slug)));
  // A selection that records nothing is a usage error (exit 2) whether or not the CLI is installed.
  if (routes.length === 0 || plan.length === 0) {
    process.stderr.write(`[routecert] nothing to record. Routes of ${driver.cli}: ${driver.routes.join(', ')}. Scenarios: ${fullPlan.map((p) => p.slug).join(', ') || '(no plan yet)'}.\n`);
    return 2;
  }
  const cli = await probeTarget(driver, bins, opts.allowUnsupported === true);
  if (typeof cli === 'number') return cli;
  if (opts.live) {
    try {
      const setup = liveSetup(driver);
      process.stdout.write(`--live: ${driver.cli} against ${setup.endpoint} with ${setup.credentialVar}, model ${setup.model}\n`);
    } catch (error) {
      process.stderr.write(`${(error as Error).message}\n`);
      return 2;
    }
  }
  const schema = JSON.parse(await readFile(projectPath('schemas/contracts/pov.schema.json'), 'utf8')) as Record<string, unknown>;
  const contract = await loadContract('pov');
  const tasks = routes.flatMap((route) => plan.map((planned) => ({ route, planned })));
  process.stdout.write(`recording ${tasks.length} probe(s) of ${driver.cli} ${cli.version ?? '?'} into ${path.relative(process.cwd(), outDir) || outDir}\n`);
  let faults = 0;
  let mismatches = 0;
  let done = 0;
  const seen: { id: string; conforms: boolean; drift: string[]; broken: boolean }[] = [];
  const recordedVersions = new Set<string>();
  const pool = new ProbeRunPool(availableParallelism());
  await runAll(longestFirst(tasks), (t) => executePlannedProbe(cli, driver, t.route, t.planned, schema, opts.probeTimeout, opts.live === true, pool), async (executed) => {
    done += 1;
    const label = `[${done}/${tasks.length}] ${executed.route} ${executed.planned.slug}`;
    const id = `${executed.route} ${executed.planned.slug}`;
    // A probe stopped by SIGINT/SIGTERM shows the signal, not the CLI: never a case (it would be a
    // false recording, a `timeout` the CLI never had).
    if (interruption()) {
      process.stdout.write(`${pc.yellow('STOPPED')} ${label}: routecert was interrupted (${interruption()}); no case written\n`);
      return;
    }
    if (executed.fault) {
      faults += 1;
      seen.push({ id, conforms: false, drift: [], broken: true });
      process.stdout.write(`${pc.magenta('FAULT')} ${label}: ${executed.fault}\n`);
      return;
    }
    // Drift against the case recorded before (read before it is overwritten): information, never a failure.
    const drift = await probeDrift(outDir, { route: executed.route, slug: opts.live ? `live-${executed.planned.slug}` : executed.planned.slug, version: cli.version, attempts: executed.attempts });
    if (drift.recordedVersion !== null) recordedVersions.add(drift.recordedVersion);
    let c = caseFromProbe(cli, executed);
    if (opts.live) {
      const got = judgeCase(c, contract, decoderFor(c.route)).verdict;
      const origin = 'origin' in got && typeof got.origin === 'string' ? { origin: got.origin } : {};
      c = caseFromProbe(cli, executed, new Date(), { endpoint: liveSetup(driver).endpoint, expect: { verdict: got.verdict, ...origin } as CaseFile['expect'] });
    }
    const verdict = judgeCase(c, contract, decoderFor(c.route)).verdict;
    const mismatch = compareVerdict(c.expect, verdict);
    if (mismatch.length > 0) mismatches += 1;
    seen.push({ id, conforms: mismatch.length === 0 && !drift.broken, drift: drift.drift, broken: drift.broken });
    const outcome = await writeCaseFile(recordedCasePath(outDir, c.route, opts.live ? `live-${executed.planned.slug}` : executed.planned.slug), c, opts.force ?? false, outDir);
    const where = 'written' in outcome ? `wrote ${path.relative(process.cwd(), outcome.written)}` : pc.yellow(`exists, not overwritten (use --force): ${path.relative(process.cwd(), outcome.refused)}`);
    const judged = mismatch.length === 0 ? pc.green(verdict.verdict) : pc.red(`${verdict.verdict} (${mismatch.join('; ')})`);
    const extra = executed.unexpected.length ? pc.red(` unexpected requests: ${executed.unexpected.join(', ')}`) : '';
    process.stdout.write(`${label}: ${judged}; ${where}${extra}\n`);
    for (const d of drift.drift) process.stdout.write(pc.yellow(`        ${d}\n`));
    if (drift.broken) process.stdout.write(pc.magenta(`        broken: the probe crashed or was refused at startup (not drift)\n`));
  });
  if ([...recordedVersions].some((v) => v !== cli.version)) {
    process.stdout.write(`${driver.cli} ${cli.version ?? '?'} against ${path.relative(process.cwd(), outDir) || outDir} (recorded ${[...recordedVersions].sort().join(', ')}): ${versionResult(seen, cli.version)}\n`);
  }
  if (faults > 0) return 3;
  if (mismatches > 0) process.stdout.write(pc.red(`${mismatches} recorded case(s) did not reach the verdict the plan expects (see above); exit 1\n`));
  return mismatches > 0 ? 1 : 0;
}

/** `--from`: one route and one expected verdict are required. */
async function fromReport(opts: RecordCommandOptions): Promise<number> {
  const { recordFromCommand } = await import('./recordFrom.ts');
  if ((opts.route?.length ?? 0) !== 1) throw new UsageError('record --from needs the route of the capture: --route <route>, e.g. --route claude-code/json (`routecert probe --list` lists them)');
  if (opts.expect === undefined) throw new UsageError('record --from needs the verdict the capture should get: --expect <verdict>, e.g. --expect accepted');
  if ((opts.contract?.length ?? 0) > 1) throw new UsageError('record --from takes one --contract');
  return recordFromCommand({
    route: opts.route![0]!,
    expect: opts.expect,
    ...(opts.from !== undefined ? { from: opts.from } : {}),
    ...(opts.stdout !== undefined ? { stdout: opts.stdout } : {}),
    ...(opts.stderr !== undefined ? { stderr: opts.stderr } : {}),
    ...(opts.exitCode !== undefined ? { exitCode: opts.exitCode } : {}),
    ...(opts.signal !== undefined ? { signal: opts.signal } : {}),
    ...(opts.timedOut ? { timedOut: true } : {}),
    ...(opts.contract?.[0] !== undefined ? { contract: opts.contract[0] } : {}),
    ...(opts.config !== undefined ? { config: opts.config } : {}),
    ...(opts.out !== undefined ? { out: opts.out } : {}),
    ...(opts.name !== undefined ? { name: opts.name } : {}),
    ...(opts.description !== undefined ? { description: opts.description } : {}),
    ...(opts.ref !== undefined ? { ref: opts.ref } : {}),
    ...(opts.cliVersion !== undefined ? { cliVersion: opts.cliVersion } : {}),
    ...(opts.force ? { force: true } : {}),
  });
}

async function fixIds(outDir: string): Promise<number> {
  if (!existsSync(outDir)) {
    process.stderr.write(`[routecert] record --fix-ids: no folder ${path.relative(process.cwd(), outDir) || outDir} (name your cases folder with --out <dir>)\n`);
    return 2;
  }
  let changed = 0;
  // Discovery as `run` does it (src/record/corpus.ts): a folder it cannot read is said, never dropped.
  const found = await discoverCaseFiles(outDir);
  const problems = found.errors.map((e) => `${e.file}${e.where ? ` ${e.where}` : ''}: ${e.message}`);
  for (const s of found.skipped) process.stderr.write(`[routecert] ${s.file}: ${s.message}\n`);
  // A folder with no case file selects nothing: an error, not "0 id(s) updated" (a wrong --out passed green).
  if (found.files.length === 0) {
    for (const p of problems) process.stderr.write(`[routecert] ${p}\n`);
    process.stderr.write(`[routecert] record --fix-ids: no case file (*.json) in ${path.relative(process.cwd(), outDir) || outDir}: nothing to fix (name your cases folder with --out <dir>)\n`);
    return 2;
  }
  for (const file of found.files) {
    const shown = path.relative(process.cwd(), file) || file;
    let c: CaseFile;
    try {
      // A BOM or invalid UTF-8 is named, never replaced and written back (the case's bytes would change silently).
      const text = await readCaseText(file, shown);
      if (typeof text !== 'string') {
        problems.push(`${text.file} ${text.where}: ${text.message}; left as it is`);
        continue;
      }
      const parsed = parseCaseText(text, shown);
      if ('error' in parsed) {
        problems.push(`${parsed.error.file} ${parsed.error.where}: ${parsed.error.message}; left as it is`);
        continue;
      }
      c = parsed.value as CaseFile;
    } catch (error) {
      problems.push(`${shown}: cannot read (${(error as Error).message}); left as it is`);
      continue;
    }
    const safe = redactValue(c);
    const id = caseId(safe);
    if (c.id === id && isDeepStrictEqual(safe, c)) continue;
    const { id: _old, ...rest } = safe;
    try {
      // Redacted, atomically replaced, never through a symlink or outside --out (src/record/writeCase.ts).
      await writeFileExclusive(outDir, file, `${JSON.stringify({ id, ...rest }, null, 2)}\n`, true);
    } catch (error) {
      if (!(error instanceof UnsafeCasePathError)) throw error;
      problems.push(error.message.replace(/^\[routecert\] /, ''));
      continue;
    }
    process.stdout.write(`${shown}: id ${c.id ?? '(none)'} -> ${id}\n`);
    changed += 1;
  }
  for (const p of problems) process.stderr.write(`[routecert] ${p}\n`);
  process.stdout.write(`${changed} id(s) updated${problems.length > 0 ? `; ${problems.length} file(s) or folder(s) left as they are (above): exit 2` : ''}\n`);
  return problems.length > 0 ? 2 : 0;
}
