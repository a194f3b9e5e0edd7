import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDecoders } from '#src/routes/registry.ts';
import { genericDecoder } from '#src/routes/generic/decoder.ts';
import { FAKE_CLI_NAMES } from '#src/harness/shim/install.ts';
import { certifyRoute } from '#src/harness/certify/routes.ts';
import { projectPath } from '#src/paths.ts';
import { loadCorpus, type LoadedCase } from '#src/record/corpus.ts';
import { PROFILE_NAMES } from '#src/schema/profiles.ts';
import { WORKER_ROUTES } from '#src/worker/routes.ts';
import { corpusProblems, definitionProblems, pinProblems, probeProblems, readsAs } from './agreement.ts';
import { defineRoute, RouteDefinitionError, type RouteDefinition } from './define.ts';
import { ROUTE_DEFINITIONS, routeIds, routeSpecFor, routesTableMarkdown, withRoutesTable } from './index.ts';
import { claudeRoute } from './claude/route.ts';
import { codexRoute } from './codex/route.ts';
import { geminiRoute } from './gemini/route.ts';

let root = '';
let cases: LoadedCase[] = [];
let pins: Record<string, string> = {};

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'routecert-routes-'));
  cases = (await loadCorpus(projectPath('fixtures/cases'))).cases;
  pins = (JSON.parse(await readFile(projectPath('probes/package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies;
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('the route definitions agree', () => {
  it('the README route table is the one the definitions generate (run `npm run readme:routes`)', async () => {
    const readme = await readFile(projectPath('README.md'), 'utf8');
    expect(withRoutesTable(readme)).toBe(readme);
  });

  it('lists every src/routes/<cli>/route.ts folder in ROUTE_DEFINITIONS, under its own name', async () => {
    const dir = projectPath('src/routes');
    const folders = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory() && existsSync(path.join(dir, e.name, 'route.ts'))).map((e) => e.name);
    expect(ROUTE_DEFINITIONS.map((d) => d.cli).sort()).toEqual(folders.sort());
  });

  it('defines every CLI and route once, with no probed binary twice', () => {
    expect(definitionProblems(ROUTE_DEFINITIONS)).toEqual([]);
    expect(ROUTE_DEFINITIONS.filter((d) => d.driver).map((d) => d.cli)).toEqual(['claude', 'codex', 'qwen', 'gemini', 'opencode', 'copilot', 'pi', 'grok-cli']);
  });

  it('has a case for every declared framing that its decoder reads, and a definition for every case route', () => {
    expect(cases.length).toBeGreaterThan(100);
    expect(corpusProblems(ROUTE_DEFINITIONS, cases)).toEqual([]);
  });

  it('pins every probed CLI in probes/package.json at its recorded version, and names real lint profiles', () => {
    expect(pinProblems(ROUTE_DEFINITIONS, pins, PROFILE_NAMES)).toEqual([]);
  });

  it('sends the schema the way each definition says (flag + one JSON token, flag + file, or in the prompt)', async () => {
    expect(await probeProblems(ROUTE_DEFINITIONS, root)).toEqual([]);
  });

  it('ships one decoder per route, in definition order', () => {
    expect(defaultDecoders().map((d) => d.route)).toEqual(routeIds());
  });

  it('the reference worker and certification see the same CLI and streaming as the definitions', () => {
    for (const w of Object.values(WORKER_ROUTES)) {
      const found = routeSpecFor(w.route);
      expect(found, w.route).toBeDefined();
      expect(w.cli, w.route).toBe(found?.definition.bin);
      expect(w.streams, w.route).toBe(found?.format.streams);
    }
    for (const d of ROUTE_DEFINITIONS) if (d.bin !== null) expect(FAKE_CLI_NAMES).toContain(d.bin);
    expect(certifyRoute('claude-code/json')).toMatchObject({ route: 'claude-code/json', cli: 'claude', streams: false, schemaFlag: '--json-schema', outputFormat: { flags: ['--output-format'], value: 'json' } });
    expect(certifyRoute('codex/jsonl')).toMatchObject({ outputFormat: { flags: ['--json', '--experimental-json'], value: null }, sideFiles: [{ role: 'last-message', flags: ['-o', '--output-last-message'] }] });
    expect(certifyRoute('codex/jsonl').forbiddenFlags.map((f) => f.flag)).toContain('--dangerously-bypass-approvals-and-sandbox');
    expect(certifyRoute('grok/json').schemaFlag).toBe('--json-schema');
    expect(certifyRoute('qwen-code/stream-json')).toMatchObject({ cli: 'qwen', streams: true, schemaFlag: '--json-schema' });
    // Codex takes a schema FILE: no one-token check.
    expect(certifyRoute('codex/jsonl').schemaFlag).toBeNull();
  });
});

describe('the agreement checks bite', () => {
  const broken = (d: RouteDefinition, patch: Partial<RouteDefinition>): RouteDefinition => ({ ...d, ...patch });

  it('defineRoute refuses a decoder built for another route, a route listed twice, a bad route id', () => {
    const base = { cli: 'x', title: 'x', bin: 'x', npmPackage: null, schema: null, answer: 'a', versions: null, casesFrom: 'c', forbiddenFlags: [{ flag: '--yolo', source: 'x --help' }] };
    const decoder = () => genericDecoder('x/json', { header: 'x' });
    const outputFormat = { flags: ['--output-format'], value: 'json' };
    expect(() => defineRoute({ ...base, routes: [{ route: 'x/jsonl', framings: ['jsonl'], streams: true, outputFormat, decoder }] })).toThrow(RouteDefinitionError);
    expect(() => defineRoute({ ...base, routes: [{ route: 'x/json', framings: [], streams: false, outputFormat, decoder }, { route: 'x/json', framings: [], streams: false, outputFormat, decoder }] })).toThrow(/listed twice/);
    expect(() => defineRoute({ ...base, routes: [{ route: 'x json', framings: [], streams: false, outputFormat, decoder }] })).toThrow(/family/);
    expect(() => defineRoute({ ...base, routes: [] })).toThrow(/no routes/);
  });

  it('defineRoute refuses a CLI without forbidden flags, a forbidden flag without a source, an output format without a flag', () => {
    const base = { cli: 'x', title: 'x', bin: 'x', npmPackage: null, schema: null, answer: 'a', versions: null, casesFrom: 'c' };
    const decoder = () => genericDecoder('x/json', { header: 'x' });
    const routes = [{ route: 'x/json', framings: [], streams: false, outputFormat: { flags: ['--output-format'], value: 'json' }, decoder }];
    expect(() => defineRoute({ ...base, routes, forbiddenFlags: [] })).toThrow(/lists no forbidden flags/);
    expect(() => defineRoute({ ...base, routes, forbiddenFlags: [{ flag: '--yolo', source: ' ' }] })).toThrow(/--yolo has no source/);
    expect(() => defineRoute({ ...base, routes: [{ ...routes[0]!, outputFormat: { flags: [], value: 'json' } }], forbiddenFlags: [{ flag: '--yolo', source: 's' }] })).toThrow(/names no output-format flag/);
  });

  it('a framing without a case, a decoder that reads none of them, a case without a definition', () => {
    expect(corpusProblems([codexRoute], [])).toEqual([expect.stringMatching(/codex\/route\.ts: route "codex\/jsonl" declares framing "jsonl" but no case/)]);
    const blind = broken(codexRoute, { routes: [{ ...codexRoute.routes[0]!, decoder: () => ({ ...codexRoute.routes[0]!.decoder(), detect: () => false }) }] });
    expect(corpusProblems([blind], cases.filter((c) => c.case.route === 'codex/jsonl'))).toHaveLength(1);
    const orphan = cases.find((c) => c.case.route === 'pi/json');
    expect(orphan).toBeDefined();
    expect(corpusProblems([codexRoute], cases.filter((c) => c.case.route === 'codex/jsonl' || c === orphan))).toEqual([expect.stringMatching(/route "pi\/json" has no route definition/)]);
  });

  it('a pin at another version, a pinned package no definition probes, an unknown lint profile', () => {
    expect(pinProblems([claudeRoute], { '@anthropic-ai/claude-code': '9.9.9' }, PROFILE_NAMES)).toEqual([expect.stringMatching(/versions\.recorded is 2\.1\.332 but probes\/package\.json pins @anthropic-ai\/claude-code@9\.9\.9/)]);
    expect(pinProblems([claudeRoute], { '@anthropic-ai/claude-code': '2.1.332', 'left-over': '1.0.0' }, PROFILE_NAMES)).toEqual([expect.stringMatching(/left-over is pinned but no route definition probes it/)]);
    const noProfile = broken(claudeRoute, { probe: { ...claudeRoute.probe!, lintProfile: 'nope' } });
    expect(pinProblems([noProfile], { '@anthropic-ai/claude-code': '2.1.332' }, PROFILE_NAMES)).toEqual([expect.stringMatching(/lint profile "nope"/)]);
  });

  it('a schema flag the probe does not send, a schema flag on a CLI that has none, a file schema declared as a token', async () => {
    const wrongFlag = broken(claudeRoute, { schema: { flag: '--schema', value: 'json' } });
    expect(await probeProblems([wrongFlag], root)).toEqual(claudeRoute.routes.map((r) => expect.stringContaining(`route "${r.route}": schema flag --schema is not in the probe's argv`)));
    const flagged = broken(geminiRoute, { schema: { flag: '--json-schema', value: 'json' } });
    const flaggedProblems = await probeProblems([flagged], root);
    expect(flaggedProblems[0]).toMatch(/probe plan has no startup-rejected case/);
    expect(flaggedProblems.slice(1)).toHaveLength(geminiRoute.routes.length);
    const asToken = broken(codexRoute, { schema: { flag: '--output-schema', value: 'json' } });
    expect(await probeProblems([asToken], root)).toEqual([expect.stringMatching(/--output-schema is not followed by the schema as one JSON token/)]);
  });

  it('reads framings strictly: stray text is no framing, one line is JSONL', () => {
    expect(readsAs('{"a":1}', 'json-document')).toBe(true);
    expect(readsAs('{"a":1}', 'jsonl')).toBe(true);
    expect(readsAs('[{"a":1}]', 'json-array')).toBe(true);
    expect(readsAs('[{"a":1}]', 'json-document')).toBe(false);
    expect(readsAs('{"a":1}\n{"b":2}\n', 'jsonl')).toBe(true);
    expect(readsAs('{"a":1}\n{"b":2}\n', 'json-document')).toBe(false);
    expect(readsAs('warning: x\n{"a":1}', 'jsonl')).toBe(false);
    expect(readsAs('', 'jsonl')).toBe(false);
  });

  it('the README table names every route a --route may name (startup-only ones too), and the markers are required', () => {
    const table = routesTableMarkdown();
    for (const r of routeIds()) expect(table).toContain(`\`${r}\``);
    const startupOnly = ROUTE_DEFINITIONS.flatMap((d) => d.probe?.startupOnlyRoutes ?? []);
    expect(startupOnly).toContain('claude-code/text');
    for (const r of startupOnly) expect(table).toContain(`\`${r}\``);
    expect(() => withRoutesTable('# no markers\n')).toThrow(/no route table markers/);
  });
});
