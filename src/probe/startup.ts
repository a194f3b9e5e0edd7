/**
 * Startup probes as a table: which schemas (production schemas, keyword canaries, one schema under
 * each output format) each installed schema-flag CLI takes, by CLI version, with the CLI's own
 * words when it refuses, next to what the CLI's lint profile predicts. Generic over probe drivers:
 * every driver with `schemaFlag: true` gets a column.
 *
 * A probe is one run of the real CLI against its provider mock playing `final` with a payload that
 * is valid for the schema, so an accepted schema completes in one model request. Outcomes:
 * - `rejected` at stage `startup`: the CLI refused the schema itself (its rejection line; Claude Code
 *   2.1.332: stderr `Error: --json-schema is not a valid JSON Schema: ...`, exit 1, no request), or
 *   exited before any request;
 * - `rejected` at stage `provider`: the schema reached the provider mock, which refused it with the
 *   provider's schema error (OpenAI strict: `invalid_json_schema`), and the CLI reported that;
 * - `accepted`: the CLI called the model and no schema refusal came back (live, `--live --startup`:
 *   the provider's 2xx answer to a model call started; the run is reaped there);
 * - `fault`: the probe could not be carried out (CLI missing, spawn failure, mock failure, timeout
 *   before any request).
 */
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { stripVTControlCharacters } from 'node:util';
import type { EnvelopeStatus, Milliseconds } from '#src/envelope/types.ts';
import type { JsonObject } from '#src/mock/scenarios.ts';
import { ROUTE_LINT_PROFILES, ROUTE_STARTUP_ONLY, routeSpecFor } from '#src/routes/index.ts';
import type { DiscoveredCli } from '#src/probe/discover.ts';
import type { ProbeDriver } from '#src/probe/driver.ts';
import { DEFAULT_PROBE_TIMEOUT_MS, runProbe, type ProbeOptions, type ProbeResult } from '#src/probe/run.ts';
import { probeRunKey, ProbeRunPool } from '#src/probe/pool.ts';
import { decoderFor } from '#src/routes/registry.ts';
import { keywordPointer, lintSchema } from '#src/schema/lint.ts';
import type { StartupExpectation, StartupRowKind, StartupObservation, StartupCell, StartupRow, StartupColumn, StartupSummary, StartupTable } from './startupTypes.ts';
import { clipText } from '#src/diagnostics/evidence.ts';

export type { StartupCell, StartupTable } from './startupTypes.ts';

/**
 * The lint profile (src/schema/profiles.ts) that models each CLI's schema flag, by routecert CLI
 * name; from the route definitions (`probe.lintProfile` in src/routes/<cli>/route.ts).
 */
export const LINT_PROFILE_BY_CLI: Readonly<Record<string, string>> = ROUTE_LINT_PROFILES;

/**
 * Routes a driver can run for startup probes only (no decoder reads them), by CLI name, e.g.
 * Claude Code's `text` output format; from the route definitions (`probe.startupOnlyRoutes`).
 */
export const STARTUP_ONLY_ROUTES: Readonly<Record<string, readonly string[]>> = ROUTE_STARTUP_ONLY;

/** Every route a startup probe may use for `driver`: its routes, then its startup-only routes. */
export function startupRoutes(driver: ProbeDriver): string[] {
  return [...driver.routes, ...(STARTUP_ONLY_ROUTES[driver.cli] ?? [])];
}

/** The output format a route names: the part after the `/` (`claude-code/stream-json` -> `stream-json`). */
export function routeFormat(route: string): string {
  const slash = route.indexOf('/');
  return slash === -1 ? route : route.slice(slash + 1);
}

/**
 * Provider schema refusals a CLI may pass on after the schema reached the mock, each with its source:
 * - `invalid_json_schema`, `Invalid schema for response_format|function '<name>'`: OpenAI strict
 *   mode (research/schema-vocabularies.md §2.1, §2.6);
 * - `input_schema does not support ...`, `input_schema.type: Field required`,
 *   `output_format.schema:` / `output_config.format.schema:`: Anthropic (§3.4).
 */
export const PROVIDER_SCHEMA_REFUSALS: readonly RegExp[] = [
  /invalid_json_schema/,
  /Invalid schema for (?:response_format|function)/,
  /input_schema(?: does not support|\.type: Field required)/,
  /output_(?:format|config\.format)\.schema:/,
];

