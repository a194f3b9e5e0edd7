/**
 * Certification: for each route of a config, smoke the adapter with two trivially decidable cases,
 * then run every check with fake CLIs replaying corpus cases, and build the certificate. Two doors
 * to one engine (STYLE.md item 5): {@link certify} returns the certificate and never throws on
 * non-conformance; {@link assertCertified} throws a formatted error for use in suites.
 *
 * Design after bowtie's smoke and miniatures (STYLE.md section 4, items 11-13) and the
 * compound-engineering-plugin route tests (research/ce-plugin.md section 3.1).
 */
import { trackTempFolder } from '#src/process/tempFolders.ts';
import pLimit from 'p-limit';
import { generatedAnswers } from './generated.ts';
import { mkdtempSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { schemaSizeProblem } from '#src/schema/limit.ts';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadContract } from '#src/contract/registry.ts';
import type { Contract } from '#src/contract/types.ts';
import { decoderFor } from '#src/routes/registry.ts';
import { isPlainObject } from '#src/envelope/keys.ts';
import { projectPath } from '#src/paths.ts';
import { loadCorpus, RELEASE_CASE_BYTES, type LoadedCase } from '#src/record/corpus.ts';
import { caseLabel } from './cases.ts';
import { certificateHeader, corpusDigest, notSelectedLine, replayedCaseIds, toolVersions, type Certificate, type CertifiedCli, type CheckResult, type RouteCertificate } from './certificate.ts';
import { DEFAULT_RUN_WINDOWS, OUTER_GRACE_MS, smokeCases, type CheckDefinition, type CheckEnv, type JudgedRun, type PlannedRun } from './checks.ts';
import { artifactAdapter, CertifyConfigError, configProblems, schemaChannelOf, type CertifyConfig, type LoadedConfig } from './config.ts';
import { definitionFrom, isPresetName, POV_DEFINITION, presetForCertify, rulesOf, type CertifiedRules, type ContractDefinition } from './rules.ts';
import { didYouMean, didYouMeanTail } from '#src/diagnostics/didYouMean.ts';
import { ContractDefinitionError, defineContract, normalizeDefinition } from '#src/contract/define.ts';
import type { ShimAttempt } from '#src/harness/shim/plan.ts';
import { executeRun, toolEntries, type RunContext, type RunObservation, type RunWindows } from './execute.ts';
import { certifyRoute, UnknownCertifyRouteError, type CertifyRoute } from './routes.ts';
import { pushAll } from '#src/arrays.ts';
import { interruption, signalExitCode } from '#src/process/interrupt.ts';
import { checksForContract, consumerSmokeCases, isConsumerContract } from './consumer.ts';


/** The prompt handed to the worker unless the config sets one. */
export const DEFAULT_CERTIFY_PROMPT = 'Give your point of view on the question: should we choose option A or option B? Return ONE JSON object that matches the schema.';

/** The sentence of the final-answer paragraph the retry prompt must carry, unless the config sets one. */
export const DEFAULT_FINAL_ANSWER_MARKER = 'This response is the final one';

/** What {@link certify} reports while it runs. */
export type CertifyProgress =
  | { kind: 'route-start'; route: string; cli: string }
  | { kind: 'run'; route: string; observation: RunObservation }
  | { kind: 'check'; route: string; stage: 'smoke' | 'check' | 'records'; result: CheckResult }
  | { kind: 'route-end'; route: string; certificate: RouteCertificate };

/**
 * Options of {@link certify}.
 * - `routes`: only these of the config's routes (a route or its CLI prefix);
 * - `checks`: only these check ids besides the smoke (for quick runs);
 * - `concurrency`: worker runs at once; @default the config's, else max(4, cores);
 * - `onProgress`: called as smoke and checks finish;
 * - `parallelRoutes`: certify the routes at the same time (their runs share `concurrency`);
 *   progress events of different routes then interleave; @default false;
 * - `keep`: keep the temporary folders (to inspect a run);
 * - `subject`: the package certified (name and version), for the certificate's header;
 * - `cli`: the CLI version to certify with (the fake CLI reports it on `--version`, the certificate
 *   names it) and where it comes from; @default the version the replayed cases were recorded with;
 * - `selectedBy`: what chose `checks`, in the words the user typed (e.g. `run --tag smoke`), for the
 *   certificate's "not selected" reason; @default `--check <checks>`.
 */
export interface CertifyOptions {
  routes?: string[];
  checks?: string[];
  selectedBy?: string;
  concurrency?: number;
  onProgress?: (event: CertifyProgress) => void;
  parallelRoutes?: boolean;
  keep?: boolean;
  subject?: { name: string; version: string };
  cli?: { version: string; source: string };
}

