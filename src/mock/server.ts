/**
 * A loopback HTTP server that serves msw handlers to child processes (a real CLI pointed at it
 * through its base-URL variable). Thin plumbing over `@mswjs/http-middleware`, as msw's
 * `setupServer` is over its core: the handlers stay data.
 *
 * Binds 127.0.0.1 only, on an ephemeral port.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createServer } from '@mswjs/http-middleware';
import { http, HttpResponse, type RequestHandler } from 'msw';

/** Header values replaced by {@link REDACTED} in recorded requests (lower-case names). */
export const REDACTED_HEADERS: readonly string[] = ['x-api-key', 'x-goog-api-key', 'api-key', 'authorization', 'proxy-authorization', 'cookie'];

/** What a redacted header value reads as. */
export const REDACTED = '<redacted>';

/**
 * One request the loopback server received, as recorded before any handler answered it.
 *
 * - `method`: the HTTP method, upper case.
 * - `path`: the path with its query string (e.g. `/v1/messages?beta=true`).
 * - `headers`: lower-case names; credentials ({@link REDACTED_HEADERS}) read {@link REDACTED}.
 * - `body`: the body parsed as JSON; the raw text when it is not JSON; `null` when empty.
 * - `atMs`: milliseconds since the server started listening.
 */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
  atMs: number;
}

/**
 * A harmless side request a real CLI makes besides its model calls (a connectivity check, a
 * preconnect), answered as the real API answers it, so the CLI goes on as it would in production.
 *
 * - `method`: upper case (`HEAD`, `GET`); `path`: the exact pathname (no query);
 * - `status`: the real API's status; `body`: its JSON body (`undefined`: none);
 * - `source`: where the fact comes from (CLI version and what it does with the answer).
 *
 * @example
 * { method: 'HEAD', path: '/api/hello', status: 200, source: 'Claude Code 2.1.250 preconnect' }
 */
export interface SideRequest {
  method: string;
  path: string;
  status: number;
  body?: unknown;
  source: string;
}

/**
 * Options of {@link startLoopbackServer}.
 *
 * - `host`: the address to bind; only loopback is allowed. @default `'127.0.0.1'`
 * - `port`: @default `0` (ephemeral).
 * - `side`: side requests to answer (see {@link SideRequest}); they are recorded in `side`, not
 *   in `requests`. Anything else no handler answers still gets the 501.
 */
export interface LoopbackServerOptions {
  host?: '127.0.0.1';
  port?: number;
  side?: readonly SideRequest[];
  /** Called with each request as it is recorded (not for side requests' answers). */
  onRequest?: (request: RecordedRequest) => void;
}

/**
 * A running loopback server.
 *
 * - `url`: its origin, e.g. `http://127.0.0.1:41234` (no trailing slash).
 * - `port`: the port it listens on.
 * - `requests`: every request received, in arrival order (including unexpected ones), except the
 *   side requests answered from `options.side`.
 * - `unexpected`: the requests no handler answered; each got the 501 from the catch-all.
 * - `side`: the side requests answered (a CLI version's connectivity checks), in arrival order.
 * - `close()`: drops open connections (a stalled stream too) and stops listening. Idempotent.
 */
export interface LoopbackServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  unexpected: RecordedRequest[];
  side: RecordedRequest[];
  close(): Promise<void>;
}

async function readBody(request: Request): Promise<unknown> {
  let text: string;
  try {
    text = await request.clone().text();
  } catch {
    return null;
  }
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function record(request: Request, startedAt: number): Promise<RecordedRequest> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = REDACTED_HEADERS.includes(name.toLowerCase()) ? REDACTED : value;
  });
  return {
    method: request.method.toUpperCase(),
    path: url.pathname + url.search,
    headers,
    body: await readBody(request),
    atMs: Date.now() - startedAt,
  };
}

/**
 * Serve `handlers` on 127.0.0.1 at an ephemeral port, with `@mswjs/http-middleware`
 * (`createServer(...handlers).listen(0, '127.0.0.1')`). A recording handler runs first (it
 * answers nothing, so the request falls through), and a catch-all `http.all('*')` registered last
 * answers **501** with `{"error":"routecert mock: unexpected request","method":..,"path":..}` (`path`
 * with its query string) and
 * records the request in `unexpected`.
 *
 * @throws when the server cannot listen (the error from `listen`), or when `options.host` is not
 *   loopback.
 * @example
 * const server = await startLoopbackServer(anthropicHandlers({ scenario: 'final' }));
 * try { await fetch(`${server.url}/v1/messages`, { method: 'POST', body: '{}' }); }
 * finally { await server.close(); }
 */
export async function startLoopbackServer(
  handlers: readonly RequestHandler[],
  options: LoopbackServerOptions = {},
): Promise<LoopbackServer> {
  const host = options.host ?? '127.0.0.1';
  if (host !== '127.0.0.1') {
    throw new Error(`[routecert] loopback server: refusing to bind ${String(host)}; only 127.0.0.1 is allowed.`);
  }
  const startedAt = Date.now();
  const requests: RecordedRequest[] = [];
  const unexpected: RecordedRequest[] = [];
  const byRequest = new WeakMap<Request, RecordedRequest>();

  const recorder = http.all('*', async ({ request }) => {
    const entry = await record(request, startedAt);
    byRequest.set(request, entry);
    requests.push(entry);
    options.onRequest?.(entry);
    // No response: the request falls through to the next handler.
    return undefined;
  });
  const side: RecordedRequest[] = [];
  const sideHandlers = (options.side ?? []).map((known) =>
    http.all('*', ({ request }) => {
      if (request.method.toUpperCase() !== known.method || new URL(request.url).pathname !== known.path) return undefined;
      const entry = byRequest.get(request);
      if (entry) {
        const at = requests.indexOf(entry);
        if (at >= 0) requests.splice(at, 1);
        side.push(entry);
      }
      return known.body === undefined || known.method === 'HEAD' ? new HttpResponse(null, { status: known.status }) : HttpResponse.json(known.body, { status: known.status });
    }),
  );
  const catchAll = http.all('*', async ({ request }) => {
    const entry = byRequest.get(request) ?? (await record(request, startedAt));
    unexpected.push(entry);
    const url = new URL(request.url);
    const path = url.pathname + url.search;
    return HttpResponse.json(
      { error: 'routecert mock: unexpected request', method: request.method.toUpperCase(), path },
      { status: 501 },
    );
  });

  // http-middleware's types name msw's CommonJS build and ours its ESM build: the same classes at
  // runtime, two declarations for the type checker.
  const all = [recorder, ...handlers, ...sideHandlers, catchAll] as unknown as Parameters<typeof createServer>;
  const app = createServer(...all);
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(options.port ?? 0, host);
    s.once('listening', () => resolve(s));
    s.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    port,
    requests,
    unexpected,
    side,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
