/**
 * `routecert record`: probe the real CLI for each planned behaviour and write redacted case files;
 * `--fix-ids` recomputes the content-hash ids of existing cases instead.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pc from 'picocolors';
import { loadContract } from '#src/contract/registry.ts';
import { judgeCase } from '#src/contract/judgeCase.ts';
import { decoderFor } from '#src/envelope/registry.ts';
import { compareVerdict } from '#src/harness/compare.ts';
import { planFor } from '#src/harness/probePlan.ts';
import { executePlannedProbe, runBounded } from '#src/harness/probeSource.ts';
import { projectPath } from '#src/paths.ts';
import { discoverCli } from '#src/probe/discover.ts';
import { PROBE_DRIVERS, driverFor } from '#src/probe/drivers.ts';
import { caseId } from '#src/record/caseId.ts';
import type { CaseFile } from '#src/record/caseTypes.ts';
import { listCaseFiles } from '#src/record/corpus.ts';
import { caseFromProbe, recordedCasePath, writeCaseFile } from '#src/record/recordProbes.ts';
import { availableParallelism } from 'node:os';

/** Options of `routecert record`. */
export interface RecordCommandOptions {
  cli: string;
  route?: string[];
  scenario?: string[];
  out: string;
  force?: boolean;
  fixIds?: boolean;
  probeTimeout: number;
}

/** Record; returns the exit code (0 all recorded or refused, 1 a recorded verdict differs from the plan's, 2 usage, 3 a probe could not run). */
export async function recordCommand(opts: RecordCommandOptions): Promise<number> {
  const outDir = opts.out === 'fixtures/cases' ? projectPath('fixtures/cases') : path.resolve(opts.out);
  if (opts.fixIds) return fixIds(outDir);
  const driver = driverFor(opts.cli);
  if (!driver) {
    process.stderr.write(`[routecert] record knows these CLIs: ${PROBE_DRIVERS.map((d) => d.cli).join(', ')}. "${opts.cli}" is not one of them.\n`);
    return 2;
  }
  const cli = await discoverCli(driver.cli, { bin: driver.bin });
  if (cli.bin === null) {
    process.stderr.write(`[routecert] ${driver.cli} is not installed; run \`${cli.installHint}\` from the project root, then record again.\n`);
    return 3;
  }
  const fullPlan = planFor(driver.cli);
  const routes = driver.routes.filter((r) => !opts.route?.length || opts.route.some((x) => r === x || r.startsWith(`${x}/`)));
  const plan = fullPlan.filter((p) => !opts.scenario?.length || opts.scenario.includes(p.slug));
  if (routes.length === 0 || plan.length === 0) {
    process.stderr.write(`[routecert] nothing to record. Routes of ${driver.cli}: ${driver.routes.join(', ')}. Scenarios: ${fullPlan.map((p) => p.slug).join(', ') || '(no plan yet)'}.\n`);
    return 2;
  }
  const schema = JSON.parse(await readFile(projectPath('schemas/contracts/pov.schema.json'), 'utf8')) as Record<string, unknown>;
  const contract = await loadContract('pov');
  const tasks = routes.flatMap((route) => plan.map((planned) => ({ route, planned })));
  process.stdout.write(`recording ${tasks.length} probe(s) of ${driver.cli} ${cli.version ?? '?'} into ${path.relative(process.cwd(), outDir) || outDir}\n`);
  let faults = 0;
  let mismatches = 0;
  let done = 0;
  await runBounded(tasks, availableParallelism(), (t) => executePlannedProbe(cli, driver, t.route, t.planned, schema, opts.probeTimeout), async (executed) => {
    done += 1;
    const label = `[${done}/${tasks.length}] ${executed.route} ${executed.planned.slug}`;
    if (executed.fault) {
      faults += 1;
      process.stdout.write(`${pc.magenta('FAULT')} ${label}: ${executed.fault}\n`);
      return;
    }
    const c = caseFromProbe(cli, executed);
    const verdict = judgeCase(c, contract, decoderFor(c.route)).verdict;
    const mismatch = compareVerdict(c.expect, verdict);
    if (mismatch.length > 0) mismatches += 1;
    const outcome = await writeCaseFile(recordedCasePath(outDir, c.route, executed.planned.slug), c, opts.force ?? false);
    const where = 'written' in outcome ? `wrote ${path.relative(process.cwd(), outcome.written)}` : pc.yellow(`exists, not overwritten (use --force): ${path.relative(process.cwd(), outcome.refused)}`);
    const judged = mismatch.length === 0 ? pc.green(verdict.verdict) : pc.red(`${verdict.verdict} (${mismatch.join('; ')})`);
    const extra = executed.unexpected.length ? pc.red(` unexpected requests: ${executed.unexpected.join(', ')}`) : '';
    process.stdout.write(`${label}: ${judged}; ${where}${extra}\n`);
  });
  if (faults > 0) return 3;
  if (mismatches > 0) process.stdout.write(pc.red(`${mismatches} recorded case(s) did not reach the verdict the plan expects (see above); exit 1\n`));
  return mismatches > 0 ? 1 : 0;
}

async function fixIds(outDir: string): Promise<number> {
  let changed = 0;
  for (const file of await listCaseFiles(outDir)) {
    let c: CaseFile;
    try {
      c = JSON.parse(await readFile(file, 'utf8')) as CaseFile;
    } catch (error) {
      process.stderr.write(`[routecert] ${file}: not valid JSON (${(error as Error).message}); left as it is\n`);
      continue;
    }
    const id = caseId(c);
    if (c.id === id) continue;
    const { id: _old, ...rest } = c;
    await writeFile(file, `${JSON.stringify({ id, ...rest }, null, 2)}\n`, 'utf8');
    process.stdout.write(`${path.relative(process.cwd(), file)}: id ${c.id} -> ${id}\n`);
    changed += 1;
  }
  process.stdout.write(`${changed} id(s) updated\n`);
  return 0;
}