/** A certificate and the exit code it maps to: 0 certified, 1 a check failed, 3 a smoke failed or a route could not run. */
export interface CertifyOutcome {
  certificate: Certificate;
  /**
   * 0 certified (or partial), 1 a check failed, 2 a `--check` selection that applies on none of the
   * routes certified (only the smoke ran), 3 a smoke failed or a route could not run; 130/143
   * interrupted by SIGINT/SIGTERM.
   */
  exitCode: Certificate['footer']['exitCode'];
  /** With `keep`: the folder that holds every run's files (the worker's output, the fake CLIs' records). */
  keptAt?: string;
}

function asLoaded(config: CertifyConfig | LoadedConfig): LoadedConfig {
  return 'config' in config && 'dir' in config ? config : { config: config as CertifyConfig, file: null, dir: process.cwd() };
}

/**
 * Why checks that apply were left out of a certification, for a route's `notSelected.reason`:
 * `not selected by <what chose the checks>` (`selection.selectedBy`, else `--check <ids>`).
 */
export function notSelectedReason(selection: { checks?: readonly string[]; selectedBy?: string }): string {
  return `not selected by ${selection.selectedBy ?? `--check ${(selection.checks ?? []).join(', ')}`}`;
}

/** The position of the non-final answer in an attempt, as routecert's contract reads it (no time left, so no retry). */
function positionReader(contract: Contract | null): CheckEnv['nonfinalPosition'] {
  return (c: LoadedCase, index: number) => {
    if (contract === null) return null;
    const envelope = { ...c.case.attempts[index]!, elapsedMs: 0 };
    const decoded = decoderFor(c.case.route).decode(envelope, contract.decodeOptions);
    const v = contract.judge(decoded, { attempt: 1, elapsedMs: Number.MAX_SAFE_INTEGER });
    return v.verdict === 'dropped-nonfinal' && isPlainObject(v.value) && typeof v.value[contract.anchor] === 'string' ? (v.value[contract.anchor] as string) : null;
  };
}

/** The value routecert's contract accepts from one (possibly derived) attempt of `route`, first attempt, time to spare. */
function acceptedReader(contract: Contract | null, route: string): CheckEnv['acceptedValue'] {
  return (attempt: ShimAttempt) => {
    if (contract === null) return undefined;
    const envelope = { stdout: attempt.stdout, stderr: attempt.stderr, exitCode: attempt.exitCode, signal: attempt.signal ?? null, timedOut: false, elapsedMs: 0, ...(attempt.files ? { files: attempt.files } : {}) };
    const v = contract.judge(decoderFor(route).decode(envelope, contract.decodeOptions), { attempt: 0, elapsedMs: 0 });
    return v.verdict === 'accepted' ? v.value : undefined;
  };
}

/** The expected verdicts of envelopes that mean the same under every contract (see {@link borrowCases}). */
const CONTRACT_FREE_VERDICTS: readonly string[] = ['startup-rejected', 'crashed', 'timeout', 'dropped-unusable', 'provider-error'];

/** Tags that say where a case comes from, not what it holds. */
const PROVENANCE_TAGS: readonly string[] = ['recorded', 'documented', 'generated', 'issue', 'key-case'];

/**
 * The single-attempt cases of other contracts, on the routes certified, whose expected verdict is one
 * every contract reaches the same way ({@link CONTRACT_FREE_VERDICTS}) and that `contract`'s own judge
 * gives that verdict too, unless the contract's own cases already hold that kind on that route (same
 * verdict and tags): copies of them named for `contract` (tag `borrowed`, the original contract in
 * `borrowed-from-<name>`).
 */
function borrowCases(all: readonly LoadedCase[], own: readonly LoadedCase[], contract: Contract, routes: readonly CertifyRoute[]): LoadedCase[] {
  const wanted = new Set(routes.map((r) => r.route));
  const ownFiles = new Set(own.map((c) => c.file));
  const out: LoadedCase[] = [];
  for (const c of all) {
    const k = c.case;
    // A crash that printed nothing on stdout reads the same on every route (the stderr checks look anywhere).
    const anyRoute = k.expect.verdict === 'crashed' && k.attempts[0]?.stdout === '';
    if (ownFiles.has(c.file) || k.contract === contract.name || (!wanted.has(k.route) && !anyRoute) || k.attempts.length !== 1 || k.skip || !CONTRACT_FREE_VERDICTS.includes(k.expect.verdict)) continue;
    const kind = k.tags.filter((t) => !PROVENANCE_TAGS.includes(t));
    if (own.some((o) => o.case.route === k.route && o.case.expect.verdict === k.expect.verdict && kind.every((t) => o.case.tags.includes(t)))) continue;
    const a = k.attempts[0]!;
    const envelope = { stdout: a.stdout, stderr: a.stderr, exitCode: a.exitCode, signal: a.signal ?? null, timedOut: a.timedOut === true, elapsedMs: 0, ...(a.files ? { files: a.files } : {}) };
    let verdict: string;
    try {
      verdict = contract.judge(decoderFor(k.route).decode(envelope, contract.decodeOptions), { attempt: 0, elapsedMs: 0 }).verdict;
    } catch {
      continue;
    }
    if (verdict !== k.expect.verdict) continue;
    const { value: _v, origin: _o, ...expect } = k.expect;
    out.push({ ...c, file: `${c.file}#borrowed`, case: { ...k, contract: contract.name, expect, tags: [...k.tags, 'borrowed', `borrowed-from-${k.contract}`] } });
  }
  return out;
}

