/**
 * Do the route definitions agree with each other and with what lies outside them: the corpus
 * (every declared framing has a case its decoder reads; every case's route is defined), the pins
 * in probes/package.json, the lint profiles, the probe plans and the argv each probe driver
 * builds (the schema flag is really sent). Each check returns problems as sentences naming the
 * definition file, so a test (src/routes/routes.test.ts) or a user's own CI prints what to fix.
 * Checks never throw for a bad definition; they report it.
 */
import { mkdir, mkdtemp, readFile } from 'node:fs/promises';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { Envelope } from '#src/envelope/types.ts';
import type { Framing, RouteDefinition } from '#src/routes/define.ts';
import { GENERIC_ROUTE_PREFIX } from '#src/routes/generic/decoder.ts';

/** A problem: where (the definition file) and what. */
function problem(d: RouteDefinition, what: string): string {
  return `src/routes/${d.cli}/route.ts: ${what}`;
}

function parses(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Whether `stdout` is laid out as `framing`: one JSON object (`json-document`), one JSON array
 * (`json-array`), or non-empty lines that are each one JSON value (`jsonl`; one line is enough).
 * Stray non-JSON lines make stdout none of them.
 */
export function readsAs(stdout: string, framing: Framing): boolean {
  const text = stdout.trim();
  if (text === '') return false;
  if (framing === 'jsonl') {
    const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
    return lines.every((l) => parses(l) !== undefined);
  }
  const value = parses(text);
  if (framing === 'json-array') return Array.isArray(value);
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether the route's decoder reads `envelope`: it claims it (`detect`), does not call it a crash, and finds something. */
function decoderReads(d: RouteDefinition, route: string, envelope: Envelope): boolean {
  const spec = d.routes.find((r) => r.route === route);
  if (!spec) return false;
  const decoder = spec.decoder();
  if (!decoder.detect(envelope)) return false;
  const decoded = decoder.decode(envelope);
  return decoded.status.kind !== 'crashed' && (decoded.candidates.length > 0 || decoded.keys.length > 0);
}

/**
 * Facts within and across definitions: a route or a CLI name defined twice, two definitions
 * claiming one binary with no probe to tell them apart is fine (grok and grok-cli both install
 * `grok`), but two probed CLIs on one binary are not.
 */
export function definitionProblems(definitions: readonly RouteDefinition[]): string[] {
  const problems: string[] = [];
  const routeOwner = new Map<string, string>();
  const cliNames = new Set<string>();
  const probedBins = new Map<string, string>();
  for (const d of definitions) {
    if (cliNames.has(d.cli)) problems.push(problem(d, `CLI name "${d.cli}" is defined twice`));
    cliNames.add(d.cli);
    for (const r of d.routes) {
      const owner = routeOwner.get(r.route);
      if (owner !== undefined) problems.push(problem(d, `route "${r.route}" is also defined by ${owner}`));
      routeOwner.set(r.route, d.cli);
    }
    if (d.probe && d.bin !== null) {
      const other = probedBins.get(d.bin);
      if (other !== undefined) problems.push(problem(d, `binary "${d.bin}" is also probed as ${other}`));
      probedBins.set(d.bin, d.cli);
    }
  }
  return problems;
}

/** A loaded corpus case, as far as the checks below read it (src/record/corpus.ts `LoadedCase`). */
export interface CorpusCase {
  file: string;
  case: { route: string; attempts: readonly Envelope[] };
}

/**
 * Definitions against the corpus: each declared framing of each route has a case under that
 * route whose stdout reads as the framing and which its decoder reads; each case's route is
 * defined (a `generic:<spec>` route is configured, not defined, and is left out).
 */
export function corpusProblems(definitions: readonly RouteDefinition[], cases: readonly CorpusCase[]): string[] {
  const problems: string[] = [];
  for (const d of definitions) {
    for (const r of d.routes) {
      for (const framing of r.framings) {
        const envelopes = cases.filter((c) => c.case.route === r.route).flatMap((c) => c.case.attempts);
        const found = envelopes.some((a) => readsAs(a.stdout, framing) && decoderReads(d, r.route, a));
        if (!found) problems.push(problem(d, `route "${r.route}" declares framing "${framing}" but no case under fixtures/cases has such stdout that its decoder reads`));
      }
    }
  }
  const known = new Set(definitions.flatMap((d) => d.routes.map((r) => r.route)));
  for (const c of cases) {
    if (c.case.route.startsWith(GENERIC_ROUTE_PREFIX) || known.has(c.case.route)) continue;
    problems.push(`${c.file}: route "${c.case.route}" has no route definition (src/routes/<cli>/route.ts)`);
  }
  return problems;
}

/**
 * Definitions against probes/package.json (its `dependencies`) and the lint profile names: a
 * probed CLI is pinned at `versions.recorded`; every pinned package has a probed definition; a
 * lint profile exists.
 */
export function pinProblems(definitions: readonly RouteDefinition[], pins: Readonly<Record<string, string>>, profileNames: readonly string[]): string[] {
  const problems: string[] = [];
  const probed = definitions.filter((d) => d.probe);
  for (const d of probed) {
    const pinned = d.npmPackage === null ? undefined : pins[d.npmPackage];
    if (pinned === undefined) problems.push(problem(d, `probes/package.json does not pin ${d.npmPackage ?? '(no npm package)'}`));
    else if (pinned !== d.versions?.recorded) problems.push(problem(d, `versions.recorded is ${d.versions?.recorded ?? 'missing'} but probes/package.json pins ${d.npmPackage ?? ''}@${pinned}`));
    const profile = d.probe?.lintProfile;
    if (profile !== undefined && !profileNames.includes(profile)) problems.push(problem(d, `lint profile "${profile}" is not one of ${profileNames.join(', ')}`));
    if (profile !== undefined && d.schema === null) problems.push(problem(d, `lint profile "${profile}" models a schema flag the CLI does not have`));
  }
  for (const pkg of Object.keys(pins)) {
    if (!probed.some((d) => d.npmPackage === pkg)) problems.push(`probes/package.json: ${pkg} is pinned but no route definition probes it`);
  }
  return problems;
}

/** The schema the probe check sends (small, recognisable). */
const PROBE_CHECK_SCHEMA = { type: 'object', properties: { routecertAgreement: { type: 'boolean' } }, required: ['routecertAgreement'] };

/**
 * Definitions against their probes: for every route of every probed CLI, `prepare()` (in a
 * throwaway folder under `root`, which the caller owns and removes) sends the schema the way the
 * definition says: after `schema.flag` as one JSON token (`json`) or as a file holding it
 * (`file`), or, without a schema flag, inside the prompt and behind no schema flag any
 * definition names. A plan of a CLI with a schema flag expects a `startup-rejected` case (the flag
 * reaches a validator); a plan of a CLI without one expects none (there is nothing to refuse).
 */
export async function probeProblems(definitions: readonly RouteDefinition[], root: string): Promise<string[]> {
  const problems: string[] = [];
  const flags = new Set(definitions.flatMap((d) => (d.schema ? [d.schema.flag] : [])));
  for (const d of definitions) {
    if (!d.probe || !d.driver) continue;
    const startupCase = d.routes.some((r) => d.probe?.plan.some((p) => p.expect(r.route).verdict === 'startup-rejected'));
    if (d.schema && !startupCase) problems.push(problem(d, `schema flag ${d.schema.flag}, but the probe plan has no startup-rejected case`));
    if (!d.schema && startupCase) problems.push(problem(d, 'no schema flag, but the probe plan expects a startup-rejected case'));
    for (const r of d.routes) {
      const base = await mkdtemp(path.join(root, `${d.cli}-`));
      const workspace = { root: base, home: path.join(base, 'home'), cwd: path.join(base, 'cwd'), tmpDir: path.join(base, 'tmp') };
      await Promise.all([mkdir(workspace.home), mkdir(workspace.cwd), mkdir(workspace.tmpDir)]);
      let run;
      try {
        run = await d.driver.prepare({ route: r.route, schema: PROBE_CHECK_SCHEMA, prompt: 'Say yes.', mockUrl: 'http://127.0.0.1:9', workspace });
      } catch (error) {
        problems.push(problem(d, `the probe driver cannot prepare route "${r.route}": ${(error as Error).message}`));
        continue;
      }
      const at = d.schema ? run.argv.indexOf(d.schema.flag) : -1;
      if (d.schema && at === -1) {
        problems.push(problem(d, `route "${r.route}": schema flag ${d.schema.flag} is not in the probe's argv (${run.display.join(' ')})`));
      } else if (d.schema) {
        const value = run.argv[at + 1] ?? '';
        const sent = d.schema.value === 'json' ? parses(value) : parses(await readFile(value, 'utf8').catch(() => ''));
        if (!isDeepStrictEqual(sent, PROBE_CHECK_SCHEMA)) problems.push(problem(d, `route "${r.route}": ${d.schema.flag} is not followed by the schema as ${d.schema.value === 'json' ? 'one JSON token' : 'a file holding it'}`));
      } else {
        const stray = run.argv.filter((a) => flags.has(a));
        if (stray.length > 0) problems.push(problem(d, `route "${r.route}": no schema flag declared, but the probe passes ${stray.join(', ')}`));
        const prompt = `${run.stdin ?? ''}\n${run.argv.join('\n')}`;
        if (!prompt.includes(JSON.stringify(PROBE_CHECK_SCHEMA, null, 2)) && !prompt.includes(JSON.stringify(PROBE_CHECK_SCHEMA))) {
          problems.push(problem(d, `route "${r.route}": no schema flag declared, and the schema is not in the prompt`));
        }
      }
    }
  }
  return problems;
}
