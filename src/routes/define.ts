/**
 * `defineRoute()`: every fact routecert knows about one model CLI, declared once, in its folder
 * `src/routes/<cli>/route.ts`. The registries (decoders, probe drivers, probe plans, `probe --list`,
 * certification's route facts, lint profiles, the README's route table) are derived from these
 * definitions by src/routes/index.ts; src/routes/routes.test.ts fails when a definition's facts
 * disagree with each other, with the corpus or with probes/package.json.
 *
 * Adding a CLI: a folder `src/routes/<cli>/` with `route.ts` exporting its definition (and
 * `decoder.ts`, `probe.ts`, `plan.ts` as it needs; src/routes/index.ts loads a folder it does not
 * list), cases under `fixtures/cases/<route>/`, then `npm run readme:routes`.
 */
import type { PlannedProbe } from '#src/routes/plan.ts';
import type { ProbeDriver } from '#src/routes/driver.ts';
import type { RouteDecoder } from '#src/envelope/types.ts';
import { startupRejectionLine } from './rejection.ts';

/**
 * How one output format lays JSON out on stdout:
 * - `json-document`: one JSON object (`--output-format json`);
 * - `json-array`: one JSON array of events (Qwen Code `--output-format json`);
 * - `jsonl`: one JSON value per line (JSONL/NDJSON events; stream-json).
 */
export type Framing = 'json-document' | 'json-array' | 'jsonl';

/** Every {@link Framing}, in the order tables print them. */
export const FRAMINGS: readonly Framing[] = ['json-document', 'json-array', 'jsonl'];

/**
 * How a route's output format is asked for on the command line (certification's `output-format`
 * check reads every call's argv with it):
 * - `flags`: the spellings of the flag (`--output-format`, `-o`); `value`: the format it must carry
 *   (`stream-json`), or `null` for a bare flag (Codex `--json`);
 * - `{ none }`: the route is chosen without a flag of its own, with the reason (xAI grok's
 *   `--json-schema` implies `--output-format json`); the check is then skipped with that reason.
 */
export type OutputFormatArg = { flags: readonly string[]; value: string | null } | { none: string };

/**
 * A flag that lifts a CLI's permission checks or sandbox; certification's `forbidden-flags` check
 * refuses any call that carries it.
 * - `flag`: the flag as the CLI spells it (also matched as `flag=value`);
 * - `value`: when given, only this value of the flag is forbidden (`--permission-mode bypassPermissions`);
 * - `config`: the flag sets a configuration key as `key=value` (Codex `-c sandbox_mode="danger-full-access"`):
 *   only key `config` with value `value` is forbidden, the value read as the CLI reads it (TOML
 *   quotes and surrounding spaces removed);
 * - `source`: where the flag is documented (the CLI's `--help` of a named version, its docs).
 */
export interface ForbiddenFlag {
  flag: string;
  value?: string;
  config?: string;
  source: string;
}

/**
 * A side file a CLI writes where a flag tells it: `role` is its name in an envelope's `files`
 * (`last-message`), `flags` the spellings of the flag whose value is the path (`-o`,
 * `--output-last-message`). Fake CLIs write a replayed attempt's side files there.
 */
export interface SideFileSpec {
  role: string;
  flags: readonly string[];
}

/**
 * One route of a CLI: one way of running it headless, i.e. one output format.
 * - `route`: the route id, `<family>/<format>` (e.g. `claude-code/stream-json`);
 * - `framings`: how stdout is laid out (each needs a case its decoder reads, under
 *   `fixtures/cases/<route>/`); `[]` for a route whose decoder reads any text (`generic`);
 * - `streams`: stdout grows while the model works, so idle detection applies (certification);
 *   buffered routes print everything at the end and are guarded by the hard window only;
 * - `decoder`: builds the route's decoder; its `route` must equal `route`;
 * - `outputFormat`: how the format is asked for on the command line (see {@link OutputFormatArg}).
 */
export interface RouteFormatSpec {
  route: string;
  framings: readonly Framing[];
  streams: boolean;
  outputFormat: OutputFormatArg;
  decoder: () => RouteDecoder;
}

/**
 * How the schema reaches the CLI:
 * - `flag`: the command-line flag (`--json-schema`, `--output-schema`);
 * - `value`: `json` (the schema as ONE argv token of JSON text; certification checks it is one
 *   token) or `file` (a path to a schema file the CLI reads).
 * A CLI without a schema flag has `schema: null`: the schema goes into the prompt
 * (src/routes/schemaPrompt.ts) and the answer is JSON in the model's text.
 */
export interface SchemaFlagSpec {
  flag: string;
  value: 'json' | 'file';
}