/**
 * The contract routecert judges replayed attempts with: the bundled pov contract for the pov
 * preset; for a team's definition, the contract `defineContract` builds on it with the schema the
 * worker is given.
 */
async function judgingContract(definition: ContractDefinition, schema: Record<string, unknown>): Promise<Contract | null> {
  if (definition === POV_DEFINITION || (isPresetName(definition.name) && presetForCertify(definition.name).schema === definition.schema)) return loadContract(definition.name);
  return defineContract({ ...definition, schema });
}

/**
 * True when a skip reason says the check does not apply to the route (rather than that its input is
 * missing): the checks' own wording ("not applicable: ...", a buffered route's idle window, a route
 * with no output-format flag or no schema on its command line).
 */
function isNotApplicable(reason: string): boolean {
  return /^not applicable\b|is buffered \(the CLI prints at the end\)|has no output-format flag|takes no schema on the command line|passes no schema as a JSON token/.test(reason);
}

function skipped(def: CheckDefinition, reason: string): CheckResult {
  return { id: def.id, title: def.title, status: 'skipped', reason, evidence: [], cases: [], covers: [...def.covers], expectedVerdict: def.expectedVerdict, durationMs: 0 };
}

/** The certified rules of `cfg`'s contract and why a check does not apply to them (`null`: it applies); rules `null` for an unusable contract (certify's own error). */
function applicability(cfg: CertifyConfig): { rules: CertifiedRules | null; why: (d: CheckDefinition) => string | null } {
  let rules: CertifiedRules | null = null;
  try {
    rules = rulesOf(typeof cfg.contract === 'object' ? definitionFrom(cfg.contract) : presetForCertify(cfg.contract ?? 'pov'));
  } catch {
    rules = null;
  }
  return { rules, why: (d) => (rules === null ? null : (d.requires?.(rules) ?? null)) };
}

/**
 * The checks (besides the smoke) of `cfg`'s contract that apply to it: those the contract has a rule
 * for (a check's `requires`). What `--check` offers and `run --tag`/`--case` may select.
 */
export function checksThatApply(cfg: CertifyConfig): CheckDefinition[] {
  const { why } = applicability(cfg);
  return checksForContract(cfg.contract).filter((d) => d.stage !== 'smoke' && why(d) === null);
}

/**
 * The options a user typed that the config cannot honour, found before any work (`certify` checks
 * them first, and so does the command, before it prints its first line): a `--check` that names no
 * check of the config's contract (the error lists them), a `--route` that matches none of its routes.
 *
 * @throws {CertifyConfigError} naming the option and what it may be.
 */
export function checkCertifyOptions(cfg: CertifyConfig, options: Pick<CertifyOptions, 'routes' | 'checks'>): void {
  // Each --route value must match a route of the config (a typo beside a good value was dropped in silence).
  const unmatched = (options.routes ?? []).filter((x) => !cfg.routes.some((r) => r === x || r.startsWith(`${x}/`)));
  if (unmatched.length > 0) {
    const names = [...new Set([...cfg.routes, ...cfg.routes.map((r) => r.split('/')[0]!)])];
    throw new CertifyConfigError(unmatched.map((x) => `--route ${x}: no route of the config matches (its routes: ${cfg.routes.join(', ')})${didYouMeanTail(x, names)}`).join('\n'));
  }
  const all = checksForContract(cfg.contract).filter((d) => d.stage !== 'smoke');
  // A check the contract has no rule for is skipped whatever the worker does: selecting it alone
  // certified nothing and read "not-certified" (exit 1). Only the checks that apply are offered.
  const { rules, why } = applicability(cfg);
  const listed = all.filter((d) => why(d) === null).map((d) => d.id);
  const unknownChecks = (options.checks ?? []).filter((id) => !all.some((d) => d.id === id));
  if (unknownChecks.length > 0) {
    const near = unknownChecks.flatMap((id) => didYouMean(id, listed));
    throw new CertifyConfigError(`--check ${unknownChecks.join(', ')}: unknown check ${unknownChecks.map((id) => `"${id}"`).join(', ')}${near.length > 0 ? ` (did you mean ${near.map((n) => `"${n}"`).join(' or ')}?)` : ''}. Checks: ${listed.join(', ')}`);
  }
  const inapplicable = (options.checks ?? []).flatMap((id) => {
    const d = all.find((x) => x.id === id)!;
    const reason = why(d);
    return reason === null ? [] : [`"${id}" (${reason})`];
  });
  if (inapplicable.length > 0) {
    throw new CertifyConfigError(`--check: ${inapplicable.join(', ')} does not apply to contract ${rules!.contract}, so it would certify nothing. Checks of this contract: ${listed.join(', ')}`);
  }
}

