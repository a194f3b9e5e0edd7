/**
 * A CLI's startup-rejection line, read by its own route decoder: the single place each CLI's
 * refusal wording lives is its decoder (src/routes/<cli>/decoder.ts), and probe drivers, startup
 * probes and certification read the line through it (issue 20: one rule, one place).
 */
import type { RouteDecoder } from '#src/envelope/types.ts';

/**
 * The message of the `startup-rejected` status `decoder` reads off a run that printed `stderr`,
 * left stdout empty and exited 1 (as a refusing CLI does), or `null` when the decoder sees no
 * startup rejection there. Never throws.
 *
 * @example
 * startupRejectionLine(claudeDecoder('claude-code/json'), 'Error: --json-schema is not a valid JSON Schema: strict mode: unknown keyword: "_meta"\n')
 * // 'Error: --json-schema is not a valid JSON Schema: strict mode: unknown keyword: "_meta"'
 */
export function startupRejectionLine(decoder: RouteDecoder, stderr: string): string | null {
  const status = decoder.decode({ stdout: '', stderr, exitCode: 1, elapsedMs: 0 }).status;
  return status.kind === 'startup-rejected' ? (status.message ?? null) : null;
}
