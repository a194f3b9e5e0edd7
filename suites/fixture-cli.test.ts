/**
 * Issue 20 point 5: adding a CLI is one folder and its cases. The fixture CLI `fixture`
 * (suites/fixtures/routes/fixture/: route.ts, decoder.ts, cases/) is made known the way any extra
 * route folder is, `ROUTECERT_ROUTE_DIRS` (src/routes/index.ts), with no edit anywhere else, and
 * flows through the decoder laws, the case judge, probe planning, certification's route facts,
 * `routecert probe --list` and the generated README route table.
 */
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const FIXTURE_DIRS = path.join(ROOT, 'suites/fixtures/routes');
// Set before any module that reads the route definitions is loaded (all imports below are dynamic).
process.env.ROUTECERT_ROUTE_DIRS = FIXTURE_DIRS;

const { ROUTE_DEFINITIONS, ROUTE_KNOWN_CLIS, routesTableMarkdown, routeSpecFor, withRoutesTable } = await import('#src/routes/index.ts');
const { decoderFor, withDecoders } = await import('#src/routes/registry.ts');
const { corpusProblems } = await import('#src/routes/agreement.ts');
const { planFor } = await import('#src/harness/probePlan.ts');
const { certifyRoute } = await import('#src/harness/certify/routes.ts');
const { loadCorpus } = await import('#src/record/corpus.ts');
const { judgeCase } = await import('#src/contract/judgeCase.ts');
const { loadContract } = await import('#src/contract/registry.ts');
const { envelopeFacts } = await import('#src/envelope/decodeParts.ts');
const { decoderLaws } = await import('./_helpers/decoderLaws.ts');
// Loaded: other test files that share this worker process must not see the fixture.
delete process.env.ROUTECERT_ROUTE_DIRS;

const fixture = ROUTE_DEFINITIONS.find((d) => d.cli === 'fixture');
if (!fixture) throw new Error('the fixture route folder was not loaded from ROUTECERT_ROUTE_DIRS');
const cases = await loadCorpus(path.join(FIXTURE_DIRS, 'fixture/cases'));
const ROUTE = 'fixture/jsonl';
// The sources through tsx, not the run's build (ROUTECERT_DIST): the fixture folder holds a route.ts.
const childEnv = { ...process.env, ROUTECERT_ROUTE_DIRS: FIXTURE_DIRS, NO_COLOR: '1', ROUTECERT_DIST: undefined };

describe('decoder laws: the fixture CLI (origins from its definition)', () => {
  const examples = cases.cases.flatMap((c) => c.case.attempts.map((a) => a.stdout));
  decoderLaws(fixture.routes[0]!.decoder(), examples, 100, fixture.origins ?? []);
});

describe('a fixture CLI added as one folder and its cases', () => {
  it('is a route definition like the shipped ones, listed before generic', () => {
    expect(ROUTE_DEFINITIONS.at(-1)?.cli).toBe('generic');
    expect(ROUTE_DEFINITIONS.at(-2)?.cli).toBe('fixture');
    expect(routeSpecFor(ROUTE)?.definition).toBe(fixture);
    expect(fixture.driver?.routes).toEqual([ROUTE]);
  });

  it('has cases its decoder reads, judged right through the registry', async () => {
    expect(cases.errors).toEqual([]);
    expect(cases.cases.length).toBeGreaterThanOrEqual(3);
    expect(corpusProblems([fixture], cases.cases)).toEqual([]);
    for (const c of cases.cases) {
      const contract = await loadContract(c.case.contract);
      const real = judgeCase(c.case, contract, decoderFor(ROUTE)).verdict;
      expect(real.verdict, c.case.description).toBe(c.case.expect.verdict);
      // With its decoder replaced by one that finds nothing, no answer survives.
      const blind = withDecoders([{ route: ROUTE, header: 'blind', detect: () => true, decode: (e) => ({ ...envelopeFacts(e), route: ROUTE, candidates: [], status: { kind: 'ok' }, human: [], ancillary: [], keys: [], notes: [], reply: {} }) }]);
      if (real.verdict === 'accepted') expect(judgeCase(c.case, contract, decoderFor(ROUTE, blind)).verdict.verdict).not.toBe('accepted');
    }
  });

  it('is planned for probing, and certification reads its route facts from the definition', () => {
    expect(planFor('fixture').map((p) => p.slug)).toEqual(['final']);
    expect(certifyRoute(ROUTE)).toMatchObject({ route: ROUTE, cli: 'routecert-fixture-cli', streams: true, schemaFlag: '--schema' });
  });

  it('is in the README route table the generator writes (and the committed README is stale without it)', async () => {
    const table = routesTableMarkdown();
    expect(table).toContain('| `fixture/jsonl` | Fixture CLI (`@routecert/fixture-cli`) | `--schema` (JSON, one token) | `say` events | generated (fixture) | 0.0.1 |');
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(withRoutesTable(readme)).not.toBe(readme);
    const check = await execa('node', [path.join(ROOT, 'bin/readme-routes.js'), '--check'], { cwd: ROOT, env: childEnv, reject: false });
    expect(check.exitCode, check.stderr).toBe(1);
    expect(check.stderr).toContain('route table is stale');
  });

  it('is listed by `routecert probe --list`', async () => {
    expect(ROUTE_KNOWN_CLIS.find((k) => k.name === 'fixture')).toMatchObject({ bin: 'routecert-fixture-cli', routes: [ROUTE], hermetic: 'yes' });
    const list = await execa('node', [path.join(ROOT, 'bin/routecert.js'), 'probe', '--list', '--json'], { cwd: ROOT, env: childEnv, reject: false });
    expect(list.exitCode, list.stderr).toBe(0);
    const rows = JSON.parse(list.stdout) as { name: string; routes: string[]; installed: boolean }[];
    expect(rows.find((r) => r.name === 'fixture')).toMatchObject({ routes: [ROUTE], installed: false });
  }, 300_000);
});