/**
 * Why the config's `schema` (the file handed to the worker, beside its `contract`) cannot be
 * certified against that contract, or `null` when it can (or there is none): the contract judges
 * what the worker publishes, so the schema must declare the contract's anchor and finality key
 * (the one rule, `normalizeDefinition` in src/contract/define.ts). A team's own schema under the
 * pov contract certified the worker against pov's answers, with checks failing for no reason the
 * worker could see. `certify` refuses it; the command asks before its first line.
 */
export function schemaMisfit(config: CertifyConfig | LoadedConfig): string | null {
  const { config: cfg, dir } = asLoaded(config);
  if (!cfg.schema || isConsumerContract(cfg.contract)) return null;
  let definition: ContractDefinition;
  try {
    definition = typeof cfg.contract === 'object' ? definitionFrom(cfg.contract) : presetForCertify(cfg.contract ?? 'pov');
  } catch {
    return null; // an unusable contract is certify's own error
  }
  try {
    normalizeDefinition({ ...definition, schema: cfg.schema }, dir);
    return null;
  } catch (error) {
    if (!(error instanceof ContractDefinitionError)) throw error;
    const why = error.message.replace(/^(\[routecert\] )?contract "[^"]*"(: | is not usable:\n {2}- )/, '').replace(/\n {2}- /g, '; ');
    // The file itself unusable (missing, not JSON, too large): said as such.
    if (!/`anchor`|`finality\.key`/.test(why)) return `\`schema\` (the schema handed to the worker): ${why}`;
    return (
      `\`schema\` (${cfg.schema}, handed to the worker) does not describe the answers of contract ${definition.name}, which judges what the worker publishes: ${why}. ` +
      `To certify the worker against this schema, give \`contract\` a definition of your own (defineContract({ name, schema: '${cfg.schema}', anchor, finality, ... }), README "Your own contracts") and drop \`schema\`; ` +
      `to keep contract ${definition.name}, drop \`schema\` or give one that declares its properties`
    );
  }
}

/**
 * Certify the worker of `config` on each of its routes.
 *
 * Never throws for what the worker does: a failing check (the smoke included) is a `fail` in the
 * certificate and every other check still runs; only an adapter that never reached the worker is
 * `adapter-broken` (exit code 3, see {@link adapterFault}).
 *
 * Memory (issue 24): the corpus is held as `routecert run` holds it, and no more: a case file of
 * `RELEASE_CASE_BYTES` (16 MiB) or more is listed and checked but its attempts are not kept, so it
 * is not replayed (fake CLIs replay the cases certification holds; with probes on, the run beside
 * it holds its own copy of the corpus).
 *
 * @throws {CertifyConfigError} for an unusable config, an unknown route, or a schema file that does not load.
 * @example
 * const { certificate, exitCode } = await certify(await loadConfig('routecert.config.ts'));
 * certificate.routes[0].checks.find((c) => c.id === 'retry-once')?.status // 'pass'
 */
