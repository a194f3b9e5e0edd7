/**
 * `routecert run`: the corpus (the bundled one, or a team's cases judged by its config's contracts),
 * plus hermetic probes of the installed CLIs, into reports/<run>/. Filters are checked against what
 * exists before anything runs (src/cli/options.ts).
 */
import { constants } from 'node:fs';
import { access, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { runConformance, type LiveSource } from '#src/harness/run.ts';
import { projectPath } from '#src/paths.ts';
import { probeCaseId, probeLiveSource } from '#src/harness/probeSource.ts';
import { ProbeRunPool } from '#src/probe/pool.ts';
import { contractSubjects, startupProbeSource } from '#src/harness/startupProbes.ts';
import { certifyLiveSource, certifyCaseId } from '#src/harness/certify/liveSource.ts';
import { referenceWorkerConfig } from '#src/harness/certify/reference.ts';
import { CHECKS } from '#src/harness/certify/checks.ts';
import { CertifyConfigError } from '#src/harness/certify/config.ts';
import { planFor } from '#src/harness/probePlan.ts';
import type { Shard } from '#src/harness/shard.ts';
import { genericDecoderFromOption } from '#src/routes/generic/decoder.ts';
import { withDecoders } from '#src/routes/registry.ts';
import type { RouteDecoder } from '#src/envelope/types.ts';
import { clisOf, configFor, ownCasesFolder, profilesOf } from '#src/config/project.ts';
import type { DefinedContract } from '#src/contract/define.ts';
import { PROBE_DRIVERS } from '#src/probe/drivers.ts';
import { startupRoutes } from '#src/probe/startup.ts';
import { loadCorpus, RELEASE_CASE_BYTES } from '#src/record/corpus.ts';
import { progressReporter } from '#src/report/progress.ts';
import { createReporters, defaultReporterNames, FILE_REPORTERS, type BuiltinReporterName } from '#src/report/registry.ts';
import type { Reporter } from '#src/report/reporter.ts';
import { resolveReporters } from '../reporterModules.ts';
import { checkCasesFolder, outputFiles, replayCommand, selectionProblems, shownPath, UsageError, type Selectable } from '../options.ts';

/** Options of `routecert run` as commander parses them. */
export interface RunCommandOptions {
  /** The cases folder; @default the config's `cases`, else `cases` beside the config, else the bundled fixtures/cases. */
  cases?: string;
  /** A config file (src/config/project.ts); @default ./routecert.config.* when present (not in routecert's own checkout). Its `reporters` are used when no `--reporter` is given. */
  config?: string;
  case?: string[];
  route?: string[];
  contract?: string[];
  tag?: string[];
  reports: string;
  probes: boolean;
  probeTimeout: number;
  /** `--no-certify` sets false: do not certify the bundled reference worker (also off with `--no-probes`). */
  certify?: boolean;
  quiet?: boolean;
  /** `--generic <route>=<spec>`: routes decoded by a generic decoder configured by a spec (src/routes/generic/decoder.ts). */
  generic?: string[];
  /** `--max-case-mb <MiB>`: largest case file to load (default 256 MiB, src/record/corpus.ts). */
  maxCaseMb?: number;
  /** `--reporter <name|path>` (repeatable): the reporters instead of the defaults (report.json is always written); a path is a module (../reporterModules.ts). */
  reporter?: string[];
  /** `--output-file [<reporter>=]<path>` (repeatable). */
  outputFile?: string[];
  /** `--shard i/n`: only this shard's cases and probes. */
  shard?: Shard;
  /** `--no-progress` sets false. */
  progress?: boolean;
  /** `--bin <cli>=<path>`: probe these binaries instead of the pinned ones (by CLI name; src/cli/options.ts `binOption` parsed them). */
  bin?: Record<string, string>;
  /** `--full-values`: keep answer values and long texts whole in the reports (src/report/bound.ts). */
  fullValues?: boolean;
}

/** A run folder name: UTC time, sortable, e.g. `20261130-041500`. */
export function runFolderName(date = new Date()): string {
  return date.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

/** The usage error for a `--reports` folder that cannot hold a run folder (`error` from the file system). */
function reportsUnusable(parent: string, error: unknown): UsageError {
  const code = (error as NodeJS.ErrnoException).code ?? 'error';
  const why = code === 'EEXIST' || code === 'ENOTDIR' ? 'is not a folder (or a file is on its path)' : code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? `is not writable (${code})` : `cannot hold a run folder (${code})`;
  return new UsageError(`--reports ${parent} ${why}: give a folder routecert can write its run folders in`);
}

/**
 * Check, before a long command starts and without creating anything, that `parent` can hold a run
 * folder: it is a writable folder, or the nearest folder that exists on its path is one. So a
 * `--reports` naming a file or a read-only folder is a usage error (exit 2) before a certification
 * runs, not an internal error (exit 3) after it, its certificate lost (issue 23, repeated on
 * hostile inputs).
 *
 * @throws UsageError when it cannot.
 */
export async function checkReportsFolder(parent: string): Promise<void> {
  const target = path.resolve(parent);
  let at = target;
  for (;;) {
    const info = await stat(at).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? null : Promise.reject(reportsUnusable(parent, error))));
    if (info !== null) {
      if (!info.isDirectory()) throw reportsUnusable(parent, { code: at === target ? 'EEXIST' : 'ENOTDIR' });
      await access(at, constants.W_OK | constants.X_OK).catch((error: unknown) => Promise.reject(reportsUnusable(parent, error)));
      return;
    }
    const up = path.dirname(at);
    if (up === at) return;
    at = up;
  }
}

