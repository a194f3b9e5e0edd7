/**
 * The startup table of `routecert run` (the `startupProbes` section of report.json and a table in
 * summary.md) and of `routecert probe --startup-table`: every installed CLI whose driver takes a
 * schema flag, probed with
 *
 * 1. every production schema in `schemas/contracts/` (`production` rows). Each schema goes to EVERY
 *    schema-flag CLI, not only to those `profiles.json` lists: the table then shows both that the
 *    listed routes work (a listed schema that is rejected is a broken production route, `listed:
 *    true` in its cell) and which CLIs refuse the others, and with what message. Each cell also
 *    carries what the CLI's lint profile predicts;
 * 2. the canaries of src/probe/canaries.ts (`baseline`, `custom-keyword`, `standard-annotation`,
 *    `draft-keyword` rows), each group apart, so a vocabulary failure is never read as a field-name bug;
 * 3. the canary baseline and the `_meta` root canary under each output format the CLI has
 *    (`output-format` rows; Claude Code: text, json, stream-json), to show whether the format
 *    changes validation.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { projectPath } from '#src/paths.ts';
import { CANARY_PAYLOAD, canarySchemas } from '#src/probe/canaries.ts';
import { resolveCli } from '#src/probe/discover.ts';
import type { ProbeDriver } from '#src/probe/driver.ts';
import type { ProbeRunPool } from '#src/probe/pool.ts';
import { PROBE_DRIVERS } from '#src/probe/drivers.ts';
import {
  LINT_PROFILE_BY_CLI,
  routeFormat,
  runStartupTable,
  startupRoutes,
  type StartupCell,
  type StartupSubject,
  type StartupTable,
  type StartupTarget,
} from '#src/probe/startup.ts';
import type { RunFault } from '#src/report/types.ts';
import { loadProfileManifest } from '#src/schema/manifest.ts';
import type { LiveSource } from './run.ts';
import type { CaseFilter } from './runCorpus.ts';
import { inShard } from './shard.ts';
import { samplePayload } from '#src/probe/samplePayload.ts';
import { compileValidator } from '#src/contract/validator.ts';
import { DEFAULT_FINAL_PAYLOAD, type JsonObject } from '#src/mock/scenarios.ts';

export { samplePayload };

/** The canaries that stand for "accepted" and "rejected" in the output-format rows. */
export const FORMAT_CANARIES: readonly string[] = ['baseline', '_meta@root'];

/**
 * The payload the mock answers a production row with: the scenario probes' own final payload when it
 * is valid for `schema` (the bundled pov schemas), so the startup probe of that schema on a CLI's
 * first route is the same run as the scenario probe `final` and starts once (issue 24, "identical
 * start-ups run once"; src/probe/pool.ts); else a payload generated for the schema.
 */
async function productionPayload(schema: Record<string, unknown>): Promise<JsonObject> {
  let fits = false;
  try {
    fits = compileValidator(schema)(DEFAULT_FINAL_PAYLOAD).length === 0;
  } catch {
    // a schema that does not compile: the generator's fallback decides
  }
  return fits ? { ...DEFAULT_FINAL_PAYLOAD } : samplePayload(schema);
}

/**
 * The production rows: every `*.schema.json` in `dir` (sorted), with the profiles its
 * `profiles.json` entry lists (none when the folder has no manifest or no entry).
 *
 * @throws when `dir` cannot be read, a schema is not JSON, or the manifest is malformed (`ManifestError`).
 */
export async function productionSubjects(dir: string = projectPath('schemas/contracts')): Promise<StartupSubject[]> {
  const manifest = await loadProfileManifest(dir);
  const files = (await readdir(dir)).filter((f) => f.endsWith('.schema.json')).sort();
  const out: StartupSubject[] = [];
  for (const file of files) {
    const schema = JSON.parse(await readFile(path.join(dir, file), 'utf8')) as Record<string, unknown>;
    out.push({
      id: `production:${file}`,
      kind: 'production',
      label: file,
      keyword: '',
      pointer: '',
      schema,
      payload: await productionPayload(schema),
      listedProfiles: manifest?.schemas.get(file)?.profiles ?? [],
    });
  }
  return out;
}

/**
 * The production rows of a config: each contract's schema under each output format of `drivers`
 * (`production:<contract>@<format>`), listed for the profiles of the CLIs the contract sends it to
 * (`clis`), so that a rejection by one of those CLIs counts in `summary.listedRejected`.
 */
export async function contractSubjects(
  contracts: readonly { name: string; definition: { schema: Record<string, unknown>; schemaFile: string | null } }[],
  listedProfiles: (contract: { name: string }) => readonly string[],
  drivers: readonly ProbeDriver[] = PROBE_DRIVERS,
): Promise<StartupSubject[]> {
  const formats = [...new Set(schemaFlagDrivers(drivers).flatMap((d) => startupRoutes(d).map(routeFormat)))];
  const out: StartupSubject[] = [];
  for (const contract of contracts) {
    const { schema, schemaFile } = contract.definition;
    const payload = await productionPayload(schema);
    const file = schemaFile ? path.basename(schemaFile) : 'inline schema';
    for (const format of formats) {
      out.push({ id: `production:${contract.name}@${format}`, kind: 'production', label: `${contract.name} (${file}) as ${format}`, keyword: '', pointer: '', schema, payload, format, listedProfiles: listedProfiles(contract) });
    }
  }
  return out;
}