export async function certify(config: CertifyConfig | LoadedConfig, options: CertifyOptions = {}): Promise<CertifyOutcome> {
  const loaded = asLoaded(config);
  const problems = configProblems(loaded.config);
  if (problems.length > 0) throw new CertifyConfigError(`the config is not usable:\n  - ${problems.join('\n  - ')}`);
  const cfg = loaded.config;
  checkCertifyOptions(cfg, options);
  const started = performance.now();
  const startedAt = new Date().toISOString();

  const routes = cfg.routes.filter((r) => !options.routes?.length || options.routes.some((x) => r === x || r.startsWith(`${x}/`)));
  const certifyRoutes: CertifyRoute[] = [];
  for (const r of routes) {
    try {
      certifyRoutes.push(certifyRoute(r));
    } catch (error) {
      if (error instanceof UnknownCertifyRouteError) throw new CertifyConfigError(error.message.replace(/^\[routecert\] /, ''));
      throw error;
    }
  }
  const casesDir = cfg.cases ? path.resolve(loaded.dir, cfg.cases) : projectPath('fixtures/cases');
  // A shipped contract may be named (`'pov'`, `'findings-code'`, ...) or given as a definition.
  const shipped = typeof cfg.contract === 'string' && isPresetName(cfg.contract);
  const definition: ContractDefinition = typeof cfg.contract === 'object' ? definitionFrom(cfg.contract) : presetForCertify(cfg.contract ?? 'pov');
  const rules = rulesOf(definition);
  if (rules.retries && !isConsumerContract(cfg.contract) && cfg.worker.windowEnv.retryMinS === undefined) {
    throw new CertifyConfigError(`contract ${definition.name} retries a non-final answer: \`worker.windowEnv.retryMinS\` must name the variable of the worker's minimum retry window`);
  }
  let schemaText: string;
  let schema: Record<string, unknown>;
  if (!cfg.schema && typeof definition.schema === 'object') {
    schema = definition.schema as Record<string, unknown>;
    schemaText = `${JSON.stringify(schema, null, 2)}\n`;
  } else {
    const schemaFile = cfg.schema
      ? path.resolve(loaded.dir, cfg.schema)
      : definition === POV_DEFINITION || shipped
        ? projectPath(definition.schema as string)
        : path.resolve(loaded.dir, definition.schema as string);
    const tooLarge = schemaSizeProblem(schemaFile);
    if (tooLarge) throw new CertifyConfigError(tooLarge);
    try {
      schemaText = await readFile(schemaFile, 'utf8');
      schema = JSON.parse(schemaText) as Record<string, unknown>;
    } catch (error) {
      throw new CertifyConfigError(`the schema file ${schemaFile} does not load: ${(error as Error).message}`);
    }
  }
  const misfit = schemaMisfit(loaded);
  if (misfit !== null) throw new CertifyConfigError(misfit);
  // Large case files are not held (their attempts let go when listed), so they are not replayed.
  const tooLarge: string[] = [];
  const replayable = async (dir: string): Promise<LoadedCase[]> =>
    (await loadCorpus(dir, { releaseAbove: RELEASE_CASE_BYTES })).cases.filter((c) => {
      if (c.released) tooLarge.push(c.file);
      return !c.released;
    });
  const corpus = { cases: await replayable(casesDir) };
  let contract: Contract | null;
  try {
    // The consumer checks read what the consumer returned (its outcome file), not routecert's reading.
    contract = isConsumerContract(cfg.contract) ? null : await judgingContract(definition, schema);
  } catch (error) {
    throw new CertifyConfigError(`contract ${definition.name}: its schema does not compile: ${(error as Error).message}`);
  }
  const prompt = cfg.prompt ?? DEFAULT_CERTIFY_PROMPT;
  const limit = options.concurrency ?? cfg.concurrency ?? Math.max(4, availableParallelism());
  const only = options.checks;
  const checks = checksForContract(cfg.contract);
  // Made and registered in one synchronous step: a signal's exit between the two would leave it behind.
  const root = mkdtempSync(path.join(tmpdir(), 'routecert-certify-'));
  const untrackRoot = options.keep ? () => undefined : trackTempFolder(root);
  const ctx: RunContext = { loaded, root, schemaText, prompt, ...(options.keep ? { keep: true } : {}) };

  const slot = pLimit(limit);
  const consumer = isConsumerContract(cfg.contract);
  // The consumer contract replays the pov corpus: its schema is pov's, read as an ordinary schema.
  const own = corpus.cases.filter((c) => c.case.contract === (consumer ? 'pov' : definition.name));
  // Envelopes whose verdict does not depend on the contract (a startup rejection, a crash, a stall,
  // a prose-only answer) are borrowed from the whole corpus and the bundled one, when this
  // contract's judge reaches the same verdict on them: a team's corpus need not hold them (issue 19 point 8).
  const ownCorpus = casesDir !== projectPath('fixtures/cases');
  const bundled = ownCorpus ? [...corpus.cases, ...(await replayable(projectPath('fixtures/cases')))] : corpus.cases;
  const pov = consumer || contract === null ? own : [...own, ...borrowCases(bundled, own, contract, certifyRoutes)];
  const strict = artifactAdapter(cfg.worker).strict === true;
  // Members the worker leaves out or sets itself are not compared (worker.publish.exclude, artifact.ignore).
  const ignore = [...(artifactAdapter(cfg.worker).ignore ?? []), ...(cfg.worker.publish?.exclude ?? [])];

  const generated = await generatedAnswers(schema);
  const certifyOne = async (route: CertifyRoute): Promise<RouteCertificate> => {
    options.onProgress?.({ kind: 'route-start', route: route.route, cli: route.cli });
    const smoke = consumer ? consumerSmokeCases(pov, route.route) : smokeCases(pov, route.route);
    const env: CheckEnv = {
      route,
      cases: pov,
      schema,
      prompt,
      marker: cfg.finalAnswerMarker ?? DEFAULT_FINAL_ANSWER_MARKER,
      schemaChannel: schemaChannelOf(cfg.worker, route.route),
      adapterHasIdle: cfg.worker.windowEnv.idleWindowS !== undefined,
      inProcess: cfg.worker.run !== undefined,
      nonfinalPosition: positionReader(contract),
      acceptedValue: acceptedReader(contract, route.route),
      generated,
      smoke,
      rules,
      anchor: definition.anchor,
      strict,
      ignore,
      ...(ownCorpus ? { recorded: own } : {}),
    };
    const versionCase = smoke.final ?? pov.find((c) => c.case.route === route.route);
    const recorded = versionCase?.case.cli.version ?? 'unknown';
    const cli: CertifiedCli = options.cli
      ? { name: versionCase?.case.cli.name ?? route.cli, version: options.cli.version, source: options.cli.source, ...(recorded !== options.cli.version ? { casesRecordedWith: recorded } : {}) }
      : { name: versionCase?.case.cli.name ?? route.cli, version: recorded };

    // Checks the contract or the route has no rule for (skipped, but nothing was left unchecked).
    const notApplicable = new Set<string>();
    const runChecks = async (defs: readonly CheckDefinition[], earlier: readonly JudgedRun[]): Promise<{ results: CheckResult[]; observed: JudgedRun[] }> => {
      const planned = defs.map((def) => {
        const why = def.requires?.(rules) ?? null;
        if (why !== null) notApplicable.add(def.id);
        return { def, plan: why !== null ? { skip: why } : def.plan(env) };
      });
      const tasks: { index: number; run: PlannedRun }[] = [];
      planned.forEach(({ plan }, index) => {
        if ('runs' in plan) for (const run of plan.runs) tasks.push({ index, run });
      });
      // Runs that sleep through a window go first, so they overlap the quick ones.
      const order = [...tasks].sort((a, b) => Number(isSlow(b.run)) - Number(isSlow(a.run)));
      const observations = await Promise.all(
        order.map((t) =>
          slot(async () => {
            const o = await execute(route, cli.version, t.run, ctx);
            options.onProgress?.({ kind: 'run', route: route.route, observation: o });
            return { t, o };
          }),
        ),
      );
      const observed: JudgedRun[] = observations.map((x) => ({ planned: x.t.run, observed: x.o }));
      const results = planned.map(({ def, plan }, index) => {
        if ('skip' in plan) {
          const result = skipped(def, plan.skip);
          options.onProgress?.({ kind: 'check', route: route.route, stage: def.stage, result });
          return result;
        }
        const mine = observations.filter((x) => x.t.index === index).map((x) => ({ planned: x.t.run, observed: x.o }));
        const t0 = performance.now();
        const judged = def.judge(mine, env, [...earlier, ...observed]);
        if (judged.skip !== undefined) {
          const result = skipped(def, judged.skip);
          options.onProgress?.({ kind: 'check', route: route.route, stage: def.stage, result });
          return result;
        }
        const result: CheckResult = {
          id: def.id,
          title: def.title,
          status: judged.pass ? 'pass' : 'fail',
          // A check judged a run whose output was cut says so (issue 23 point 3).
          evidence: [...judged.evidence, ...mine.flatMap((m) => (m.observed.outputCut ?? []).map((c) => `${m.observed.label}: output cut: ${c}`))],
          cases: [...new Set(mine.flatMap((m) => m.planned.cases.map(caseLabel)))],
          covers: [...def.covers],
          expectedVerdict: def.expectedVerdict,
          durationMs: Math.round(mine.reduce((s, m) => Math.max(s, m.observed.elapsedMs), 0) + performance.now() - t0),
        };
        options.onProgress?.({ kind: 'check', route: route.route, stage: def.stage, result });
        return result;
      });
      return { results, observed };
    };

    const smokeDefs = checks.filter((d) => d.stage === 'smoke');
    let status: RouteCertificate['status'];
    let smokeResults: CheckResult[];
    let checkResults: CheckResult[];
    let blocking: { id: string; reason: string }[] = [];
    // A chosen records check brings the checks whose runs it reads.
    // `checks: []` is a selection too (the smoke alone: `run --tag smoke`), not "every check".
    const chosen = only !== undefined ? new Set(only.flatMap((id) => [id, ...(checks.find((d) => d.id === id)?.reads ?? [])])) : null;
    const rest = checks.filter((d) => d.stage !== 'smoke' && (!chosen || chosen.has(d.id)));
    const leftOut = checks.filter((d) => d.stage !== 'smoke' && chosen !== null && !chosen.has(d.id)).map((d) => d.id);
    const notSelected = leftOut.length > 0 ? { ids: leftOut, reason: notSelectedReason(options) } : null;
    if (!smoke.final || !smoke.prose) {
      status = 'could-not-run';
      const large = tooLarge.length > 0 ? ` (${tooLarge.length} case file(s) of ${RELEASE_CASE_BYTES / 2 ** 20} MiB or more are not replayed, e.g. ${tooLarge[0]})` : '';
      const reason = `the corpus has no ${!smoke.final ? 'well-formed final' : 'prose-only'} case for ${route.route}${large}, so the adapter cannot be smoked`;
      smokeResults = smokeDefs.map((d) => skipped(d, reason));
      checkResults = rest.map((d) => skipped(d, reason));
      // Say why on the console too, not only in certificate.md.
      for (const [stage, results] of [['smoke', smokeResults], ['check', checkResults]] as const) {
        for (const result of results) options.onProgress?.({ kind: 'check', route: route.route, stage, result });
      }
    } else {
      const s = await runChecks(smokeDefs, []);
      smokeResults = s.results;
      const broken = smokeResults.some((r) => r.status !== 'pass') ? adapterFault(s.observed.map((r) => r.observed), { calls: true }) : null;
      if (broken !== null) {
        status = 'adapter-broken';
        checkResults = rest.map((d) => skipped(d, `the smoke failed before the worker was reached (${broken}): the adapter is broken, so the worker was not checked`));
      } else {
        // A smoke the worker itself failed is the worker's failure: every other check still runs, so
        // a worse worker never shows fewer failed checks (issue 19 part 5).
        const main = await runChecks(rest.filter((d) => d.stage === 'check'), []);
        const records = await runChecks(rest.filter((d) => d.stage === 'records'), [...s.observed, ...main.observed]);
        const byId = new Map([...main.results, ...records.results].map((r) => [r.id, r]));
        checkResults = rest.map((d) => byId.get(d.id)!);
        // A certificate with no passing check certifies nothing (every check skipped, or none selected);
        // nor does one with a check that did not run for want of input (issue 19 point 8: "certified"
        // means every check ran, or does not apply to this contract and route).
        const unrun = checkResults.filter((r) => r.status === 'skipped' && !notApplicable.has(r.id) && !isNotApplicable(r.reason ?? ''));
        const inapplicable = checkResults.filter((r) => r.status === 'skipped' && (notApplicable.has(r.id) || isNotApplicable(r.reason ?? ''))).length;
        status = routeStatus(smokeResults, checkResults, { unrun: unrun.length, notSelected: leftOut.length, inapplicable });
        blocking = unrun.map((r) => ({ id: r.id, reason: r.reason ?? '' }));
      }
    }
    // Interrupted (SIGINT/SIGTERM) before this route ended: its runs were stopped or never started,
    // so what they show is not the worker's doing.
    const stoppedBy = interruption();
    if (stoppedBy) {
      status = 'could-not-run';
      blocking = [{ id: 'interrupted', reason: `routecert was interrupted by ${stoppedBy} before this route was certified: its runs were stopped or never started` }];
    }
    const certificate: RouteCertificate = {
      route: route.route,
      cli,
      contract: definition.name,
      status,
      smoke: smokeResults,
      checks: checkResults,
      summary: {
        pass: checkResults.filter((r) => r.status === 'pass').length,
        fail: checkResults.filter((r) => r.status === 'fail').length,
        skipped: checkResults.filter((r) => r.status === 'skipped').length,
      },
      ...(blocking.length > 0 ? { blocking } : {}),
      ...(notSelected ? { notSelected } : {}),
    };
    options.onProgress?.({ kind: 'route-end', route: route.route, certificate });
    return certificate;
  };

  const routeCertificates: RouteCertificate[] = [];
  try {
    if (options.parallelRoutes) pushAll(routeCertificates, (await Promise.all(certifyRoutes.map(certifyOne))));
    else for (const route of certifyRoutes) routeCertificates.push(await certifyOne(route));
  } finally {
    if (!options.keep) await rm(root, { recursive: true, force: true }).catch(() => undefined);
    untrackRoot();
  }

  const stoppedBy = interruption();
  // A `--check` selection none of whose checks applies on any route certified judged nothing
  // beyond the smoke: an empty selection, exit 2 (each route's SKIP line says why).
  const judgedNothing = only !== undefined && only.length > 0 && routeCertificates.length > 0 && routeCertificates.every((r) => r.status === 'partial' && r.checks.length > 0 && r.checks.every((c) => c.status === 'skipped'));
  const exitCode: CertifyOutcome['exitCode'] = stoppedBy
    ? signalExitCode(stoppedBy)
    : routeCertificates.some((r) => r.status === 'adapter-broken' || r.status === 'could-not-run')
    ? 3
    : routeCertificates.some((r) => r.status === 'not-certified')
      ? 1
      : judgedNothing
        ? 2
        : 0;
  const certificate: Certificate = {
    certificateVersion: 1,
    header: certificateHeader({
      startedAt,
      worker: cfg.worker,
      configFile: loaded.file,
      contract: definition.name,
      corpus: path.relative(process.cwd(), casesDir) || casesDir,
      subject: options.subject,
      tools: toolVersions([...(cfg.worker.command?.[0] ? [cfg.worker.command[0]] : []), ...toolEntries(cfg.worker.tools ?? [], loaded.dir)]),
    }),
    routes: routeCertificates,
    footer: { finishedAt: new Date().toISOString(), durationMs: Math.round(performance.now() - started), exitCode, ...(stoppedBy ? { interrupted: stoppedBy } : {}) },
  };
  certificate.header.corpusDigest = corpusDigest(pov.map((c) => ({ id: c.case.id, route: c.case.route })), routes, replayedCaseIds(certificate));
  return { certificate, exitCode, ...(options.keep ? { keptAt: root } : {}) };
}

