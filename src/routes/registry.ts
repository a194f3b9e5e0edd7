/**
 * The ordered list of route decoders. A test or a user overrides a route by prepending its own
 * decoder (`withDecoders([mine])`), as msw's `server.use()` puts overrides first.
 */
import { genericRouteDecoder } from './generic/decoder.ts';
import { routeDecoders } from './index.ts';
import type { RouteDecoder } from '#src/envelope/types.ts';

/** Raised for a route no decoder knows; `code` is stable, the message lists the known routes. */
export class UnknownRouteError extends Error {
  readonly code = 'ROUTECERT_UNKNOWN_ROUTE';
  constructor(route: string, known: readonly string[]) {
    super(`[routecert] unknown route "${route}". Known routes: ${known.join(', ')}.`);
    this.name = 'UnknownRouteError';
  }
}

/** The decoders routecert ships, one per route, in route definition order (src/routes/index.ts). */
export function defaultDecoders(): RouteDecoder[] {
  return routeDecoders();
}

/** `extra` first, then the defaults: the first decoder whose route matches wins. */
export function withDecoders(extra: RouteDecoder[], base: RouteDecoder[] = defaultDecoders()): RouteDecoder[] {
  return [...extra, ...base];
}

/**
 * The decoder for `route`. A route no decoder has that reads `generic:<spec>` gets a generic decoder
 * configured by the spec (src/routes/generic/decoder.ts `parseGenericSpec`), e.g.
 * `generic:event=type=result;pointer=/answer`.
 *
 * @throws {UnknownRouteError} when no decoder has that route and it is not `generic:<spec>`.
 * @throws {GenericSpecError} when it is `generic:<spec>` and the spec does not parse.
 */
export function decoderFor(route: string, decoders: RouteDecoder[] = defaultDecoders()): RouteDecoder {
  const found = decoders.find((d) => d.route === route) ?? genericRouteDecoder(route);
  if (!found) throw new UnknownRouteError(route, [...new Set(decoders.map((d) => d.route))]);
  return found;
}