/** The canary rows (src/probe/canaries.ts), baseline first. */
export function canarySubjects(): StartupSubject[] {
  return canarySchemas().map((c) => ({
    id: `canary:${c.id}`,
    kind: c.group,
    label: c.id === 'baseline' ? 'baseline (no extra keyword)' : c.id,
    keyword: c.keyword,
    pointer: c.pointer,
    schema: c.schema,
    payload: { ...CANARY_PAYLOAD },
  }));
}

/**
 * The output-format rows: for each format any of `drivers` has (in driver and route order), the
 * {@link FORMAT_CANARIES} sent under that format.
 */
export function formatSubjects(drivers: readonly ProbeDriver[]): StartupSubject[] {
  const formats = [...new Set(drivers.flatMap((d) => startupRoutes(d).map(routeFormat)))];
  const canaries = canarySchemas().filter((c) => FORMAT_CANARIES.includes(c.id));
  return formats.flatMap((format) =>
    canaries.map((c) => ({
      id: `format:${format}:${c.id}`,
      kind: 'output-format' as const,
      label: `${c.id === 'baseline' ? 'baseline' : c.id} as ${format}`,
      keyword: c.keyword,
      pointer: c.pointer,
      schema: c.schema,
      payload: { ...CANARY_PAYLOAD },
      format,
    })),
  );
}

/** The drivers that take a schema on the command line (`schemaFlag: true`), from `drivers`. */
export function schemaFlagDrivers(drivers: readonly ProbeDriver[] = PROBE_DRIVERS): ProbeDriver[] {
  return drivers.filter((d) => d.schemaFlag);
}

/**
 * Discover each schema-flag driver's CLI (installed or not) as a table column; `bins`: candidate
 * binaries by CLI name (`--bin`; `ROUTECERT_BIN_<CLI>` is read too), as the scenario probes use.
 */
export async function startupTargets(drivers: readonly ProbeDriver[] = PROBE_DRIVERS, bins: Readonly<Record<string, string>> = {}): Promise<StartupTarget[]> {
  return Promise.all(
    schemaFlagDrivers(drivers).map(async (driver) => ({
      driver,
      cli: await resolveCli(driver, bins),
      profile: LINT_PROFILE_BY_CLI[driver.cli] ?? null,
    })),
  );
}

/**
 * Options of {@link buildStartupTable}.
 *
 * - `drivers`: @default `PROBE_DRIVERS` (only those with `schemaFlag: true` are used);
 * - `targets`: already discovered columns (skips discovery);
 * - `schemasDir`: the production schemas; @default the bundled `schemas/contracts`;
 * - `rows`: which row families; @default all three;
 * - `production`: the production rows to use instead of the bundled schemas' (a config's: {@link contractSubjects});
 * - `timeoutMs`, `concurrency`, `pool`, `onCell`: as in `runStartupTable`.
 */
export interface BuildStartupTableOptions {
  drivers?: readonly ProbeDriver[];
  targets?: readonly StartupTarget[];
  schemasDir?: string;
  rows?: readonly ('production' | 'canaries' | 'formats')[];
  production?: readonly StartupSubject[];
  timeoutMs?: number;
  concurrency?: number;
  pool?: ProbeRunPool;
  onCell?: (row: StartupSubject, cell: StartupCell) => void | Promise<void>;
  onPlanned?: (cells: number) => void;
}

/**
 * Discover the schema-flag CLIs and run the whole startup table (see the module comment).
 *
 * @throws when the production schemas or their manifest cannot be read.
 * @example
 * const table = await buildStartupTable();
 * table.rows.find((r) => r.id === 'canary:x-meta@root')?.cells.map((c) => `${c.cli} ${c.version}: ${c.outcome}`)
 * // ['claude 2.1.332: rejected']
 */
export async function buildStartupTable(options: BuildStartupTableOptions = {}): Promise<StartupTable> {
  const targets = options.targets ?? (await startupTargets(options.drivers ?? PROBE_DRIVERS));
  const families = options.rows ?? ['production', 'canaries', 'formats'];
  const installedDrivers = targets.filter((t) => t.cli.bin !== null).map((t) => t.driver);
  const subjects: StartupSubject[] = [
    ...(families.includes('production') ? (options.production ?? (await productionSubjects(options.schemasDir))) : []),
    ...(families.includes('canaries') ? canarySubjects() : []),
    ...(families.includes('formats') ? formatSubjects(installedDrivers) : []),
  ];
  return runStartupTable({
    targets,
    subjects,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    ...(options.pool === undefined ? {} : { pool: options.pool }),
    ...(options.onCell === undefined ? {} : { onCell: options.onCell }),
    ...(options.onPlanned === undefined ? {} : { onPlanned: options.onPlanned }),
  });
}