/**
 * Why the adapter (routecert's side: the config's command, an example's adapter script) failed
 * before it reached the worker or consumer under test, or `null` when it reached it. Only then is
 * a route `adapter-broken`: the command could not start (`fault`), or, with `calls`, no smoke run
 * called any CLI and none left an artifact (nothing of the worker was ever seen); without `calls`
 * (an in-process consumer, which calls no CLI), no smoke run left an artifact.
 */
export function adapterFault(smokeRuns: readonly RunObservation[], options: { calls: boolean }): string | null {
  const fault = smokeRuns.find((o) => o.fault !== undefined);
  if (fault) return `${fault.label}: ${fault.fault}`;
  const reached = smokeRuns.some((o) => o.artifact.exists || (options.calls && o.calls.length > 0));
  if (reached || smokeRuns.length === 0) return null;
  return options.calls ? 'no smoke run called a CLI or left an artifact' : 'no smoke run left an artifact';
}

/**
 * The status of a route whose adapter reached the worker, the one place it is decided:
 * `not-certified` when a smoke or a check failed, when no check passed (a certificate with every
 * check skipped certifies nothing), or when `left.unrun` applicable checks did not run for want of
 * input; else `partial` when a filter (`--check`) left `left.notSelected` checks out (what ran
 * passed, but "certified" means every check ran), including a filter whose checks were all
 * skipped as not applicable on this route (`left.inapplicable` of them: nothing failed, nothing
 * was left for want of input); else `certified`.
 */
