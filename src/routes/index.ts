/**
 * Every route definition routecert ships (one `src/routes/<cli>/route.ts` each, made with
 * `defineRoute()`), and the registries derived from them: decoders, probe drivers, known CLIs
 * (`probe --list`), lint profiles, startup-only routes, certification's route facts and the
 * README's route table. Nothing else lists CLIs or routes. Add a CLI by adding its folder
 * (`src/routes/<cli>/route.ts` exporting its `defineRoute()` result) and its cases: a folder not in
 * the shipped list below is found and loaded at start-up ({@link ROUTE_DEFINITIONS}), as are the
 * folders under each directory named in `ROUTECERT_ROUTE_DIRS` (a team's own CLI, a test fixture).
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { RouteDecoder } from '#src/envelope/types.ts';
import type { ProbeDriver } from '#src/routes/driver.ts';
import { isRouteDefinition, type RouteDefinition, type RouteFormatSpec } from '#src/routes/define.ts';
import { ampRoute } from './amp/route.ts';
import { claudeRoute } from './claude/route.ts';
import { codexRoute } from './codex/route.ts';
import { copilotRoute } from './copilot/route.ts';
import { cursorAgentRoute } from './cursor-agent/route.ts';
import { geminiRoute } from './gemini/route.ts';
import { genericRoute } from './generic/route.ts';
import { grokCliRoute } from './grok-cli/route.ts';
import { grokRoute } from './grok/route.ts';
import { opencodeRoute } from './opencode/route.ts';
import { piRoute } from './pi/route.ts';
import { qwenRoute } from './qwen/route.ts';

/** The shipped definitions, in the order lists print them: the CLIs probed here first, then those with documented cases only. */
const SHIPPED: readonly RouteDefinition[] = [
  claudeRoute,
  codexRoute,
  qwenRoute,
  geminiRoute,
  opencodeRoute,
  copilotRoute,
  piRoute,
  grokCliRoute,
  grokRoute,
  cursorAgentRoute,
  ampRoute,
];

/** Environment variable: more directories of route folders (`<dir>/<cli>/route.ts`), separated by the path delimiter. */
export const ROUTE_DIRS_ENV = 'ROUTECERT_ROUTE_DIRS';

/**
 * The definitions of the route folders that are not shipped: every `<dir>/<cli>/route.ts` (or
 * `route.js` in the build) under this folder and under each directory of {@link ROUTE_DIRS_ENV},
 * each module's exported `defineRoute()` results, sorted by CLI name. A folder whose CLI name is
 * already taken is left out (the shipped one wins).
 *
 * @throws {Error} when a route module fails to load (its error, with the file).
 */
async function discoveredDefinitions(taken: ReadonlySet<string>): Promise<RouteDefinition[]> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const file = import.meta.url.endsWith('.ts') ? 'route.ts' : 'route.js';
  const dirs = [here, ...(process.env[ROUTE_DIRS_ENV] ?? '').split(path.delimiter).filter((d) => d !== '').map((d) => path.resolve(d))];
  const found: RouteDefinition[] = [];
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const module = path.join(dir, entry.name, file);
      if (!entry.isDirectory() || (dir === here && taken.has(entry.name)) || !existsSync(module)) continue;
      let loaded: Record<string, unknown>;
      try {
        loaded = (await import(pathToFileURL(module).href)) as Record<string, unknown>;
      } catch (error) {
        throw new Error(`[routecert] route folder ${module}: ${(error as Error).message}`, { cause: error });
      }
      for (const value of Object.values(loaded)) {
        if (isRouteDefinition(value) && !taken.has(value.cli) && !found.some((d) => d.cli === value.cli)) found.push(value);
      }
    }
  }
  return found.sort((a, b) => a.cli.localeCompare(b.cli));
}

/**
 * Every route definition, in the order `routecert probe --list`, the probe runs and the README
 * list them: the shipped CLIs (probed here first, then documented only), then the discovered
 * folders, then `generic`.
 */
export const ROUTE_DEFINITIONS: readonly RouteDefinition[] = [
  ...SHIPPED,
  ...(await discoveredDefinitions(new Set([...SHIPPED.map((d) => d.cli), genericRoute.cli]))),
  genericRoute,
];

/** The definition whose CLI is `cli` (its routecert name, e.g. `claude`), or `undefined`. */
export function definitionFor(cli: string): RouteDefinition | undefined {
  return ROUTE_DEFINITIONS.find((d) => d.cli === cli);
}

/** The definition and the format entry of route `route` (e.g. `codex/jsonl`), or `undefined`. */
export function routeSpecFor(route: string): { definition: RouteDefinition; format: RouteFormatSpec } | undefined {
  for (const definition of ROUTE_DEFINITIONS) {
    const format = definition.routes.find((r) => r.route === route);
    if (format) return { definition, format };
  }
  return undefined;
}

/** Every route id, in definition order. */
export function routeIds(): string[] {
  return ROUTE_DEFINITIONS.flatMap((d) => d.routes.map((r) => r.route));
}

