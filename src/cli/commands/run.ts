/**
 * `routecert run`: the corpus, plus hermetic probes of the installed CLIs, into reports/<run>/.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { runConformance, type LiveSource } from '#src/harness/run.ts';
import { consoleReporter } from '#src/report/console.ts';
import { jsonReporter } from '#src/report/json.ts';
import { junitReporter } from '#src/report/junit.ts';
import { markdownReporter } from '#src/report/markdown.ts';
import { projectPath } from '#src/paths.ts';
import { probeLiveSource } from '#src/harness/probeSource.ts';
import { contractSubjects, startupProbeSource } from '#src/harness/startupProbes.ts';
import { certifyLiveSource } from '#src/harness/certify/liveSource.ts';
import { referenceWorkerConfig } from '#src/harness/certify/reference.ts';
import { genericDecoderFromOption } from '#src/envelope/generic.ts';
import { withDecoders } from '#src/envelope/registry.ts';
import type { RouteDecoder } from '#src/envelope/types.ts';
import { configFor, profilesOf, type ProjectConfig } from '#src/config/project.ts';
import type { DefinedContract } from '#src/contract/define.ts';

/** Options of `routecert run` as commander parses them. */
export interface RunCommandOptions {
  /** The cases folder; @default the config's `cases`, else `cases` beside the config, else the bundled fixtures/cases. */
  cases?: string;
  /** A config file (src/config/project.ts); @default ./routecert.config.* when present (not in routecert's own checkout). */
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
  /** `--generic <route>=<spec>`: routes decoded by a generic decoder configured by a spec (src/envelope/generic.ts). */
  generic?: string[];
  /** `--max-case-mb <MiB>`: largest case file to load (default 256 MiB, src/record/corpus.ts). */
  maxCaseMb?: number;
}

/** A run folder name: UTC time, sortable, e.g. `20261130-041500`. */
export function runFolderName(date = new Date()): string {
  return date.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

/** Run and report; returns the exit code. */
export async function runCommand(opts: RunCommandOptions, commandLine: string): Promise<number> {
  let project: ProjectConfig | null;
  try {
    project = await configFor(opts.config);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 2;
  }
  const casesDir =
    opts.cases !== undefined
      ? path.resolve(opts.cases)
      : project
        ? (project.casesDir ?? path.join(project.dir, 'cases'))
        : projectPath('fixtures/cases');
  if (opts.maxCaseMb !== undefined && !(opts.maxCaseMb > 0)) {
    process.stderr.write('--max-case-mb takes a size in MiB greater than 0, e.g. --max-case-mb 512\n');
    return 2;
  }
  let decoders: RouteDecoder[] | undefined;
  try {
    decoders = opts.generic?.length ? withDecoders(opts.generic.map(genericDecoderFromOption)) : undefined;
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 2;
  }
  const dir = path.resolve(opts.reports, runFolderName());
  await mkdir(dir, { recursive: true });
  const live: LiveSource[] = [];
  if (opts.probes && project) {
    // A team's run: their schemas in the startup table of the installed CLIs, their worker (if the
    // config has one) certified. The bundled scenario probes stay with `routecert probe` and the
    // checkout's own run: they test routecert's routes, not the team's contracts.
    const production = await contractSubjects(project.contracts, (c) => profilesOf(c as DefinedContract));
    live.push(
      startupProbeSource({ timeoutMs: opts.probeTimeout, production, failListed: true, replay: `npx routecert probe --startup --config ${path.relative(process.cwd(), project.file) || project.file}` }),
    );
    if (project.certify && opts.certify !== false) live.push(certifyLiveSource(project.certify, { parallelRoutes: true, concurrency: 8 }));
  } else if (opts.probes) {
    live.push(probeLiveSource({ timeoutMs: opts.probeTimeout }), startupProbeSource({ timeoutMs: opts.probeTimeout }));
    // The reference worker, certified in-process with fake CLIs replaying the corpus (route `certify:<route>`).
    if (opts.certify !== false) live.push(certifyLiveSource(referenceWorkerConfig({ inProcess: true }), { parallelRoutes: true, concurrency: 8 }));
  }
  const { exitCode } = await runConformance({
    casesDir,
    filter: {
      ...(opts.case ? { ids: opts.case } : {}),
      ...(opts.route ? { routes: opts.route } : {}),
      ...(opts.contract ? { contracts: opts.contract } : {}),
      ...(opts.tag ? { tags: opts.tag } : {}),
    },
    reporters: [
      consoleReporter({ quiet: opts.quiet ?? false }),
      jsonReporter({ dir }),
      junitReporter({ dir }),
      markdownReporter({ dir, githubStepSummary: process.env.GITHUB_STEP_SUMMARY }),
    ],
    live,
    ...(project ? { contracts: project.contracts } : {}),
    ...(decoders ? { decoders } : {}),
    ...(opts.maxCaseMb !== undefined ? { maxCaseBytes: Math.round(opts.maxCaseMb * 2 ** 20) } : {}),
    command: `routecert ${commandLine}`,
  });
  process.stdout.write(`reports: ${path.relative(process.cwd(), dir) || dir}/{report.json,junit.xml,summary.md}\n`);
  return exitCode;
}
