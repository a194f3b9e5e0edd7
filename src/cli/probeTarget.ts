/**
 * The CLI a `probe` or `record` command runs: the `--bin` candidate (or `ROUTECERT_BIN_<CLI>`), else
 * the installed one, inside the driver's supported version range. One place for what both
 * commands print and exit with when it cannot be used.
 */
import { notFoundMessage, resolveCli, type DiscoveredCli } from '#src/probe/discover.ts';
import type { ProbeDriver } from '#src/probe/driver.ts';
import { supportOf } from '#src/probe/versions.ts';

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
