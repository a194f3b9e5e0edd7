/**
 * What certification needs to know of a route, read from its route definition
 * (src/routes/<cli>/route.ts, `defineRoute`): which CLI stands behind it (the fake installed under
 * that name replays the cases), whether its output streams (idle detection applies), how the schema
 * reaches the CLI, how its output format is asked for, which flags it must never get (each with its
 * source) and which side files it writes. No fact lives here: a new CLI states them in its folder,
 * and `defineRoute` refuses one without forbidden flags or an output format, so no check can be
 * skipped silently.
 */
import type { ForbiddenFlag, OutputFormatArg, SchemaFlagSpec, SideFileSpec } from '#src/routes/define.ts';
import { routeIds, routeSpecFor } from '#src/routes/index.ts';

/**
 * A route as certification sees it.
 * - `cli`: the executable's name (`claude`, `grok`, `cursor-agent`, ...);
 * - `streams`: stdout grows while the model works (stream-json, JSONL): idle detection applies;
 * - `schemaFlag`: the flag whose value is the schema as ONE argv token of JSON text, or `null`
 *   when the route passes no JSON token on the command line (the one-token check is then skipped);
 * - `schema`: how the schema reaches the CLI (`--json-schema` JSON, `--output-schema` file), or
 *   `null` when it goes into the prompt;
 * - `outputFormat`: the flag spellings and value that select the route's output format
 *   (`--output-format stream-json`, Codex's bare `--json`), or `{ none }` with why there is none;
 * - `forbiddenFlags`: the CLI's own permission-lifting flags, each with its source;
 * - `sideFiles`: side files the CLI writes where a flag says (codex `-o`: `last-message`).
 */
export interface CertifyRoute {
  route: string;
  cli: string;
  streams: boolean;
  schemaFlag: string | null;
  schema: SchemaFlagSpec | null;
  outputFormat: OutputFormatArg;
  forbiddenFlags: readonly ForbiddenFlag[];
  sideFiles: readonly SideFileSpec[];
}

/** The routes a worker can be certified on: those of a CLI routecert can fake (its route definition names a binary). */
export function certifiableRoutes(): string[] {
  return routeIds().filter((r) => routeSpecFor(r)?.definition.bin);
}

/** Raised for a route no known CLI serves; the message lists the known routes. */
export class UnknownCertifyRouteError extends Error {
  readonly code = 'ROUTECERT_UNKNOWN_ROUTE';
  constructor(route: string) {
    super(`[routecert] unknown route "${route}". Known routes: ${certifiableRoutes().join(', ')}.`);
    this.name = 'UnknownCertifyRouteError';
  }
}

/**
 * The certification facts of `route`, from its route definition.
 *
 * @throws {UnknownCertifyRouteError} when no known CLI has that route.
 */
export function certifyRoute(route: string): CertifyRoute {
  const found = routeSpecFor(route);
  const bin = found?.definition.bin;
  if (!found || !bin) throw new UnknownCertifyRouteError(route);
  const { definition, format } = found;
  return {
    route,
    cli: bin,
    streams: format.streams,
    schemaFlag: definition.schema?.value === 'json' ? definition.schema.flag : null,
    schema: definition.schema,
    outputFormat: format.outputFormat,
    forbiddenFlags: definition.forbiddenFlags,
    sideFiles: definition.sideFiles ?? [],
  };
}

/**
 * The fake CLI's plan entry facts of a route (src/harness/shim/plan.ts): where it writes each side
 * file (`sideFiles`: role -> flags) and which argv files it records (`argFiles`: the schema FILE flag).
 */
export function shimFactsOf(route: CertifyRoute): { sideFiles?: Record<string, string[]>; argFiles?: string[] } {
  const sideFiles = Object.fromEntries(route.sideFiles.map((s) => [s.role, [...s.flags]]));
  return {
    ...(route.sideFiles.length > 0 ? { sideFiles } : {}),
    ...(route.schema?.value === 'file' ? { argFiles: [route.schema.flag] } : {}),
  };
}
