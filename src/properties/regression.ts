/**
 * Shrunk counterexamples as corpus cases: `provenance.source: "generated"` with the seed and path,
 * a content-hash id, written under fixtures/cases/regressions/ so they run with the corpus forever
 * after (DESIGN.md "Corpus format").
 */
import path from 'node:path';
import { projectPath } from '#src/paths.ts';
import { caseId } from '#src/record/caseId.ts';
import type { CaseFile } from '#src/envelope/caseTypes.ts';
import { writeCaseFile } from '#src/record/recordProbes.ts';
import type { PropertyRun } from './run.ts';
import type { AnyProperty, PropertyEnv } from './types.ts';

/** Where `routecert fuzz --save` writes regression cases by default. */
export const REGRESSIONS_DIR = 'fixtures/cases/regressions';

/** Raised when a run has no counterexample to save, or its property cannot state an expected verdict for it. */
export class RegressionRefusedError extends Error {
  readonly code = 'ROUTECERT_REGRESSION_REFUSED';
  constructor(reason: string) {
    super(`[routecert] cannot save a regression case: ${reason}`);
    this.name = 'RegressionRefusedError';
  }
}

const CLI_OF_ROUTE: Record<string, string> = { 'claude-code': 'claude' };

/**
 * The regression case for a failed run: the counterexample's attempts, the expected verdict the
 * property states for it, provenance `generated` with `seed`, `path` and the `routecert fuzz` line.
 *
 * @throws RegressionRefusedError when the run did not fail on a generated counterexample, or the
 *   property refuses (it cannot state an expected verdict).
 */
export function regressionCase(property: AnyProperty, run: PropertyRun, env: PropertyEnv, date = new Date()): CaseFile {
  if (!run.failed || run.counterexample === null) throw new RegressionRefusedError(`property ${run.property} has no counterexample in this run`);
  if (run.phase !== 'generated' || run.path === null) throw new RegressionRefusedError(`property ${run.property} failed on a corpus example, which already runs with the corpus`);
  const draft = property.regression(run.counterexample, env);
  if ('refused' in draft) throw new RegressionRefusedError(draft.refused);
  const attempts = draft.attempts.map((a) => ({ ...a, elapsedMs: Math.round(a.elapsedMs) }));
  const body = { attempts, contract: 'pov', expect: draft.expect };
  const family = draft.route.split('/')[0] ?? draft.route;
  return {
    id: caseId(body),
    description: `regression (${property.name}): ${draft.description}`,
    route: draft.route,
    cli: { name: CLI_OF_ROUTE[family] ?? family, version: 'generated' },
    provenance: {
      source: 'generated',
      ref: `npx routecert fuzz --property ${property.name} --seed ${run.seed} --path ${run.path}`,
      date: date.toISOString().slice(0, 10),
      seed: run.seed,
      path: run.path,
    },
    contract: 'pov',
    attempts,
    expect: draft.expect,
    tags: [...new Set(['regression', 'generated', property.name, ...draft.tags])],
  };
}

/**
 * Write the regression case of a failed run as `<dir>/<property>-<id>.json` (never overwriting an
 * existing file unless `force`).
 *
 * @param dir - folder (default {@link REGRESSIONS_DIR} in the project).
 * @returns the written file and the case, or `{ refused }` with the reason (nothing written).
 */
export async function saveRegression(
  property: AnyProperty,
  run: PropertyRun,
  env: PropertyEnv,
  options: { dir?: string; force?: boolean; date?: Date } = {},
): Promise<{ file: string; case: CaseFile } | { refused: string }> {
  let c: CaseFile;
  try {
    c = regressionCase(property, run, env, options.date);
  } catch (error) {
    if (error instanceof RegressionRefusedError) return { refused: error.message };
    throw error;
  }
  const dir = options.dir ?? projectPath(REGRESSIONS_DIR);
  const file = path.join(dir, `${property.name}-${c.id}.json`);
  const outcome = await writeCaseFile(file, c, options.force ?? false, dir);
  if ('refused' in outcome) return { refused: `[routecert] ${outcome.refused} exists; pass --force to overwrite it` };
  return { file: outcome.written, case: c };
}