/**
 * The CLI versions a definition speaks for.
 * - `recorded`: the version the route's recorded or documented cases come from, as the CLI spells
 *   it (README table); `probes/package.json` pins the same version for a CLI with a probe;
 * - `reports`: what `<bin> --version` prints when it differs from `recorded` (grok-cli 0.0.34 says 1.0.1);
 * - `range`: the versions routecert supports (a semver range), when known.
 */
export interface VersionSpec {
  recorded: string;
  reports?: string;
  range?: string;
}

/** A probe driver without the facts the definition already states (cli, bin, npmPackage, routes, schemaFlag). */
export type ProbeHooks = Pick<ProbeDriver, 'handlers' | 'prepare' | 'rejectionLine' | 'sideRequests' | 'isModelTurn' | 'versions' | 'live'>;

/**
 * The hermetic probe of a CLI that runs here.
 * - `hooks`: the provider mock (`handlers`), argv/env/side files (`prepare`), the CLI's own
 *   startup-rejection line (`rejectionLine`), the side requests it makes, its version table and
 *   live spec (`sideRequests`, `versions`, `live`; src/routes/driver.ts), from the folder's `probe.ts`;
 * - `plan`: the pov probe plan `routecert record` and `routecert run` follow (the folder's `plan.ts`);
 * - `mock`: the provider mock and the redirect, in words (`probe --list`);
 * - `lintProfile`: the lint profile (src/schema/profiles.ts) that models the schema flag, if any;
 * - `startupOnlyRoutes`: routes the driver runs for startup probes only (no decoder reads them).
 */
export interface ProbeSpec {
  hooks: ProbeHooks;
  plan: readonly PlannedProbe[];
  mock: string;
  lintProfile?: string;
  startupOnlyRoutes?: readonly string[];
}

/**
 * What {@link defineRoute} takes.
 * - `cli`: routecert's name for the CLI (`claude`, `grok-cli`), the folder's name; `title`: its
 *   display name (`Claude Code`);
 * - `bin`: the executable's name; `npmPackage`: the npm package, or `null` when not on npm;
 * - `routes`: its routes, in the order reports list them;
 * - `schema`: see {@link SchemaFlagSpec};
 * - `answer`: where the answer lands, in words (README route table);
 * - `versions`: see {@link VersionSpec} (`null` for `generic`, which is no CLI);
 * - `casesFrom`: where its cases come from, in words (README route table);
 * - `probe`: see {@link ProbeSpec}; absent when the CLI cannot run here (documented cases only);
 * - `origins`: candidate origins its decoders give besides the toolkit's named ones, the structured
 *   field and `tool_use:<name>` (src/envelope/keys.ts `isKnownOrigin`); the decoder laws accept them;
 * - `note`: why there is no probe, or anything else `probe --list` should say;
 * - `forbiddenFlags`: the CLI's own flags that lift its permission checks, each with its source
 *   (see {@link ForbiddenFlag}); a CLI with a binary must list at least one, so a new CLI cannot
 *   silently skip the check;
 * - `sideFiles`: side files it writes where a flag says (see {@link SideFileSpec}).
 */
export interface RouteSpec {
  cli: string;
  title: string;
  bin: string | null;
  npmPackage: string | null;
  routes: readonly RouteFormatSpec[];
  schema: SchemaFlagSpec | null;
  answer: string;
  versions: VersionSpec | null;
  casesFrom: string;
  probe?: ProbeSpec;
  origins?: readonly string[];
  note?: string;
  forbiddenFlags: readonly ForbiddenFlag[];
  sideFiles?: readonly SideFileSpec[];
}

/** A defined route: the spec, plus the probe driver built from it (`null` without a probe). */
export interface RouteDefinition extends RouteSpec {
  driver: ProbeDriver | null;
}

/** Raised by {@link defineRoute} for a spec that contradicts itself; `code` is stable. */
export class RouteDefinitionError extends Error {
  readonly code = 'ROUTECERT_ROUTE_DEFINITION';
  constructor(cli: string, problem: string) {
    super(`[routecert] route definition "${cli}" (src/routes/${cli}/route.ts): ${problem}`);
    this.name = 'RouteDefinitionError';
  }
}