export function routeStatus(
  smoke: readonly CheckResult[],
  checks: readonly CheckResult[],
  left: { unrun?: number; notSelected?: number; inapplicable?: number } = {},
): 'certified' | 'partial' | 'not-certified' {
  if (smoke.some((r) => r.status === 'fail') || checks.some((r) => r.status === 'fail') || (left.unrun ?? 0) > 0) return 'not-certified';
  // A selection of the smoke alone (every check left out), or of checks none of which applies on
  // this route (`--check idle-window` on a buffered route), is partial, as any filtered run whose
  // runs passed; without a selection, a certificate whose every check was skipped certifies nothing.
  if (!checks.some((r) => r.status === 'pass')) return checks.length === (left.inapplicable ?? 0) && (left.notSelected ?? 0) > 0 ? 'partial' : 'not-certified';
  return (left.notSelected ?? 0) > 0 ? 'partial' : 'certified';
}

function isSlow(run: PlannedRun): boolean {
  return run.attempts.some((a) => a.hang !== undefined || (a.delayMs ?? 0) > 0 || (a.chunks?.length ?? 0) > 0);
}

function execute(route: CertifyRoute, cliVersion: string, run: PlannedRun, ctx: RunContext): Promise<RunObservation> {
  const windows: RunWindows = { ...DEFAULT_RUN_WINDOWS, ...run.windows };
  return executeRun(
    { label: run.label, route, attempts: run.attempts, cliVersion, windows, outerDeadlineMs: run.outerDeadlineMs ?? windows.hardWindowS * 1000 + OUTER_GRACE_MS },
    ctx,
  );
}