/** Does a `--route` filter entry select `driver` (a route, a route family such as `claude-code`, or the CLI name)? */
function routeSelects(entry: string, driver: ProbeDriver): boolean {
  return entry === driver.cli || startupRoutes(driver).some((r) => r === entry || r.startsWith(`${entry}/`));
}

/**
 * The live source of `routecert run` that builds the startup table. It emits no case results: the
 * table goes into the report as its own section (`sections()`, after `run`). A cell that could not
 * be carried out is a `probe` run fault (exit 3); rejections and disagreements with the lint are in
 * the table and do not change the exit code.
 *
 * Filters: `--case` or `--contract` select corpus cases, so the table is skipped; `--tag` runs it
 * only when one tag is `startup`; `--route` keeps the CLIs it names.
 */
export function startupProbeSource(options: {
  timeoutMs: number;
  concurrency?: number;
  /** The run's shared pool of CLI runs (with the scenario probes'); @default a pool of its own, `concurrency` runs at once. */
  pool?: ProbeRunPool;
  drivers?: readonly ProbeDriver[];
  production?: readonly StartupSubject[];
  /**
   * Which row families to probe; @default all three. A team's run passes `['production']`: its
   * schemas only, never the keyword canaries of the lint/probe agreement (those are routecert's own
   * test of its lint profiles: `routecert probe --startup-table`, and the project's probes suite).
   */
  rows?: BuildStartupTableOptions['rows'];
  /**
   * Emit a failing case for each production cell rejected by a CLI the schema is sent to (a team's
   * run: their schema refused by their CLI is a conformance failure, exit 1); @default false.
   */
  failListed?: boolean;
  /** The replay command printed with such a failing case; @default `npx routecert probe --startup-table`. */
  replay?: string;
  /** Candidate binaries by CLI name (`--bin`), as {@link startupTargets} takes them. */
  bins?: Readonly<Record<string, string>>;
}): LiveSource {
  let table: StartupTable | undefined;
  return {
    async clis() {
      return [];
    },
    async run(emit, filter: CaseFilter, _planned, activity): Promise<RunFault[]> {
      if (filter.ids?.length || filter.contracts?.length) return [];
      if (filter.tags?.length && !filter.tags.includes('startup')) return [];
      let drivers = schemaFlagDrivers(options.drivers ?? PROBE_DRIVERS);
      if (filter.routes?.length) drivers = drivers.filter((d) => filter.routes!.some((r) => routeSelects(r, d)));
      // One shard builds the whole column of a CLI (keyed `startup:<cli>`).
      drivers = drivers.filter((d) => inShard(`startup:${d.cli}`, filter.shard));
      if (drivers.length === 0) return [];
      // Progress: the table emits no result per cell, so it says how many cells are done.
      let total: number | null = null;
      let done = 0;
      activity?.({ phase: 'startup probes', done, total, running: `finding ${drivers.map((d) => d.cli).join(', ')}` });
      table = await buildStartupTable({
        targets: await startupTargets(drivers, options.bins ?? {}),
        timeoutMs: options.timeoutMs,
        onPlanned: (cells) => {
          total = cells;
          activity?.({ phase: 'startup probes', done, total });
        },
        onCell: (row, cell) => {
          done += 1;
          activity?.({ phase: 'startup probes', done, total, running: `${cell.cli} ${cell.version ?? '(version unknown)'} ${row.label}` });
        },
        ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
        ...(options.pool === undefined ? {} : { pool: options.pool }),
        ...(options.production === undefined ? {} : { production: options.production }),
        ...(options.rows === undefined ? {} : { rows: options.rows }),
      });
      if (options.failListed) {
        for (const row of table.rows) {
          for (const c of row.cells.filter((x) => x.listed === true && x.outcome === 'rejected')) {
            await emit({
              id: `startup:${row.id.replace(/^production:/, '')}:${c.cli}`,
              file: '',
              description: `startup probe: ${row.label} is sent to ${c.cli}, which rejects it`,
              route: c.route,
              contract: row.id.replace(/^production:/, '').replace(/@[^@]*$/, ''),
              cli: { name: c.cli, version: c.version ?? '?' },
              source: 'probe',
              tags: ['startup'],
              outcome: 'fail',
              expected: { verdict: 'accepted' },
              verdict: null,
              attempts: [],
              problems: [`${c.cli} ${c.version ?? '?'} rejected the schema at startup (${c.stage ?? 'startup'}): ${c.message ?? ''}`],
              caught: 'probe',
              replay: options.replay ?? 'npx routecert probe --startup-table',
              durationMs: 0,
            });
          }
        }
      }
      return table.rows.flatMap((row) =>
        row.cells.filter((c) => c.outcome === 'fault').map((c) => ({ kind: 'probe' as const, message: `startup probe ${row.id} on ${c.cli} ${c.version ?? '?'} (${c.route}): ${c.message ?? 'fault'}` })),
      );
    },
    sections() {
      return table === undefined ? {} : { startupProbes: table };
    },
  };
}