/**
 * Declare one CLI. Checks what can be checked without the corpus or the file system (the rest is
 * src/routes/routes.test.ts) and builds the probe driver from the facts and the probe hooks.
 *
 * @example
 * export const piRoute = defineRoute({
 *   cli: 'pi', title: 'pi', bin: 'pi', npmPackage: '@mariozechner/pi-coding-agent', schema: null,
 *   routes: [{ route: 'pi/json', framings: ['jsonl'], streams: true, decoder: piDecoder }],
 *   answer: 'last assistant `message_end`',
 *   versions: { recorded: '0.73.1' }, casesFrom: 'recorded hermetically',
 *   probe: { hooks: piProbe, plan: PI_POV_PLAN, mock: 'Chat Completions mock (SSE)' },
 * });
 *
 * @throws {RouteDefinitionError} when a route id does not start with a family and a `/` (except
 *   `generic`), a route is listed twice, a decoder is built for another route, a probed CLI has no
 *   npm package, binary or recorded version, a startup-only route is also a decoded route, an
 *   output format names no flag, or a CLI with a binary lists no forbidden flag (or one without a source).
 */
export function defineRoute(spec: RouteSpec): RouteDefinition {
  const fail = (problem: string): never => {
    throw new RouteDefinitionError(spec.cli, problem);
  };
  const ids = spec.routes.map((r) => r.route);
  if (ids.length === 0) fail('it lists no routes');
  for (const [i, r] of spec.routes.entries()) {
    if (r.route !== 'generic' && !/^[a-z0-9-]+\/[a-z0-9-]+$/.test(r.route)) fail(`route "${r.route}" is not <family>/<format>`);
    if (ids.indexOf(r.route) !== i) fail(`route "${r.route}" is listed twice`);
    const built = r.decoder().route;
    if (built !== r.route) fail(`the decoder of route "${r.route}" is built for "${built}"`);
    if (new Set(r.framings).size !== r.framings.length) fail(`route "${r.route}" lists a framing twice`);
    if ('flags' in r.outputFormat && r.outputFormat.flags.length === 0) fail(`route "${r.route}" names no output-format flag (use { none: '<why>' })`);
  }
  if (spec.bin !== null && spec.forbiddenFlags.length === 0) fail('a CLI with a binary lists no forbidden flags (the flags that lift its permission checks, each with its source)');
  for (const f of spec.forbiddenFlags) {
    if (f.source.trim() === '') fail(`forbidden flag ${f.flag} has no source`);
    if (f.config !== undefined && f.value === undefined) fail(`forbidden flag ${f.flag} ${f.config}= names a configuration key without the forbidden value`);
  }
  let driver: ProbeDriver | null = null;
  if (spec.probe) {
    const { bin, npmPackage, versions } = spec;
    if (bin === null) return fail('a probed CLI needs `bin`');
    if (npmPackage === null) return fail('a probed CLI needs `npmPackage` (probes/package.json pins it)');
    if (versions === null) return fail('a probed CLI needs `versions.recorded`');
    for (const s of spec.probe.startupOnlyRoutes ?? []) if (ids.includes(s)) fail(`startup-only route "${s}" is also a decoded route`);
    driver = {
      cli: spec.cli,
      bin,
      npmPackage,
      routes: ids,
      schemaFlag: spec.schema !== null,
      handlers: spec.probe.hooks.handlers,
      prepare: spec.probe.hooks.prepare,
      // Without a hook of its own, the CLI's startup-rejection line is what its first route's decoder reads.
      rejectionLine: spec.probe.hooks.rejectionLine ?? ((stderr: string) => startupRejectionLine(spec.routes[0]!.decoder(), stderr)),
      ...(spec.probe.hooks.sideRequests ? { sideRequests: spec.probe.hooks.sideRequests } : {}),
      ...(spec.probe.hooks.isModelTurn ? { isModelTurn: spec.probe.hooks.isModelTurn } : {}),
      // Without a version table of its own, a CLI supports the version its cases were recorded with.
      versions: spec.probe.hooks.versions ?? { min: versions.recorded, source: `the recorded ${spec.title} ${versions.recorded} only (src/routes/${spec.cli}/route.ts); \`npm run probes:matrix\` is the evidence to widen it` },
      ...(spec.probe.hooks.live ? { live: spec.probe.hooks.live } : {}),
    };
  }
  const definition: RouteDefinition = Object.freeze({ ...spec, driver });
  DEFINED.add(definition);
  return definition;
}

const DEFINED = new WeakSet<object>();

/** Whether `value` was made by {@link defineRoute} (how src/routes/index.ts finds a folder's definition). */
export function isRouteDefinition(value: unknown): value is RouteDefinition {
  return typeof value === 'object' && value !== null && DEFINED.has(value);
}

/**
 * The probe driver of a definition that has one.
 *
 * @throws {RouteDefinitionError} when the definition has no probe.
 */
export function driverOf(definition: RouteDefinition): ProbeDriver {
  if (!definition.driver) throw new RouteDefinitionError(definition.cli, 'it has no probe driver');
  return definition.driver;
}