/** A fresh decoder for every route, in definition order (src/routes/registry.ts `defaultDecoders`). */
export function routeDecoders(): RouteDecoder[] {
  return ROUTE_DEFINITIONS.flatMap((d) => d.routes.map((r) => r.decoder()));
}

/** The probe driver of every CLI that runs here, in definition order. */
export const ROUTE_DRIVERS: readonly ProbeDriver[] = ROUTE_DEFINITIONS.flatMap((d) => (d.driver ? [d.driver] : []));

/**
 * One CLI as `routecert probe --list` shows it (src/probe/known.ts `KNOWN_CLIS`).
 * `hermetic`: `yes` (probed here against a provider mock) or `no` (documented cases only).
 */
export interface KnownCli {
  name: string;
  bin: string;
  npmPackage: string | null;
  routes: string[];
  hermetic: 'yes' | 'no';
  note: string;
}

/** Every CLI (definitions with a binary; not `generic`), as `probe --list` prints them. */
export const ROUTE_KNOWN_CLIS: readonly KnownCli[] = ROUTE_DEFINITIONS.flatMap((d) =>
  d.bin === null
    ? []
    : [{ name: d.cli, bin: d.bin, npmPackage: d.npmPackage, routes: d.routes.map((r) => r.route), hermetic: d.probe ? ('yes' as const) : ('no' as const), note: d.probe?.mock ?? d.note ?? '' }],
);

/** The lint profile (src/schema/profiles.ts) that models each CLI's schema flag, by CLI name. */
export const ROUTE_LINT_PROFILES: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(ROUTE_DEFINITIONS.flatMap((d) => (d.probe?.lintProfile ? [[d.cli, d.probe.lintProfile]] : []))),
);

/** Routes a driver runs for startup probes only (no decoder reads them), by CLI name. */
export const ROUTE_STARTUP_ONLY: Readonly<Record<string, readonly string[]>> = Object.freeze(
  Object.fromEntries(ROUTE_DEFINITIONS.flatMap((d) => (d.probe?.startupOnlyRoutes?.length ? [[d.cli, d.probe.startupOnlyRoutes]] : []))),
);

/** Markers around the generated table in README.md (`npm run readme:routes` rewrites what is between). */
export const README_ROUTES_BEGIN = '<!-- routes:begin (generated by `npm run readme:routes` from src/routes/<cli>/route.ts; do not edit) -->';
export const README_ROUTES_END = '<!-- routes:end -->';

function code(s: string): string {
  return `\`${s}\``;
}

/**
 * The README's route table (markdown, one row per definition, ending in a newline): routes (and the
 * startup-only routes a `--route` may name), CLI and
 * npm package, schema flag, where the answer lands, where the cases come from, the CLI version.
 */
export function routesTableMarkdown(definitions: readonly RouteDefinition[] = ROUTE_DEFINITIONS): string {
  const rows = [
    '| route | CLI (npm package) | schema | answer lands in | cases from | CLI version |',
    '|---|---|---|---|---|---|',
  ];
  for (const d of definitions) {
    const startupOnly = d.probe?.startupOnlyRoutes ?? [];
    // A startup-only route is a `--route` value too (its startup column), so the table names it.
    const routes = `${d.routes.map((r) => code(r.route)).join(', ')}${startupOnly.length > 0 ? ` (startup probes only: ${startupOnly.map(code).join(', ')})` : ''}`;
    const cli = d.bin === null ? '-' : `${d.title} (${d.npmPackage ? code(d.npmPackage) : 'not on npm'})`;
    const schema = d.bin === null ? '-' : d.schema === null ? 'in the prompt' : `${code(d.schema.flag)} ${d.schema.value === 'json' ? '(JSON, one token)' : '(file)'}`;
    const version = d.versions === null ? '-' : d.versions.reports ? `${d.versions.recorded} (reports ${d.versions.reports})` : d.versions.recorded;
    rows.push(`| ${routes} | ${cli} | ${schema} | ${d.answer} | ${d.casesFrom} | ${version} |`);
  }
  return `${rows.join('\n')}\n`;
}

/**
 * `readme` with the text between {@link README_ROUTES_BEGIN} and {@link README_ROUTES_END}
 * replaced by {@link routesTableMarkdown}.
 *
 * @throws {Error} when either marker is missing or they are out of order.
 */
export function withRoutesTable(readme: string, table: string = routesTableMarkdown()): string {
  const begin = readme.indexOf(README_ROUTES_BEGIN);
  const end = readme.indexOf(README_ROUTES_END);
  if (begin === -1 || end === -1 || end < begin) {
    throw new Error(`[routecert] README.md has no route table markers (${README_ROUTES_BEGIN} ... ${README_ROUTES_END})`);
  }
  return `${readme.slice(0, begin + README_ROUTES_BEGIN.length)}\n${table}${readme.slice(end)}`;
}

export { defineRoute, FRAMINGS, RouteDefinitionError } from '#src/routes/define.ts';
export type {
  Framing,
  ProbeHooks,
  ProbeSpec,
  RouteDefinition,
  RouteFormatSpec,
  RouteSpec,
  SchemaFlagSpec,
  VersionSpec,
} from '#src/routes/define.ts';
