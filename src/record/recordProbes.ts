/**
 * Recording: each planned hermetic probe of a real CLI becomes a case file, redacted, with a
 * content-hash id and `provenance.source: "recorded"`. An existing case file is never overwritten
 * without `force`.
 */
import path from 'node:path';
import type { DiscoveredCli } from '#src/probe/discover.ts';
import { CLAUDE_TEST_API_KEY } from '#src/routes/claude/probe.ts';
import { liveSecrets } from '#src/probe/live.ts';
import { PROJECT_ROOT } from '#src/paths.ts';
import type { ExecutedProbe } from '#src/record/executedProbe.ts';
import { caseId } from './caseId.ts';
import type { CaseFile } from '#src/envelope/caseTypes.ts';
import { redactValue } from '#src/diagnostics/redact.ts';
import { writeFileExclusive } from './writeCase.ts';

/** Where a recorded case lives: `<out>/<cli folder>/<format>/<slug>.json`, e.g. `claude-code/json/final.json`. */
export function recordedCasePath(outDir: string, route: string, slug: string): string {
  return path.join(outDir, ...route.split('/'), `${slug}.json`);
}

/** Build the case file for an executed probe (redacted; id computed). */
export function caseFromProbe(cli: DiscoveredCli, executed: ExecutedProbe, date = new Date(), live?: { endpoint: string; expect: CaseFile['expect'] }): CaseFile {
  const { route, planned } = executed;
  // The project root is redacted too: a CLI's stack trace names its own files under probes/node_modules
  // (Gemini CLI 0.61.0 prints one on every API error).
  const paths = [{ path: PROJECT_ROOT.replace(/[\\/]+$/, ''), placeholder: '<project>' }];
  // Every credential a live run may have used is hidden by its exact value too (src/probe/live.ts).
  const attempts = redactValue(executed.attempts, { secrets: [CLAUDE_TEST_API_KEY, ...liveSecrets()], paths }).map((a) => ({ ...a, elapsedMs: Math.round(a.elapsedMs) }));
  // A live run's model answers what it answers: the case expects the verdict it got.
  const expect = live ? live.expect : planned.expect(route);
  const body = { attempts, contract: 'pov', expect };
  return {
    id: caseId(body),
    description: `${route}: ${planned.description}`,
    route,
    scenario: planned.scenarios.join('+'),
    cli: { name: cli.name, version: cli.version ?? 'unknown' },
    provenance: {
      source: 'recorded',
      ref: live ? `routecert record --live: real CLI against ${redactValue(live.endpoint, {})}` : 'routecert record: real CLI against the scripted provider mock on 127.0.0.1',
      date: date.toISOString().slice(0, 10),
    },
    contract: 'pov',
    attempts,
    expect,
    tags: [...planned.tags, 'recorded', ...(live ? ['live'] : [])],
  };
}

/** The outcome of writing one case file. */
export type WriteOutcome = { written: string } | { refused: string };

/**
 * Write a case file as pretty JSON, every string redacted (src/diagnostics/redact.ts `redactOutput`; the
 * id is recomputed when redaction changed the content it covers). Refuses (and writes nothing) when
 * the file exists and `force` is not set, also when another run creates it meanwhile; never writes
 * through a symlink or outside `root` (the cases folder the user named: `--out`, the config's
 * cases), see src/record/writeCase.ts.
 *
 * @throws {UnsafeCasePathError} for a path outside `root` or through a symlink.
 */
export async function writeCaseFile(file: string, c: CaseFile, force: boolean, root: string): Promise<WriteOutcome> {
  const safe = redactValue(c);
  if (c.id === caseId(c)) safe.id = caseId(safe);
  const outcome = await writeFileExclusive(root, file, `${JSON.stringify(safe, null, 2)}\n`, force);
  return outcome === 'written' ? { written: file } : { refused: file };
}

