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
  for (const k of result.kept) process.stdout.write(`kept  ${k.file} (${k.state === 'same' ? 'exists, the same as init writes' : 'exists and differs from what init writes now; --force replaces it'})\n`);
  for (const f of result.wouldAdd) process.stdout.write(`would add ${f} (not written: the config is kept and does not define it; --force writes both)\n`);
  for (const f of result.removed) process.stdout.write(`removed ${f} (a starter case of a contract the new config does not define)\n`);
  for (const f of result.redacted) process.stdout.write(`redacted ${f}: a value generated from your schema looks like a secret (an e-mail, a key, a home path) and is written redacted; replace it before \`routecert run\`\n`);
  if (result.written.length === 0) {
    const replace = result.kept.filter((k) => k.state === 'differs').length;
    process.stdout.write(replace === 0 && result.wouldAdd.length === 0 ? 'nothing written: every starter file exists as init writes it\n' : `nothing written: ${replace} file(s) differ and ${result.wouldAdd.length} would be added; \`npx routecert init --force\` replaces them\n`);
    return 0;
  }
  process.stdout.write(`${result.contracts.length} contract(s): ${result.contracts.map((c) => `${c.name} (anchor ${c.anchor}, finality ${c.finality === 'none' ? 'none' : c.finality.key})`).join(', ')}\n\n`);
  process.stdout.write(`${result.next.join('\n')}\n`);
  return 0;
}
