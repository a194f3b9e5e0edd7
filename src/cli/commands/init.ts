/**
 * `routecert init [--schemas <folder>] [--json] [--force]`: a starter config and cases (src/config/init.ts).
 */
import { initProject } from '#src/config/init.ts';

/** Write the starter; returns the exit code (0 written, 1 nothing written because every file exists, 2 bad input). */
export async function initCommand(opts: { schemas?: string; force?: boolean; json?: boolean }): Promise<number> {
  let result;
  try {
    result = await initProject({ ...(opts.schemas !== undefined ? { schemas: opts.schemas } : {}), ...(opts.force ? { force: true } : {}), format: opts.json ? 'json' : 'ts' });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 2;
  }
  for (const f of result.written) process.stdout.write(`wrote ${f}\n`);
  for (const f of result.skipped) process.stdout.write(`kept  ${f} (exists; --force overwrites)\n`);
  process.stdout.write(`${result.contracts.length} contract(s): ${result.contracts.map((c) => `${c.name} (anchor ${c.anchor}, finality ${c.finality === 'none' ? 'none' : c.finality.key})`).join(', ')}\n\n`);
  process.stdout.write(`${result.next.join('\n')}\n`);
  return result.written.length === 0 ? 1 : 0;
}
