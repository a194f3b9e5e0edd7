/**
 * The registered probe drivers, one per CLI, in the order `routecert probe --list` and the live
 * probes use them. Add a CLI by adding its driver here.
 */
import { claudeDriver } from '#src/routes/claude/probe.ts';
import { codexDriver } from '#src/routes/codex/probe.ts';
import type { ProbeDriver } from './driver.ts';
import { geminiDriver } from '#src/routes/gemini/probe.ts';
import { grokCliDriver } from '#src/routes/grok-cli/probe.ts';
import { qwenDriver } from '#src/routes/qwen/probe.ts';
import { opencodeDriver } from '#src/routes/opencode/probe.ts';
import { copilotDriver } from '#src/routes/copilot/probe.ts';
import { piDriver } from '#src/routes/pi/probe.ts';

/** Every probe driver routecert ships. */
export const PROBE_DRIVERS: readonly ProbeDriver[] = [claudeDriver, codexDriver, geminiDriver, grokCliDriver, qwenDriver, opencodeDriver, copilotDriver, piDriver];

/** The driver of `cli` (its routecert name, e.g. `claude`), or `undefined`. */
export function driverFor(cli: string): ProbeDriver | undefined {
  return PROBE_DRIVERS.find((d) => d.cli === cli);
}

/** The driver that runs `route`, or `undefined`. */
export function driverForRoute(route: string): ProbeDriver | undefined {
  return PROBE_DRIVERS.find((d) => d.routes.includes(route));
}
