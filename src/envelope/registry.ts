/**
 * The ordered list of route decoders. A test or a user overrides a route by prepending its own
 * decoder (`withDecoders([mine])`), as msw's `server.use()` puts overrides first.
 */
import { claudeDecoder } from './claude.ts';
import { genericDecoder } from './generic.ts';
import type { RouteDecoder } from './types.ts';

/** Raised for a route no decoder knows; `code` is stable, the message lists the known routes. */
export class UnknownRouteError extends Error {
  readonly code = 'ROUTECERT_UNKNOWN_ROUTE';
  constructor(route: string, known: readonly string[]) {
    super(`[routecert] unknown route "${route}". Known routes: ${known.join(', ')}.`);
    this.name = 'UnknownRouteError';
  }
}

/** The decoders routecert ships, one per route. */
export function defaultDecoders(): RouteDecoder[] {
  return [
    claudeDecoder('claude-code/json'),
    claudeDecoder('claude-code/stream-json'),
    genericDecoder('grok/json', { header: 'xAI grok --json-schema (documented)' }),
    genericDecoder('cursor-agent/json', { header: 'cursor-agent json (documented)', terminalType: 'result' }),
    genericDecoder('cursor-agent/stream-json', { header: 'cursor-agent stream-json (documented)', terminalType: 'result' }),
    genericDecoder('generic', { header: 'generic (structured field, result/text/response, or free text)' }),
  ];
}

/** `extra` first, then the defaults: the first decoder whose route matches wins. */
export function withDecoders(extra: RouteDecoder[], base: RouteDecoder[] = defaultDecoders()): RouteDecoder[] {
  return [...extra, ...base];
}

/**
 * The decoder for `route`.
 *
 * @throws {UnknownRouteError} when no decoder has that route.
 */
export function decoderFor(route: string, decoders: RouteDecoder[] = defaultDecoders()): RouteDecoder {
  const found = decoders.find((d) => d.route === route);
  if (!found) throw new UnknownRouteError(route, [...new Set(decoders.map((d) => d.route))]);
  return found;
}
