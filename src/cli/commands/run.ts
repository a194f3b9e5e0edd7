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
  quiet?: boolean;
}

/** A run folder name: UTC time, sortable, e.g. `20261130-041500`. */
export function runFolderName(date = new Date()): string {
  return date.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

/** Run and report; returns the exit code. */
export async function runCommand(opts: RunCommandOptions, commandLine: string): Promise<number> {
  const casesDir = opts.cases === 'fixtures/cases' ? projectPath('fixtures/cases') : path.resolve(opts.cases);
  const dir = path.resolve(opts.reports, runFolderName());
  await mkdir(dir, { recursive: true });
  const live: LiveSource[] = opts.probes ? [probeLiveSource({ timeoutMs: opts.probeTimeout })] : [];
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
    command: `routecert ${commandLine}`,
  });
  process.stdout.write(`reports: ${path.relative(process.cwd(), dir) || dir}/{report.json,junit.xml,summary.md}\n`);
  return exitCode;
}
