/**
 * `routecert lint`: schema portability across model CLIs and providers (src/schema).
 */
import { runLint } from '#src/schema/lintCommand.ts';

/** Lint; returns the exit code (0 clean, 1 findings, 2 usage error). */
export async function lintCommand(paths: string[], opts: { profile?: string[]; format: 'text' | 'json' }): Promise<number> {
  return runLint(
    { paths, ...(opts.profile ? { profiles: opts.profile } : {}), format: opts.format },
    { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s) },
  );
}
