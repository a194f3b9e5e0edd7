/**
 * The registered probe drivers, one per CLI, in the order `routecert probe --list` and the live
 * probes use them. Add a CLI by adding its driver here.
 */
import { claudeDriver } from './claude.ts';
import { codexDriver } from './codex.ts';
import type { ProbeDriver } from './driver.ts';
import { geminiDriver } from './gemini.ts';
import { grokCliDriver } from './grokCli.ts';
import { qwenDriver } from './qwen.ts';
import { opencodeDriver } from './opencode.ts';
import { copilotDriver } from './copilot.ts';
import { piDriver } from './pi.ts';

/** Every probe driver routecert ships. */
export const PROBE_DRIVERS: readonly ProbeDriver[] = [claudeDriver, codexDriver, geminiDriver, grokCliDriver, qwenDriver, opencodeDriver, copilotDriver, piDriver];

/** The driver of `cli` (its routecert name, e.g. `claude`), or `undefined`. */
export function driverFor(cli: string): ProbeDriver | undefined {
  return PROBE_DRIVERS.find((d) => d.cli === cli);
}

