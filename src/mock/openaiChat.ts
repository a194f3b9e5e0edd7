/**
 * msw handlers for the OpenAI Chat Completions API (`POST /…/chat/completions`), streamed as SSE
 * (or one `chat.completion` body when the request asks `stream: false`), playing a
 * {@link ScenarioName}. Handler definitions start no server: serve them to a child process with
 * `startLoopbackServer` (./server.ts).
 *
 * Wire shapes: OpenAI Chat Completions streaming, as the CLIs of research/cli-envelopes.md
 * section 13 accepted them ("Minimal mock responses"): `chat.completion.chunk` frames with
 * `choices[0].delta` (`content`, or `tool_calls[{index,id,type,function{name,arguments}}]`), a
 * chunk with `finish_reason`, a usage chunk with `choices: []`, then `data: [DONE]`.
 * Played against Qwen Code 0.24.4, opencode 1.18.33, Copilot CLI 1.0.102 (BYOK) and pi 0.73.1
 * (probes/qwen.test.ts, opencode, copilot, pi): each took this framing as is.
 *
 * The mock knows no CLI. It routes each request by its content, never by its order:
 * - a request that asks for a conversation title (a system message that asks to generate a title,
 *   e.g. "You are a title generator ...") is answered with {@link TITLE_TEXT} and is not a turn of
 *   the scenario;
 * - every other request is a model turn, answered by `planTurn` from the context read off the body
 *   ({@link readOpenAiChatTurnContext}).
 */
import { http, HttpResponse, type RequestHandler } from 'msw';
import {
  DEFAULT_PAYLOADS,
  planTurn,
  type ScenarioName,
  type ScenarioPayloads,
  type Turn,
  type TurnBlock,
  type TurnContext,
} from '#src/mock/scenarios.ts';
import { readJsonBody } from '#src/mock/requestBody.ts';
import { chatContentText, isTitleRequest, messagesOf } from '#src/mock/chatRequest.ts';

/** Model id the mock reports when the request names none. */
export const DEFAULT_CHAT_MODEL = 'routecert-mock-1';

/**
 * The default name of the function tool that carries a CLI's schema (`structured_output`: Qwen Code
 * 0.24.4 offers its `--json-schema` as this tool; xAI names its `response_format` schema the same).
 */
export const DEFAULT_CHAT_STRUCTURED_TOOL = 'structured_output';

/** The short title answered to a title-generation request. */
export const TITLE_TEXT = 'Option A or option B';

/**
 * The `created` timestamp (Unix seconds) of every chunk: fixed, so two recordings of one scenario
 * do not differ by it.
 */
export const CHAT_CREATED_S = 1_796_011_120;

/**
 * Options of {@link openaiChatHandlers}.
 *
 * - `scenario`: the scripted behaviour (see `SCENARIOS`).
 * - `payloads`: what the model answers; @default {@link DEFAULT_PAYLOADS}.
 * - `model`: the model id reported in every chunk; @default the request's `model`, else
 *   {@link DEFAULT_CHAT_MODEL}.
 * - `structuredToolName`: the function tool that carries the schema, when the CLI offers one;
 *   @default {@link DEFAULT_CHAT_STRUCTURED_TOOL}. A request that offers no tool of that name gets
 *   the answer as text.
 * - `overloadedStatus`: the HTTP status of the `api-529` scenario. OpenAI itself answers an
 *   overload with 503 (`server_error`); Anthropic-style gateways with 529. @default 529
 * - `retryAfterMs`: when set, 429/503/529 answers carry `retry-after-ms: <n>` and
 *   `retry-after: <ceil(n / 1000)>` (the headers the OpenAI SDK and most CLIs honour before their
 *   own backoff), so a CLI that retries overloads does so at once. @default unset (no header)
 * - `onTurn`: called with each model request's context and the turn answered (for logs and tests).
 */
