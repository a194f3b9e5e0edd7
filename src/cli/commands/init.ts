/**
 * `routecert init [--schemas <folder>] [--json] [--force]`: a starter config and cases (src/config/init.ts).
 */
import { initProject } from '#src/config/init.ts';

/** Write the starter; returns the exit code (0 written, or nothing to write because every file exists; 2 bad input). */
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
  if (result.written.length === 0) {
    process.stdout.write('nothing written: every starter file exists (--force overwrites them)\n');
    return 0;
  }
  process.stdout.write(`${result.contracts.length} contract(s): ${result.contracts.map((c) => `${c.name} (anchor ${c.anchor}, finality ${c.finality === 'none' ? 'none' : c.finality.key})`).join(', ')}\n\n`);
  process.stdout.write(`${result.next.join('\n')}\n`);
  return 0;
}