/**
 * Create a run folder of its own under `parent` (issue 23 point 5): `<runFolderName>`, else
 * `<runFolderName>-2`, `-3`, ... Each is created exclusively (`mkdir` without `recursive` fails on
 * an existing folder), so two runs started in the same second never share one. Returns its path.
 *
 * @throws UsageError when `parent` is not a folder routecert can create and write in (a file, a
 *   read-only folder: exit 2, not an internal error).
 * @throws Error when 1000 names are taken.
 */
export async function createRunFolder(parent: string, date = new Date()): Promise<string> {
  await mkdir(parent, { recursive: true }).catch((error: unknown) => Promise.reject(reportsUnusable(parent, error)));
  const base = runFolderName(date);
  for (let n = 1; n <= 1000; n += 1) {
    const dir = path.resolve(parent, n === 1 ? base : `${base}-${n}`);
    try {
      await mkdir(dir);
      return dir;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw reportsUnusable(parent, error);
    }
  }
  throw new Error(`[routecert] ${parent} already holds 1000 run folders named ${base}*`);
}

/**
 * What the live sources of a run with probes could select (for the filter check and the names its
 * error offers): the startup probes always; the bundled scenario probes (tag `probe` and their plans'
 * tags) only in a run without a config; the certification (tags `certify`, `smoke`, `check` and what
 * the checks cover) only when a worker is certified. A tag offered here selects something.
 */
function liveSelectable(certifyRoutes: readonly string[], bundledProbes: boolean): Selectable {
  const drivers = bundledProbes ? PROBE_DRIVERS : [];
  const routes = PROBE_DRIVERS.flatMap((d) => startupRoutes(d)).concat(drivers.flatMap((d) => d.routes));
  const certifyTags = certifyRoutes.length > 0 ? ['certify', 'smoke', 'check', ...CHECKS.flatMap((c) => c.covers)] : [];
  const tags = ['startup', ...(bundledProbes ? ['probe'] : []), ...certifyTags, ...drivers.flatMap((d) => planFor(d.cli).flatMap((p) => p.tags))];
  const ids = [
    ...drivers.flatMap((d) => d.routes.flatMap((r) => planFor(d.cli).map((p) => probeCaseId(r, p.slug)))),
    // Each check's own id: a misspelt one (`certify-grok-json-retry-onse`) is refused up front; the
    // route's prefix alone let it pass, and the run then judged nothing.
    ...certifyRoutes.flatMap((r) => CHECKS.map((c) => certifyCaseId(r, c.id))),
  ];
  return { routes: [...routes, ...certifyRoutes.map((r) => `certify:${r}`)], contracts: ['pov'], tags, ids };
}