export interface OpenAiChatHandlersOptions {
  scenario: ScenarioName;
  payloads?: ScenarioPayloads;
  model?: string;
  structuredToolName?: string;
  overloadedStatus?: 529 | 503;
  retryAfterMs?: number;
  onTurn?: (ctx: TurnContext, turn: Turn) => void;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Patterns by which a tool result rejects the call (Chat Completions has no `is_error` flag: the CLI
 * says it in the tool message's text).
 */
const TOOL_ERROR = /\b(?:error|invalid|does not match|did not match|must have|must be|failed|rejected|not valid)\b/i;

/**
 * Read a {@link TurnContext} off a Chat Completions request body:
 * - `structuredTool`: `toolName` when `tools` offers a function of that name, else `null`;
 * - `lastToolResult`: the `role: "tool"` messages that follow the last assistant message and answer
 *   one of its calls of the structured tool; `isError` when their text rejects the call
 *   ("error", "invalid", "does not match", ...);
 * - `enforceNudge`: the last message is a user message (after the first request) that names the
 *   structured tool: a CLI asking the model to call it.
 *
 * Never throws on any body.
 *
 * @param body - the parsed JSON request body (anything).
 * @param index - 0-based index of this request among the model requests.
 * @param toolName - @default {@link DEFAULT_CHAT_STRUCTURED_TOOL}.
 */
export function readOpenAiChatTurnContext(body: unknown, index: number, toolName: string = DEFAULT_CHAT_STRUCTURED_TOOL): TurnContext {
  const tools = isObject(body) && Array.isArray(body.tools) ? body.tools : [];
  const offered = tools.some((t) => isObject(t) && isObject(t.function) && t.function.name === toolName);
  const messages = messagesOf(body);
  let lastAssistant = -1;
  messages.forEach((m, i) => {
    if (m.role === 'assistant') lastAssistant = i;
  });
  let lastToolResult: TurnContext['lastToolResult'] = null;
  if (lastAssistant >= 0) {
    const calls = Array.isArray(messages[lastAssistant]!.tool_calls) ? (messages[lastAssistant]!.tool_calls as unknown[]) : [];
    const ids = new Set(
      calls.filter((c): c is Json => isObject(c) && isObject(c.function) && c.function.name === toolName && typeof c.id === 'string').map((c) => c.id as string),
    );
    for (const m of messages.slice(lastAssistant + 1)) {
      if (m.role === 'tool' && typeof m.tool_call_id === 'string' && ids.has(m.tool_call_id)) {
        const content = chatContentText(m.content);
        lastToolResult = { isError: TOOL_ERROR.test(content), content };
      }
    }
  }
  const last = messages.at(-1);
  const enforceNudge = index > 0 && offered && last?.role === 'user' && chatContentText(last.content).includes(toolName);
  return { index, structuredTool: offered ? toolName : null, lastToolResult, enforceNudge };
}

/** Split `s` in two halves (so clients must accumulate deltas). */
function halves(s: string): string[] {
  const mid = Math.ceil(s.length / 2);
  return s.length < 2 ? [s] : [s.slice(0, mid), s.slice(mid)];
}

/** Ids of one answer: the completion id and the prefix of its tool call ids. */
export interface ChatIds {
  completion: string;
  toolCall: string;
}

function tokens(turn: Extract<Turn, { kind: 'message' }>): number {
  return turn.blocks.reduce((n, b) => n + Math.ceil((b.type === 'text' ? b.text : JSON.stringify(b.input)).length / 4), 0);
}

/** Usage as Chat Completions reports it (`prompt_tokens` fixed at 100; completion ~ chars / 4). */
function usageOf(turn: Extract<Turn, { kind: 'message' }>): Json {
  const completion = tokens(turn);
  return { prompt_tokens: 100, completion_tokens: completion, total_tokens: 100 + completion };
}

function finishReason(turn: Extract<Turn, { kind: 'message' }>): 'tool_calls' | 'stop' {
  return turn.stopReason === 'tool_use' ? 'tool_calls' : 'stop';
}

/**
 * The chunks (as objects) of one streamed answer: a role chunk, the text deltas (each text block
 * in two halves; several text blocks are joined with a blank line), the tool calls (name first,
 * then the arguments in two halves), the `finish_reason` chunk (`tool_calls` or `stop`) and, when
 * `includeUsage`, the usage chunk with `choices: []`. `data: [DONE]` is not a chunk: see
 * {@link renderChatSse}.
 */
export function chatChunks(turn: Extract<Turn, { kind: 'message' }>, ids: ChatIds, model: string, includeUsage = true): Json[] {
  const frame = (choices: Json[], extra: Json = {}): Json => ({
    id: ids.completion,
    object: 'chat.completion.chunk',
    created: CHAT_CREATED_S,
    model,
    choices,
    ...extra,
  });
  const delta = (d: Json): Json => frame([{ index: 0, delta: d, logprobs: null, finish_reason: null }]);
  const chunks: Json[] = [delta({ role: 'assistant', content: '' })];
  const text = turn.blocks.filter((b): b is Extract<TurnBlock, { type: 'text' }> => b.type === 'text').map((b) => b.text).join('\n\n');
  for (const part of text === '' ? [] : halves(text)) chunks.push(delta({ content: part }));
  turn.blocks
    .filter((b): b is Extract<TurnBlock, { type: 'tool_use' }> => b.type === 'tool_use')
    .forEach((b, i) => {
      chunks.push(delta({ tool_calls: [{ index: i, id: `${ids.toolCall}_${i}`, type: 'function', function: { name: b.name, arguments: '' } }] }));
      for (const part of halves(JSON.stringify(b.input))) chunks.push(delta({ tool_calls: [{ index: i, function: { arguments: part } }] }));
    });
  chunks.push(frame([{ index: 0, delta: {}, logprobs: null, finish_reason: finishReason(turn) }]));
  if (includeUsage) chunks.push(frame([], { usage: usageOf(turn) }));
  return chunks;
}

/**
 * The full SSE body of one streamed answer: one `data: <chunk>` frame per {@link chatChunks}
 * entry, then `data: [DONE]`.
 */
export function renderChatSse(turn: Extract<Turn, { kind: 'message' }>, ids: ChatIds, model: string, includeUsage = true): string {
  return `${chatChunks(turn, ids, model, includeUsage).map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`;
}

/** The `chat.completion` body of one non-streamed answer (for a request with `stream: false`). */
export function renderOpenAiChatCompletion(turn: Extract<Turn, { kind: 'message' }>, ids: ChatIds, model: string): Json {
  const text = turn.blocks.filter((b): b is Extract<TurnBlock, { type: 'text' }> => b.type === 'text').map((b) => b.text).join('\n\n');
  const calls = turn.blocks
    .filter((b): b is Extract<TurnBlock, { type: 'tool_use' }> => b.type === 'tool_use')
    .map((b, i) => ({ id: `${ids.toolCall}_${i}`, type: 'function', function: { name: b.name, arguments: JSON.stringify(b.input) } }));
  const message: Json = { role: 'assistant', content: text === '' ? null : text, refusal: null };
  if (calls.length > 0) message.tool_calls = calls;
  return {
    id: ids.completion,
    object: 'chat.completion',
    created: CHAT_CREATED_S,
    model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(turn) }],
    usage: usageOf(turn),
  };
}

