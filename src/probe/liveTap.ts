/**
 * The loopback tap of a live startup probe (`routecert probe --live --startup`): a pass-through
 * HTTP server on 127.0.0.1 that the CLI is pointed at instead of the provider. It forwards every
 * request to the real provider's origin unchanged (headers, credential and body, as the CLI sent
 * them), streams the answer back, records each request as the provider mock does (credential
 * headers redacted, src/mock/server.ts), and calls `onFirstResponse` at the first body bytes of a
 * 2xx answer to a POST (a model call: every provider's model call is a POST), which is where the
 * runner reaps the CLI: the provider has accepted the request, schema included, and the cost stops
 * at the first streamed token. A refusal (4xx/5xx) is passed on whole, so the CLI reports it as it
 * would without the tap.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { REDACTED, REDACTED_HEADERS, type RecordedRequest } from '#src/mock/server.ts';

/**
 * Request headers not forwarded: hop-by-hop ones (and `expect`, which fetch refuses), `host` (the
 * upstream's own), `content-length` (recomputed), and `accept-encoding` (the tap's fetch negotiates
 * and decodes itself, so the CLI gets plain bytes).
 */
const DROPPED_REQUEST_HEADERS = new Set(['host', 'connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'content-length', 'accept-encoding', 'te', 'trailer', 'expect', 'http2-settings']);

/** Response headers not passed back: hop-by-hop ones, and the encoding and length of a body fetch already decoded. */
const DROPPED_RESPONSE_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-encoding', 'content-length', 'trailer', 'upgrade']);

/**
 * A running tap. `url`: its origin (`http://127.0.0.1:<port>`); `requests`: what it forwarded, in
 * order (credential headers read `<redacted>`); `firstResponse`: whether a 2xx answer to a POST
 * started; `close()`: drops open connections and stops listening (idempotent).
 */
export interface LiveTap {
  url: string;
  requests: RecordedRequest[];
  readonly firstResponse: boolean;
  close(): Promise<void>;
}

function parsed(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Start a tap in front of `upstream` (an origin such as `https://api.anthropic.com`, no trailing
 * slash; a request for `/v1/messages?beta=true` goes to `<upstream>/v1/messages?beta=true`).
 * `onFirstResponse` is called once, after the first body chunk of a 2xx answer to a POST has been
 * passed to the CLI. An upstream that cannot be reached gets the CLI a 502 with the reason.
 *
 * @throws when the tap cannot listen on 127.0.0.1.
 */
export async function startLiveTap(upstream: string, options: { onFirstResponse?: () => void } = {}): Promise<LiveTap> {
  const startedAt = Date.now();
  const requests: RecordedRequest[] = [];
  let firstResponse = false;
  const aborts = new Set<AbortController>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const body = await bodyOf(req);
    const headers = new Headers();
    const recorded: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined) continue;
      const text = Array.isArray(value) ? value.join(', ') : value;
      recorded[name] = REDACTED_HEADERS.includes(name) ? REDACTED : text;
      if (!DROPPED_REQUEST_HEADERS.has(name)) headers.set(name, text);
    }
    requests.push({ method, path: req.url ?? '/', headers: recorded, body: parsed(body.toString('utf8')), atMs: Date.now() - startedAt });
    const abort = new AbortController();
    aborts.add(abort);
    // The CLI gone (reaped at the first response): stop reading the provider's answer.
    res.on('close', () => abort.abort());
    res.on('error', () => abort.abort());
    try {
      const answer = await fetch(`${upstream}${req.url ?? '/'}`, {
        method,
        headers,
        ...(body.length > 0 && method !== 'GET' && method !== 'HEAD' ? { body } : {}),
        redirect: 'manual',
        signal: abort.signal,
      });
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!DROPPED_RESPONSE_HEADERS.has(name)) out[name] = value;
      });
      res.writeHead(answer.status, out);
      const watch = method === 'POST' && answer.status >= 200 && answer.status < 300;
      if (answer.body) {
        for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) {
          if (chunk.length === 0) continue;
          res.write(chunk);
          if (watch && !firstResponse) {
            firstResponse = true;
            options.onFirstResponse?.();
          }
        }
      }
      res.end();
    } catch (error) {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(res.headersSent ? undefined : JSON.stringify({ error: `routecert live tap: ${upstream} could not be reached: ${error instanceof Error ? error.message : String(error)}` }));
    } finally {
      aborts.delete(abort);
    }
  }

  const server = createServer((req, res) => {
    void handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    get firstResponse() {
      return firstResponse;
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const a of aborts) a.abort();
        server.closeAllConnections();
        server.close(() => resolve());
      });
      return closing;
    },
  };
}
