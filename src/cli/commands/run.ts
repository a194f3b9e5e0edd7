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
import { startupProbeSource } from '#src/harness/startupProbes.ts';
import { certifyLiveSource } from '#src/harness/certify/liveSource.ts';
import { referenceWorkerConfig } from '#src/harness/certify/reference.ts';
import { genericDecoderFromOption } from '#src/envelope/generic.ts';
import { withDecoders } from '#src/envelope/registry.ts';
import type { RouteDecoder } from '#src/envelope/types.ts';

/** Options of `routecert run` as commander parses them. */
export interface RunCommandOptions {
  cases: string;
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
  const casesDir = opts.cases === 'fixtures/cases' ? projectPath('fixtures/cases') : path.resolve(opts.cases);
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
  const live: LiveSource[] = opts.probes ? [probeLiveSource({ timeoutMs: opts.probeTimeout }), startupProbeSource({ timeoutMs: opts.probeTimeout })] : [];
  // The reference worker, certified in-process with fake CLIs replaying the corpus (route `certify:<route>`).
  if (opts.probes && opts.certify !== false) live.push(certifyLiveSource(referenceWorkerConfig({ inProcess: true }), { parallelRoutes: true, concurrency: 8 }));
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
    ...(decoders ? { decoders } : {}),
    ...(opts.maxCaseMb !== undefined ? { maxCaseBytes: Math.round(opts.maxCaseMb * 2 ** 20) } : {}),
    command: `routecert ${commandLine}`,
  });
  process.stdout.write(`reports: ${path.relative(process.cwd(), dir) || dir}/{report.json,junit.xml,summary.md}\n`);
  return exitCode;
}
