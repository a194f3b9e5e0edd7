/**
 * What certification needs to know of a route: which CLI stands behind it (the fake installed
 * under that name replays the cases), whether its output streams (idle detection applies), and how
 * the schema reaches the CLI.
 *
 * Facts: the route definitions (src/routes/<cli>/route.ts: binary, `streams`, schema flag);
 * research/ce-plugin.md section 1.2 (buffered `--output-format json` routes are guarded by the
 * hard window only).
 */
import { routeIds, routeSpecFor } from '#src/routes/index.ts';

/**
 * A route as certification sees it.
 * - `cli`: the executable's name (`claude`, `grok`, `cursor-agent`, ...);
 * - `streams`: stdout grows while the model works (stream-json, JSONL): idle detection applies;
 * - `schemaFlag`: the flag whose value is the schema as ONE argv token of JSON text, or `null`
 *   when the route passes no schema on the command line (the one-token check is then skipped).
 */
export interface CertifyRoute {
  route: string;
  cli: string;
  streams: boolean;
  schemaFlag: string | null;
}

/** Raised for a route no known CLI serves; the message lists the known routes. */
export class UnknownCertifyRouteError extends Error {
  readonly code = 'ROUTECERT_UNKNOWN_ROUTE';
  constructor(route: string) {
    super(`[routecert] unknown route "${route}". Known routes: ${routeIds().filter((r) => routeSpecFor(r)?.definition.bin).join(', ')}.`);
    this.name = 'UnknownCertifyRouteError';
  }
}

/**
 * The certification facts of `route`, from its route definition (src/routes/<cli>/route.ts):
 * the binary, `streams`, and the schema flag when it takes the schema as one JSON token
 * (`schema.value === 'json'`).
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
  };
}
