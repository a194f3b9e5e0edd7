/**
 * The registered probe drivers, one per CLI, in the order `routecert probe --list` and the live
 * probes use them. Add a CLI by adding its driver here.
 */
import { claudeDriver } from './claude.ts';
import { codexDriver } from './codex.ts';
import type { ProbeDriver } from './driver.ts';
import { geminiDriver } from './gemini.ts';
import { grokCliDriver } from './grokCli.ts';

/** Every probe driver routecert ships. */
export const PROBE_DRIVERS: readonly ProbeDriver[] = [claudeDriver, codexDriver, geminiDriver, grokCliDriver];

/** The driver of `cli` (its routecert name, e.g. `claude`), or `undefined`. */
export function driverFor(cli: string): ProbeDriver | undefined {
  return PROBE_DRIVERS.find((d) => d.cli === cli);
}

/** The driver that runs `route`, or `undefined`. */
export function driverForRoute(route: string): ProbeDriver | undefined {
  return PROBE_DRIVERS.find((d) => d.routes.includes(route));
}