/** Raised by {@link assertCertified}; the message lists every failing check with its evidence. */
export class NotCertifiedError extends Error {
  readonly code = 'ROUTECERT_NOT_CERTIFIED';
  constructor(readonly certificate: Certificate) {
    const lines: string[] = [];
    for (const r of certificate.routes) {
      if (r.status === 'certified') continue;
      lines.push(`${r.route}: ${r.status}`);
      for (const k of [...r.smoke, ...r.checks]) if (k.status === 'fail') lines.push(`  FAIL ${k.id}: ${k.evidence.join(' | ')}`);
      const leftOut = notSelectedLine(r);
      if (leftOut !== null) lines.push(`  ${leftOut}`);
    }
    super(`[routecert] ${certificate.header.worker.name} is not certified:\n${lines.join('\n')}`);
    this.name = 'NotCertifiedError';
  }
}

/**
 * {@link certify}, throwing when any route is not certified.
 *
 * @throws {NotCertifiedError} listing the failing checks; {@link CertifyConfigError} as certify.
 */
export async function assertCertified(config: CertifyConfig | LoadedConfig, options: CertifyOptions = {}): Promise<Certificate> {
  const { certificate, exitCode } = await certify(config, options);
  // A `partial` route (options.checks left checks out) exits 0 but is no certification.
  if (exitCode !== 0 || certificate.routes.some((r) => r.status !== 'certified')) throw new NotCertifiedError(certificate);
  return certificate;
}
