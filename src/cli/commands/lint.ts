/**
 * `routecert lint`: schema portability across model CLIs and providers (src/schema).
 */
import { access } from 'node:fs/promises';
import { runLint } from '#src/schema/lintCommand.ts';

/** Lint; returns the exit code (0 clean, 1 findings, 2 usage error: also a path that does not exist). */
export async function lintCommand(paths: string[], opts: { profile?: string[]; format: 'text' | 'json' }): Promise<number> {
  const missing: string[] = [];
  for (const p of paths) await access(p).catch(() => missing.push(p));
  if (missing.length > 0) {
    process.stderr.write(`[routecert] lint: no such file or folder: ${missing.join(', ')}\n`);
    return 2;
  }
  return runLint(
    { paths, ...(opts.profile ? { profiles: opts.profile } : {}), format: opts.format },
    { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s) },
  );
}
