/**
 * What certification needs to know of a route: which CLI stands behind it (the fake installed
 * under that name replays the cases), whether its output streams (idle detection applies), and how
 * the schema reaches the CLI.
 *
 * Facts: src/probe/known.ts (CLI names and routes), DESIGN.md's table of hermetic probes (schema
 * flags), research/ce-plugin.md section 1.2 (buffered `--output-format json` routes are guarded by
 * the hard window only).
 */
import { KNOWN_CLIS } from '#src/probe/known.ts';

/**
 * A route as certification sees it.
 * - `cli`: the executable's name (`claude`, `grok`, `cursor-agent`, ...);
 * - `streams`: stdout grows while the model works (stream-json, JSONL): idle detection applies;
 * - `schemaFlag`: the flag whose value is the schema as ONE argv token of JSON text, or `null`
 *   when the route passes no schema on the command line (the one-token check is then skipped);
 * - `outputFormat`: the flag and value that select the route's output format (`--output-format
 *   stream-json`), or `null` when routecert does not know how the CLI spells it (the output-format
 *   check is then skipped).
 */
export interface CertifyRoute {
  route: string;
  cli: string;
  streams: boolean;
  schemaFlag: string | null;
  outputFormat: { flag: string; value: string } | null;
}

/** Route families whose CLI takes the schema as JSON text in one argv token. */
const SCHEMA_TOKEN_FLAGS: Readonly<Record<string, string>> = {
  'claude-code': '--json-schema',
  grok: '--json-schema',
  'qwen-code': '--json-schema',
};

/**
 * Route families whose CLI picks its output format with `--output-format <format>`, the format
 * being the route's second part (Claude Code `-p --output-format json|stream-json`; xAI grok
 * `--output-format json`, research/ce-plugin.md section 1.2).
 */
const OUTPUT_FORMAT_FLAGS: Readonly<Record<string, string>> = {
  'claude-code': '--output-format',
  grok: '--output-format',
};

/** Raised for a route no known CLI serves; the message lists the known routes. */
export class UnknownCertifyRouteError extends Error {
  readonly code = 'ROUTECERT_UNKNOWN_ROUTE';
  constructor(route: string) {
    super(`[routecert] unknown route "${route}". Known routes: ${KNOWN_CLIS.flatMap((c) => c.routes).join(', ')}.`);
    this.name = 'UnknownCertifyRouteError';
  }
}

/**
 * The certification facts of `route`.
 *
 * @throws {UnknownCertifyRouteError} when no known CLI has that route.
 */
export function certifyRoute(route: string): CertifyRoute {
  const known = KNOWN_CLIS.find((c) => c.routes.includes(route));
  if (!known) throw new UnknownCertifyRouteError(route);
  const format = route.split('/')[1] ?? '';
  return {
    route,
    cli: known.bin,
    streams: format === 'stream-json' || format === 'jsonl',
    schemaFlag: SCHEMA_TOKEN_FLAGS[route.split('/')[0] ?? ''] ?? null,
    outputFormat: OUTPUT_FORMAT_FLAGS[route.split('/')[0] ?? ''] ? { flag: OUTPUT_FORMAT_FLAGS[route.split('/')[0] ?? '']!, value: format } : null,
  };
}