/** Longest message a cell keeps, in characters (longer ones are clipped with `...`). */
export const STARTUP_MESSAGE_LIMIT_CHARS = 400;

function clean(text: string): string {
  // ANSI colours out (Qwen Code 0.24.4 prints its startup rejection in red).
  const one = stripVTControlCharacters(text).replace(/\s+/g, ' ').trim();
  return clipText(one, STARTUP_MESSAGE_LIMIT_CHARS);
}

/**
 * The first string inside `value` (deep) that matches one of `patterns`. A matching string that is
 * itself a JSON document (Codex 0.171.0 puts the provider's whole error body in `error.message`) is
 * searched in turn, so the provider's own `message` comes out.
 */
function matchingString(value: unknown, patterns: readonly RegExp[]): string | undefined {
  if (typeof value === 'string') {
    if (!patterns.some((p) => p.test(value))) return undefined;
    if (/^\s*[[{]/.test(value)) {
      try {
        return matchingString(JSON.parse(value) as unknown, patterns) ?? value;
      } catch {
        return value;
      }
    }
    return value;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  for (const v of Array.isArray(value) ? value : Object.values(value)) {
    const hit = matchingString(v, patterns);
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/**
 * The provider's schema refusal as the CLI passed it on: the first stderr, then stdout, line that
 * matches {@link PROVIDER_SCHEMA_REFUSALS}; for a JSON line, the string inside it that matches.
 * `null` when none.
 */
export function providerRefusal(stdout: string, stderr: string): string | null {
  for (const line of `${stderr}\n${stdout}`.split(/\r?\n/)) {
    const plain = stripVTControlCharacters(line);
    if (!PROVIDER_SCHEMA_REFUSALS.some((p) => p.test(plain))) continue;
    try {
      const inner = matchingString(JSON.parse(plain) as unknown, PROVIDER_SCHEMA_REFUSALS);
      if (inner !== undefined) return clean(inner);
    } catch {
      // not JSON: the line itself
    }
    return clean(plain);
  }
  return null;
}

/**
 * The status the route decoder reads off a startup probe's envelope: the decoder of the probe's
 * route, else (a startup-only route such as `claude-code/text`, which no decoder reads) that of the
 * CLI's first route, whose status rules (stderr refusal, exit code) are the same for its formats.
 * `undefined` when neither is known.
 */
function decodedStatus(result: ProbeResult, driver?: ProbeDriver): EnvelopeStatus | undefined {
  const route = routeSpecFor(result.route) ? result.route : driver?.routes.find((r) => routeSpecFor(r) !== undefined);
  return route === undefined ? undefined : decoderFor(route).decode(result.envelope).status;
}

/**
 * Read a probe result as a startup observation (rules in the module comment). Whether the CLI
 * refused at startup, and its words, come from its route decoder's status (`startup-rejected`, the
 * CLI's rules written once in src/routes/<cli>/decoder.ts), never from reading stderr here. Pure;
 * never throws.
 */
export function classifyStartup(result: ProbeResult, driver?: ProbeDriver): StartupObservation {
  const { envelope } = result;
  const base = { exitCode: envelope.exitCode, requests: result.requests.length, elapsedMs: envelope.elapsedMs };
  if (result.fault !== undefined) return { ...base, outcome: 'fault', stage: null, message: clean(result.fault) };
  const status = decodedStatus(result, driver);
  if (status?.kind === 'startup-rejected' && result.requests.length === 0) {
    return { ...base, outcome: 'rejected', stage: 'startup', message: clean(status.message ?? `exit ${String(envelope.exitCode)} before any request`) };
  }
  if (result.requests.length === 0) {
    if (envelope.timedOut) return { ...base, outcome: 'fault', stage: null, message: 'timed out before any request reached the mock' };
    const first = `${envelope.stderr}\n${envelope.stdout}`.split(/\r?\n/).map((l) => stripVTControlCharacters(l).trim()).find((l) => l !== '');
    return { ...base, outcome: 'rejected', stage: 'startup', message: clean(first ?? `exit ${String(envelope.exitCode)} before any request`) };
  }
  const refusal = providerRefusal(envelope.stdout, envelope.stderr);
  if (refusal !== null) return { ...base, outcome: 'rejected', stage: 'provider', message: refusal };
  // A live startup probe (`--live --startup`) is reaped at the provider's first 2xx answer; a run
  // that ended without one (a timeout, a 401, an error the refusal patterns do not know) says
  // nothing about the schema.
  if (result.live?.firstResponse === false) {
    const first = `${envelope.stderr}\n${envelope.stdout}`.split(/\r?\n/).map((l) => stripVTControlCharacters(l).trim()).find((l) => l !== '');
    return { ...base, outcome: 'fault', stage: null, message: clean(envelope.timedOut ? 'timed out before the provider answered a model call' : `the provider answered no model call with 2xx: ${first ?? `exit ${String(envelope.exitCode)}`}`) };
  }
  return { ...base, outcome: 'accepted', stage: null, message: null };
}

/**
 * What a lint profile predicts for a schema: `rejected` when it has an error finding, `accepted`
 * when it has no finding at all, else `unknown`; `because` lists the findings that decided it as
 * `<profile>/<rule> at <pointer>` (errors for `rejected`, warnings for `unknown`).
 *
 * @throws {UnknownProfileError} for an unknown profile name.
 * @example
 * lintExpectation({ type: 'object', _meta: {} }, 'claude-code')
 * // { expected: 'rejected', because: ['claude-code/unknown-keyword at /_meta'] }
 */
export function lintExpectation(schema: unknown, profile: string): { expected: StartupExpectation; because: string[] } {
  const findings = lintSchema(schema, { profiles: [profile] });
  const errors = findings.filter((f) => f.severity === 'error');
  const decisive = errors.length > 0 ? errors : findings;
  const because = decisive.map((f) => `${f.profile}/${f.rule} at ${keywordPointer(f.pointer, f.keyword)}`);
  return { expected: errors.length > 0 ? 'rejected' : findings.length > 0 ? 'unknown' : 'accepted', because };
}

/**
 * One CLI column: the driver, the CLI as discovered, and its lint profile (`null`: none models it,
 * so every cell's expectation is `unknown`).
 */
export interface StartupTarget {
  driver: ProbeDriver;
  cli: DiscoveredCli;
  profile: string | null;
}

/**
 * One row to probe.
 *
 * - `id`: stable (`production:pov.schema.json`, `canary:_meta@root`, `format:text:baseline`);
 * - `kind`, `label` (how tables name the row), `keyword` and `pointer` (where it sits; `''` for a
 *   whole schema / the root);
 * - `schema`: sent verbatim; `payload`: what the mock model answers (valid for `schema`);
 * - `format`: for `output-format` rows, the format every cell runs (`text`, `json`, ...); cells only
 *   for CLIs with a route of that format. Other rows run each CLI's first route.
 * - `listedProfiles`: production rows: the profiles `schemas/contracts/profiles.json` sends it to.
 */
export interface StartupSubject {
  id: string;
  kind: StartupRowKind;
  label: string;
  keyword: string;
  pointer: string;
  schema: Record<string, unknown>;
  payload: JsonObject;
  format?: string;
  listedProfiles?: readonly string[];
}

/**
 * Options of {@link runStartupTable}.
 *
 * - `targets`: the CLI columns (installed or not; uninstalled ones get no cells);
 * - `subjects`: the rows;
 * - `timeoutMs`: deadline of one probe; @default {@link DEFAULT_PROBE_TIMEOUT_MS}
 * - `concurrency`: probes at once; @default the number of cores;
 * - `pool`: the run's shared {@link ProbeRunPool} (`routecert run`: the scenario probes' pool), which
 *   then bounds the probes instead of `concurrency`, and starts a run another caller already asked
 *   for only once;
 * - `onCell`: called as each cell is known (completion order).
 */
export interface StartupTableOptions {
  targets: readonly StartupTarget[];
  subjects: readonly StartupSubject[];
  timeoutMs?: Milliseconds;
  concurrency?: number;
  pool?: ProbeRunPool;
  onCell?: (row: StartupSubject, cell: StartupCell) => void | Promise<void>;
  /** Told the number of cells before any probe starts (for progress). */
  onPlanned?: (cells: number) => void;
}

function routeFor(target: StartupTarget, subject: StartupSubject): string | undefined {
  const routes = startupRoutes(target.driver);
  if (subject.format === undefined) return routes[0];
  return routes.find((r) => routeFormat(r) === subject.format);
}

/** Counts for a list of rows. */
export function summariseStartup(rows: readonly StartupRow[]): StartupSummary {
  const cells = rows.flatMap((r) => r.cells);
  return {
    cells: cells.length,
    accepted: cells.filter((c) => c.outcome === 'accepted').length,
    rejected: cells.filter((c) => c.outcome === 'rejected').length,
    faults: cells.filter((c) => c.outcome === 'fault').length,
    disagreements: cells.filter((c) => c.agrees === false).length,
    listedRejected: cells.filter((c) => c.listed === true && c.outcome === 'rejected').length,
  };
}

/**
 * Probe every subject on every installed target and build the table. Runs that are identical (same
 * CLI, route, schema and payload, e.g. a canary and the same canary in its format row; with a shared
 * `pool`, also a scenario probe of the same run) run once.
 * Rows and cells come out in subject and target order whatever order the probes finish in.
 * Never throws for anything a CLI does (a probe that cannot run is a `fault` cell).
 *
 * @example
 * const table = await runStartupTable({ targets: [{ driver: claudeDriver, cli, profile: 'claude-code' }], subjects });
 * table.rows.find((r) => r.id === 'canary:_meta@root')?.cells[0]?.outcome // => 'rejected'
 */
export async function runStartupTable(options: StartupTableOptions): Promise<StartupTable> {
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  const installed = options.targets.filter((t) => t.cli.bin !== null);
  const pool = options.pool ?? new ProbeRunPool(options.concurrency ?? availableParallelism());
  const observe = async (target: StartupTarget, route: string, subject: StartupSubject): Promise<StartupObservation> => {
    const probe: ProbeOptions = {
      cli: target.cli,
      driver: target.driver,
      route,
      scenario: 'final',
      schema: subject.schema,
      payloads: { final: subject.payload, placeholder: subject.payload },
      timeoutMs,
    };
    return classifyStartup(await pool.run(probeRunKey(probe), target.driver.cli, () => runProbe(probe)), target.driver);
  };

  const jobs: { row: number; col: number; target: StartupTarget; route: string; subject: StartupSubject }[] = [];
  options.subjects.forEach((subject, row) => {
    installed.forEach((target, col) => {
      const route = routeFor(target, subject);
      if (route !== undefined) jobs.push({ row, col, target, route, subject });
    });
  });
  options.onPlanned?.(jobs.length);
  const cells = new Map<string, StartupCell>();
  // Every cell asks at once: the pool bounds the CLIs running and runs each identical probe once.
  await Promise.all(jobs.map(async (job) => {
    const observation = await observe(job.target, job.route, job.subject);
    const { target, subject } = job;
    const expectation = target.profile === null ? { expected: 'unknown' as const, because: [] } : lintExpectation(subject.schema, target.profile);
    const agrees = observation.outcome === 'fault' || expectation.expected === 'unknown' ? null : observation.outcome === expectation.expected;
    const cell: StartupCell = {
      cli: target.driver.cli,
      version: target.cli.version,
      route: job.route,
      profile: target.profile,
      ...observation,
      ...expectation,
      agrees,
      ...(subject.listedProfiles === undefined ? {} : { listed: target.profile !== null && subject.listedProfiles.includes(target.profile) }),
    };
    cells.set(`${job.row}:${job.col}`, cell);
    await options.onCell?.(subject, cell);
  }));

  const rows: StartupRow[] = options.subjects.map((s, row) => ({
    id: s.id,
    kind: s.kind,
    label: s.label,
    keyword: s.keyword,
    pointer: s.pointer,
    format: s.format ?? null,
    cells: installed.map((_, col) => cells.get(`${row}:${col}`)).filter((c): c is StartupCell => c !== undefined),
  }));
  const columns: StartupColumn[] = options.targets.map((t) => ({
    cli: t.driver.cli,
    version: t.cli.version,
    installed: t.cli.bin !== null,
    profile: t.profile,
    routes: startupRoutes(t.driver),
    note: t.cli.bin === null ? `not installed; its startup probes are skipped. To install: ${t.cli.installHint}` : `probed through ${t.cli.source ?? '?'} install`,
  }));
  return { columns, rows, summary: summariseStartup(rows), durationMs: Math.round(performance.now() - started) };
}