/**
 * The OpenAI error body of an `error` turn: `{"error":{"message","type","param":null,"code"}}`.
 * `type` follows OpenAI's names: `invalid_request_error` for 4xx, `server_error` for 5xx except
 * 529, which keeps the turn's `overloaded_error`.
 */
export function chatErrorBody(turn: Extract<Turn, { kind: 'error' }>, status: number): Json {
  const type = status >= 500 && status !== 529 ? 'server_error' : turn.errorType;
  const message = status === 503 ? 'The server is overloaded or not ready yet.' : turn.message;
  return { error: { message, type, param: null, code: status === 529 || status === 503 ? 'overloaded' : null } };
}

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
} as const;

function streamOf(text: string, close: boolean): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      // A stalled answer never enqueues more and never closes.
      if (close) controller.close();
    },
  });
}

/**
 * msw handlers answering `POST /…/chat/completions` (any origin and prefix, e.g. `/v1/chat/completions`)
 * with the scripted turn of `options.scenario` for each model request:
 *
 * - a title-generation request ({@link isTitleRequest}): {@link TITLE_TEXT} as text; not counted as a turn;
 * - a `message` turn: HTTP 200 `text/event-stream` SSE ({@link renderChatSse}), with the usage chunk
 *   when the request asks `stream_options.include_usage` (as OpenAI does); a request with
 *   `stream: false` gets one `chat.completion` JSON body;
 * - an `error` turn: HTTP `status` (`api-529`: `options.overloadedStatus`) with OpenAI's error body
 *   ({@link chatErrorBody}), an `x-request-id` header and, with `options.retryAfterMs`, the
 *   retry-after headers;
 * - `stall`: HTTP 200 `text/event-stream`, the role chunk, then the body never ends (with
 *   `stream: false`: HTTP 200 JSON headers and a body that never ends).
 *
 * Each call returns fresh handlers with their own request counter.
 *
 * @example
 * const server = await startLoopbackServer(openaiChatHandlers({ scenario: 'final' }));
 * // OPENAI_BASE_URL=`${server.url}/v1` qwen -p ... --json-schema '<schema>'
 */
