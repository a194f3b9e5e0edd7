/**
 * msw handlers for an OpenAI-compatible Chat Completions server (`POST <base>/chat/completions`) that
 * may refuse tool calling, as self-hosted OpenAI-compatible servers do when tool parsing is not enabled
 * (vLLM answers 400 to `tools` without `--enable-auto-tool-choice`). It plays scripted replies, one
 * per answered request, in `response_format: json_schema` mode (the reply is `message.content`) or,
 * when tools are accepted, as a call of the requested function (the reply is its `arguments`).
 *
 * Handler definitions start no server: use them in-process with msw's `setupServer` (nothing leaves
 * the process) or serve them with `startLoopbackServer` (./server.ts). DESIGN.md "Contracts in the
 * mission" item 4; wire shapes: OpenAI Chat Completions (`choices[0].message`, `tool_calls`, `usage`
 * with `prompt_tokens_details` / `completion_tokens_details`, error body `{error: {message, type, param, code}}`).
 */
import { http, HttpResponse, type RequestHandler } from 'msw';

/** One scripted reply: the text the model answers and, optionally, the usage it reports. */
export interface OpenAiCompatReply {
  content: string;
  usage?: Record<string, unknown>;
}

/** How a request asked for structure: `tools` (a function to call), `json_schema` (`response_format`), or `none`. */
export type OpenAiRequestMode = 'tools' | 'json_schema' | 'none';

/** A request the mock received: its mode, its parsed body and the HTTP status it answered. */
export interface OpenAiCompatRequest {
  mode: OpenAiRequestMode;
  body: Record<string, unknown>;
  status: number;
}

/**
 * Options of {@link openAiCompatHandlers}.
 * - `baseUrl`: the API base, e.g. `http://127.0.0.1:4010/v1`; requests go to `<baseUrl>/chat/completions`;
 * - `replies`: what the model answers, one per answered request, in order; the last one repeats;
 * - `toolCalling`: `reject` answers 400 to any request with `tools`; `accept` answers with a tool call;
 *   @default `'reject'`;
 * - `model`: the model id reported; @default the request's `model`;
 * - `onRequest`: called with each request (for tests and logs).
 */
export interface OpenAiCompatOptions {
  baseUrl: string;
  replies: readonly (string | OpenAiCompatReply)[];
  toolCalling?: 'reject' | 'accept';
  model?: string;
  onRequest?: (request: OpenAiCompatRequest) => void;
}

/** The usage a reply reports when its script gives none (OpenAI shape, with the nested `*_details`). */
export const DEFAULT_OPENAI_USAGE = {
  prompt_tokens: 120,
  completion_tokens: 30,
  total_tokens: 150,
  prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
} as const;

/** The 400 message of a server without tool calling (vLLM's wording). */
export const TOOLS_REJECTED_MESSAGE = '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set';

/**
 * Handlers for an OpenAI-compatible server at `options.baseUrl`, plus a catch-all under it that answers
 * 501 naming the unexpected request.
 *
 * @example
 * const server = setupServer(...openAiCompatHandlers({ baseUrl: 'http://127.0.0.1:4010/v1', replies: ['{"kind":"done","text":"ok","ref":null}'] }));
 * server.listen({ onUnhandledRequest: 'error' });
 */
export function openAiCompatHandlers(options: OpenAiCompatOptions): RequestHandler[] {
  if (options.replies.length === 0) throw new Error('[routecert] openAiCompatHandlers needs at least one scripted reply');
  const base = options.baseUrl.replace(/\/+$/, '');
  const toolCalling = options.toolCalling ?? 'reject';
  let answered = 0;
  return [
    http.post(`${base}/chat/completions`, async ({ request }) => {
      const body = ((await request.json().catch(() => null)) ?? {}) as Record<string, unknown>;
      const mode: OpenAiRequestMode = Array.isArray(body.tools) && body.tools.length > 0 ? 'tools' : isJsonSchemaFormat(body.response_format) ? 'json_schema' : 'none';
      if (mode === 'tools' && toolCalling === 'reject') {
        options.onRequest?.({ mode, body, status: 400 });
        return HttpResponse.json({ error: { message: TOOLS_REJECTED_MESSAGE, type: 'BadRequestError', param: 'tools', code: 400 } }, { status: 400 });
      }
      const scripted = options.replies[Math.min(answered, options.replies.length - 1)]!;
      answered += 1;
      const reply: OpenAiCompatReply = typeof scripted === 'string' ? { content: scripted } : scripted;
      const model = options.model ?? (typeof body.model === 'string' ? body.model : 'routecert-mock');
      options.onRequest?.({ mode, body, status: 200 });
      const message =
        mode === 'tools'
          ? {
              role: 'assistant',
              content: null,
              tool_calls: [{ id: `call_${answered}`, type: 'function', function: { name: toolName(body), arguments: reply.content } }],
            }
          : { role: 'assistant', content: reply.content };
      return HttpResponse.json({
        id: `chatcmpl-routecert-${answered}`,
        object: 'chat.completion',
        created: 0,
        model,
        choices: [{ index: 0, message, finish_reason: mode === 'tools' ? 'tool_calls' : 'stop' }],
        usage: reply.usage ?? DEFAULT_OPENAI_USAGE,
      });
    }),
    http.all(`${base}/*`, ({ request }) =>
      HttpResponse.json({ error: { message: `routecert mock: unexpected ${request.method} ${new URL(request.url).pathname}`, type: 'not_implemented' } }, { status: 501 }),
    ),
  ];
}

function isJsonSchemaFormat(format: unknown): boolean {
  return typeof format === 'object' && format !== null && (format as { type?: unknown }).type === 'json_schema';
}

function toolName(body: Record<string, unknown>): string {
  const tools = body.tools as { function?: { name?: unknown } }[];
  const name = tools[0]?.function?.name;
  return typeof name === 'string' ? name : 'structured_output';
}