/** Run and report; returns the exit code. */
export async function runCommand(opts: RunCommandOptions, commandLine: string): Promise<number> {
  try {
    return await run(opts, commandLine);
  } catch (error) {
    if (error instanceof UsageError || error instanceof CertifyConfigError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

async function run(opts: RunCommandOptions, commandLine: string): Promise<number> {
  const project = await configFor(opts.config);
  // A config with contracts judges its own cases (its `cases`, else `cases/` beside it); one with
  // only a worker to certify judges the bundled corpus, as a run without a config does.
  const casesDir = opts.cases !== undefined ? path.resolve(opts.cases) : ((project && ownCasesFolder(project)) ?? projectPath('fixtures/cases'));
  const bundled = casesDir === projectPath('fixtures/cases');
  const fromConfig = opts.cases === undefined && project && !bundled ? { file: shownPath(project.file), field: project.casesDir !== null ? 'the `cases` field' : 'the default cases folder (no `cases` field; cases/ beside the config)' } : undefined;
  await checkCasesFolder(casesDir, opts.cases ?? shownPath(casesDir), fromConfig);
  if (opts.maxCaseMb !== undefined && !(opts.maxCaseMb > 0)) throw new UsageError('--max-case-mb takes a size in MiB greater than 0, e.g. --max-case-mb 512');
  let decoders: RouteDecoder[] | undefined;
  const bins = opts.bin ?? {};
  try {
    decoders = opts.generic?.length ? withDecoders(opts.generic.map(genericDecoderFromOption)) : undefined;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const filter = {
    ...(opts.case ? { ids: opts.case } : {}),
    ...(opts.route ? { routes: opts.route } : {}),
    ...(opts.contract ? { contracts: opts.contract } : {}),
    ...(opts.tag ? { tags: opts.tag } : {}),
    ...(opts.shard ? { shard: opts.shard } : {}),
  };
  const corpus = await loadCorpus(casesDir, { releaseAbove: RELEASE_CASE_BYTES, ...(opts.maxCaseMb === undefined ? {} : { maxBytes: Math.round(opts.maxCaseMb * 2 ** 20) }) });
  // What discovery passed over on purpose is named (a loop, a second link to a folder, a named pipe).
  for (const k of corpus.skipped) process.stderr.write(`[routecert] ${k.file}: ${k.message}\n`);
  // A team's run: their schemas in the startup table of the installed CLIs, their worker (if the
  // config has one) certified. The bundled scenario probes stay with `routecert probe` and the
  // checkout's own run: they test routecert's routes, not the team's contracts.
  const certifyConfig = project ? project.certify : opts.probes && opts.certify !== false ? referenceWorkerConfig({ inProcess: true }) : null;
  const certifying = opts.probes && opts.certify !== false && certifyConfig !== null;
  const genericRoutes = (opts.generic ?? []).map((g) => g.slice(0, g.indexOf('=')));
  const problems = selectionProblems(corpus.cases, filter, opts.probes ? liveSelectable(certifying ? certifyConfig.config.routes : [], !project) : null, { cases: opts.cases ?? (bundled ? "the bundled corpus (routecert's fixtures/cases)" : shownPath(casesDir)) }, corpus.errors, genericRoutes);
  // Certification rides with the probes: a filter that names it under --no-probes selects nothing, and says why.
  const namesCertification = (opts.route ?? []).some((r) => r.startsWith('certify')) || (opts.case ?? []).some((id) => id.startsWith('certify-'));
  if (!opts.probes && namesCertification) problems.push('certification (routes certify:<route>, case ids certify-...) is off under --no-probes: drop --no-probes (certification runs a fake CLI, no real one), or run `npx routecert certify`');
  if (problems.length > 0) throw new UsageError(problems.join('\n[routecert] '));
  // A config's worker is not certified under --no-probes: said, so a green run is not read as a certificate.
  if (!opts.probes && project?.certify) process.stderr.write(`[routecert] worker ${project.certify.config.worker.name} of ${shownPath(project.file)} is not certified in this run (--no-probes turns certification off): drop --no-probes, or run \`npx routecert certify\`\n`);

  const chosen: (BuiltinReporterName | Reporter)[] = opts.reporter?.length ? await resolveReporters(opts.reporter) : (project?.reporters ?? defaultReporterNames());
  const names = chosen.filter((r): r is BuiltinReporterName => typeof r === 'string');
  const files = outputFiles(opts.outputFile ?? [], names);
  const dir = await createRunFolder(opts.reports);
  // report.json is always written into the run folder: merge-reports and diff read it.
  const withJson: (BuiltinReporterName | Reporter)[] = names.includes('json') && !files.json ? chosen : [...chosen, 'json'];
  const stdout = (s: string) => process.stdout.write(s);
  const tty = Boolean(process.stderr.isTTY && process.stdout.isTTY) && !process.env.CI;
  // ROUTECERT_PROGRESS_MS: the CI line's period (tests shorten it; the default is the reporter's 20 s).
  const every = Number(process.env.ROUTECERT_PROGRESS_MS);
  const progress = opts.progress === false ? undefined : progressReporter({ write: (s) => process.stderr.write(s), tty, ...(every > 0 ? { intervalMs: every } : {}) });
  const reporters = [
    ...(progress ? [progress] : []),
    ...createReporters(withJson, { dir, files, write: progress ? progress.wrap(stdout) : stdout, quiet: opts.quiet ?? false }),
    ...(names.includes('json') && files.json ? createReporters(['json'], { dir }) : []),
  ];

  const live: LiveSource[] = [];
  let pool: ProbeRunPool | undefined;
  if (opts.probes && project) {
    // Only what the config selects: its schemas (no keyword canaries), on the CLIs its contracts name.
    const production = await contractSubjects(project.contracts, (c) => profilesOf(c as DefinedContract));
    const named = new Set(project.contracts.flatMap((c) => clisOf(c)));
    live.push(
      startupProbeSource({
        timeoutMs: opts.probeTimeout,
        production,
        rows: ['production'],
        drivers: PROBE_DRIVERS.filter((d) => named.has(d.cli)),
        bins,
        failListed: true,
        replay: `npx routecert probe --startup --config ${shownPath(project.file)}`,
      }),
    );
  } else if (opts.probes) {
    // One pool for every CLI run of the run: the scenario probes and the startup table (issue 24).
    pool = new ProbeRunPool();
    live.push(probeLiveSource({ timeoutMs: opts.probeTimeout, bins, casesDir, pool }), startupProbeSource({ timeoutMs: opts.probeTimeout, bins, pool }));
  }
  // The worker: the config's, or the reference worker certified in-process with fake CLIs replaying the corpus (route `certify:<route>`).
  if (certifying) live.push(certifyLiveSource(certifyConfig, { parallelRoutes: true, concurrency: 8 }));
  const { report, exitCode } = await runConformance({
    casesDir,
    corpus,
    filter,
    reporters,
    live,
    ...(project ? { contracts: project.contracts } : {}),
    ...(decoders ? { decoders } : {}),
    command: `routecert ${commandLine}`,
    ...(opts.fullValues ? { fullValues: true } : {}),
    replay: replayCommand({ cases: bundled ? undefined : (opts.cases ?? shownPath(casesDir)), config: opts.config ?? (project ? shownPath(project.file) : undefined), generic: opts.generic }),
  });
  if (pool && pool.byCli.size > 0) process.stdout.write(`${pool.summary()}\n`);
  const written = [...new Set(reporters.map((r) => r.name))].filter((n) => (FILE_REPORTERS as readonly string[]).includes(n));
  process.stdout.write(`reports: ${shownPath(dir)}/ (${written.join(', ')})${Object.keys(files).length ? `; ${Object.entries(files).map(([k, v]) => `${k}: ${v}`).join(', ')}` : ''}\n`);
  if (report.footer.interrupted) {
    process.stderr.write(`[routecert] interrupted by ${report.footer.interrupted}: the reports are partial (${report.summary.total} result(s) before the signal); exit ${exitCode}\n`);
    return exitCode;
  }
  // The startup table is a result of its own: a run that only built it (`--route claude-code/text`,
  // a route only startup probes cover) judged something.
  const startupCells = (report.startupProbes?.rows ?? []).reduce((n, row) => n + row.cells.length, 0);
  if (report.summary.total === 0 && report.faults.length === 0 && startupCells === 0) {
    if (opts.shard) {
      process.stdout.write(`shard ${opts.shard.index}/${opts.shard.count} holds no case of this selection (more shards than cases?)\n`);
      return exitCode;
    }
    process.stderr.write(`[routecert] nothing was judged: no corpus case matched and no live probe ran (is any CLI installed? \`routecert probe --list\`)\n`);
    return 2;
  }
  return exitCode;
}