export function openaiChatHandlers(options: OpenAiChatHandlersOptions): RequestHandler[] {
  const payloads = options.payloads ?? DEFAULT_PAYLOADS;
  const toolName = options.structuredToolName ?? DEFAULT_CHAT_STRUCTURED_TOOL;
  let count = 0;
  let titles = 0;
  return [
    http.post('*/chat/completions', async ({ request }) => {
      const body = await readJsonBody(request);
      const record = isObject(body) ? body : {};
      const stream = record.stream === true;
      const includeUsage = isObject(record.stream_options) && record.stream_options.include_usage === true;
      const model = options.model ?? (typeof record.model === 'string' ? record.model : DEFAULT_CHAT_MODEL);

      if (isTitleRequest(body)) {
        const n = titles++;
        const turn: Extract<Turn, { kind: 'message' }> = { kind: 'message', blocks: [{ type: 'text', text: TITLE_TEXT }], stopReason: 'end_turn' };
        const ids = { completion: `chatcmpl-routecert-title-${n}`, toolCall: `call_routecert_title_${n}` };
        if (!stream) return HttpResponse.json(renderOpenAiChatCompletion(turn, ids, model));
        return new HttpResponse(streamOf(renderChatSse(turn, ids, model, includeUsage), true), { status: 200, headers: SSE_HEADERS });
      }

      const index = count++;
      const ctx = readOpenAiChatTurnContext(body, index, toolName);
      const turn = planTurn(options.scenario, payloads, ctx);
      options.onTurn?.(ctx, turn);
      const requestId = `req_routecert_${index}`;
      const ids = { completion: `chatcmpl-routecert-${index}`, toolCall: `call_routecert_${index}` };
      switch (turn.kind) {
        case 'error': {
          const status = turn.status === 529 ? (options.overloadedStatus ?? 529) : turn.status;
          const headers: Record<string, string> = { 'x-request-id': requestId };
          if (options.retryAfterMs !== undefined && [429, 503, 529].includes(status)) {
            headers['retry-after-ms'] = String(options.retryAfterMs);
            headers['retry-after'] = String(Math.ceil(options.retryAfterMs / 1000));
          }
          return HttpResponse.json(chatErrorBody(turn, status), { status, headers });
        }
        case 'stall': {
          if (!stream) {
            // A non-streamed answer that never comes: headers, then a body that never ends.
            return new HttpResponse(streamOf('', false), { status: 200, headers: { 'content-type': 'application/json', 'x-request-id': requestId } });
          }
          const first = chatChunks({ kind: 'message', blocks: [], stopReason: 'end_turn' }, ids, model, false)[0]!;
          return new HttpResponse(streamOf(`data: ${JSON.stringify(first)}\n\n`, false), {
            status: 200,
            headers: { ...SSE_HEADERS, 'x-request-id': requestId },
          });
        }
        case 'message':
          if (!stream) return HttpResponse.json(renderOpenAiChatCompletion(turn, ids, model), { headers: { 'x-request-id': requestId } });
          return new HttpResponse(streamOf(renderChatSse(turn, ids, model, includeUsage), true), {
            status: 200,
            headers: { ...SSE_HEADERS, 'x-request-id': requestId },
          });
      }
    }),
  ];
}
