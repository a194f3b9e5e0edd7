/**
 * A route's probe plan (src/routes/<cli>/plan.ts, what `routecert run` expects of the real CLI) and
 * the recordings of that CLI in the bundled corpus (fixtures/cases/<route>/, what `routecert record`
 * captured of the same scenario) are two statements of one fact: the verdict the pov contract
 * reaches on that CLI's envelope. They drifted once: the judge stopped accepting the answer of a run
 * that says it failed and the recorded qwen `fenced` cases were updated, but the plan still
 * expected `accepted`, so an all-CLI `npm start` exited 1 on both Qwen Code routes (issue 24's
 * bench run). Here every recorded case that `routecert record` wrote for a planned probe (the
 * file `fixtures/cases/<route>/<slug>.json` of the probe's slug, recorded from that route's CLI) is
 * judged and must meet its plan's expectation as well as its own.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareVerdict } from '#src/harness/compare.ts';
import { PROBE_PLANS } from '#src/harness/probePlan.ts';
import type { PlannedProbe } from '#src/routes/plan.ts';
import { corpus, judge } from './_helpers/corpus.ts';

/** The planned probe whose recording `file` is: the plan of `cli` with the slug the file is named after. */
function plannedFor(cli: string, file: string): PlannedProbe | undefined {
  const slug = path.basename(file, '.json');
  return (PROBE_PLANS[cli] ?? []).find((p) => p.slug === slug);
}

const pairs = corpus.cases.flatMap((c) => {
  const { provenance, cli, contract, route } = c.case;
  // Recorded by `routecert record` into the route's own folder (not a regression or contract case).
  const inRouteFolder = path.dirname(c.file).split(path.sep).slice(-2).join('/') === route;
  if (provenance.source !== 'recorded' || contract !== 'pov' || !inRouteFolder) return [];
  const planned = plannedFor(cli.name, c.file);
  return planned === undefined ? [] : [[`${route} ${planned.slug} (${c.case.id}, ${cli.name} ${cli.version ?? '?'})`, c, planned] as const];
});

describe('probe plans agree with the recordings of the same scenario', () => {
  it('pairs recordings with plans on every CLI that has both', () => {
    const clis = new Set(pairs.map(([, c]) => c.case.cli.name));
    // Claude Code and Qwen Code have recorded scenario cases in the corpus (fixtures/cases/*/).
    expect([...clis].sort()).toEqual(expect.arrayContaining(['claude', 'qwen']));
  });

  it.each(pairs)('%s', async (_label, c, planned) => {
    const verdict = await judge(c);
    expect(compareVerdict(planned.expect(c.case.route), verdict), `plan ${planned.slug} of ${c.case.cli.name} vs ${c.file}`).toEqual([]);
  });
});
