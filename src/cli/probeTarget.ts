/**
 * The CLI under test of the commands that run one: the `--bin` candidate (or `ROUTECERT_BIN_<CLI>`),
 * else the installed one, inside the driver's supported version range. One place for the check of
 * the named candidates every such command makes before it starts ({@link candidateProblems}), and
 * for what `probe` and `record` print and exit with when their CLI cannot be used ({@link probeTarget}).
 */
import { didYouMean } from '#src/diagnostics/didYouMean.ts';
import { binEnvVar, candidateBinary, candidateFor, notFoundMessage, resolveCli, type DiscoveredCli } from '#src/probe/discover.ts';
import type { ProbeDriver } from '#src/probe/driver.ts';
import { PROBE_DRIVERS } from '#src/probe/drivers.ts';
import { supportOf } from '#src/probe/versions.ts';

/**
 * What stops a command that takes `--bin` (`run`, `record`, `probe` with any of its modes) before
 * it starts: src/cli/main.ts calls this for each of them, with the `--bin` values commander parsed.
 * One message per problem, `[]` when there is none:
 * - a `--bin` name, or a `ROUTECERT_BIN_<NAME>` variable, that is no CLI routecert probes
 *   (`--bin cluade=...`), with a "did you mean" and the names it takes: otherwise the run would
 *   quietly probe the pinned or PATH version instead of the candidate;
 * - a candidate so named that cannot be run (src/probe/discover.ts `candidateBinary`), whether or
 *   not this command would have probed that CLI.
 */
export async function candidateProblems(bins: Readonly<Record<string, string>>, env: NodeJS.ProcessEnv = process.env, drivers: readonly ProbeDriver[] = PROBE_DRIVERS): Promise<string[]> {
  const names = drivers.map((d) => d.cli);
  const problems: string[] = [];
  const unknown = (given: string, shown: string, known: readonly string[], listed: string): string => {
    const close = didYouMean(given, known);
    return `[routecert] ${shown} names no CLI routecert probes${close.length > 0 ? `; did you mean ${close.map((c) => `"${c}"`).join(' or ')}?` : '.'} ${listed}: ${known.join(', ')}.`;
  };
  for (const [cli, file] of Object.entries(bins)) {
    if (!names.includes(cli)) problems.push(unknown(cli, `--bin ${cli}=${file}`, names, 'The CLIs --bin takes'));
  }
  const variables = names.map(binEnvVar);
  for (const [variable, value] of Object.entries(env)) {
    if (variable.startsWith('ROUTECERT_BIN_') && value !== undefined && value !== '' && !variables.includes(variable)) {
      problems.push(unknown(variable, `the environment variable ${variable}`, variables, 'The variables routecert reads'));
    }
  }
  for (const driver of drivers) {
    const candidate = candidateFor(driver.cli, bins, env);
    if (candidate === null) continue;
    const found = await candidateBinary(driver.cli, candidate, driver.bin, driver.npmPackage);
    if ('problem' in found) problems.push(found.problem);
  }
  return problems;
}

/**
 * Discover `driver`'s CLI. Writes to stderr why it cannot be used and returns the exit code: 2 for
 * a named candidate that is not an executable, or a version outside the supported range without
 * `allowUnsupported` (src/probe/versions.ts `supportOf`); 3 when it is not installed (with the
 * install hint). A version outside the range with `allowUnsupported` is returned, after the warning.
 */
export async function probeTarget(driver: ProbeDriver, bins: Readonly<Record<string, string>>, allowUnsupported: boolean): Promise<DiscoveredCli | number> {
  const cli = await resolveCli(driver, bins);
  if (cli.bin === null) {
    process.stderr.write(`${notFoundMessage(cli)}\n`);
    return cli.problem ? 2 : 3;
  }
  const support = supportOf(driver, cli.version);
  if (support.message) process.stderr.write(`${support.message}\n`);
  if (!support.supported && !allowUnsupported) return 2;
  return cli;
}
