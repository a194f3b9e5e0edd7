/**
 * The ordered list of route decoders. A test or a user overrides a route by prepending its own
 * decoder (`withDecoders([mine])`), as msw's `server.use()` puts overrides first.
 */
import { claudeDecoder } from '#src/routes/claude/decoder.ts';
import { codexDecoder } from '#src/routes/codex/decoder.ts';
import { genericDecoder, genericRouteDecoder } from './generic.ts';
import { geminiDecoder } from '#src/routes/gemini/decoder.ts';
import { grokCliDecoder } from '#src/routes/grok-cli/decoder.ts';
import { qwenDecoder } from '#src/routes/qwen/decoder.ts';
import { opencodeDecoder } from '#src/routes/opencode/decoder.ts';
import { copilotDecoder } from '#src/routes/copilot/decoder.ts';
import { piDecoder } from '#src/routes/pi/decoder.ts';
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
    codexDecoder(),
    geminiDecoder('gemini-cli/json'),
    geminiDecoder('gemini-cli/stream-json'),
    grokCliDecoder(),
    qwenDecoder('qwen-code/json'),
    qwenDecoder('qwen-code/stream-json'),
    opencodeDecoder(),
    copilotDecoder(),
    piDecoder(),
    genericDecoder('grok/json', { header: 'xAI grok --json-schema (documented)' }),
    // xAI grok streaming-json: the final `end` line carries structuredOutput / structuredOutputError; `error` lines end a failed run.
    genericDecoder('grok/streaming-json', { header: 'xAI grok streaming-json (documented)', terminalType: ['end', 'error'] }),
    // xAI grok streaming-messages-json: a Claude Code stream-json clone (result.structured_output).
    genericDecoder('grok/streaming-messages-json', { header: 'xAI grok streaming-messages-json (documented)', terminalType: 'result', assistantEvents: true }),
    genericDecoder('cursor-agent/json', { header: 'cursor-agent json (documented)', terminalType: 'result' }),
    genericDecoder('cursor-agent/stream-json', { header: 'cursor-agent stream-json (documented)', terminalType: 'result', assistantEvents: true }),
    // Amp --stream-json: Claude Code-compatible stream JSON, no schema flag (answer in result / assistant text).
    genericDecoder('amp/stream-json', { header: 'Amp stream-json (documented)', terminalType: 'result', assistantEvents: true }),
    genericDecoder('generic', { header: 'generic (structured field, result/text/response, or free text)', freeText: true }),
  ];
}

/** `extra` first, then the defaults: the first decoder whose route matches wins. */
export function withDecoders(extra: RouteDecoder[], base: RouteDecoder[] = defaultDecoders()): RouteDecoder[] {
  return [...extra, ...base];
}

/**
 * The decoder for `route`. A route no decoder has that reads `generic:<spec>` gets a generic decoder
 * configured by the spec (src/envelope/generic.ts `parseGenericSpec`), e.g.
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
