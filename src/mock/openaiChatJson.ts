/**
 * msw handlers for the OpenAI Chat Completions API answered **without streaming** (one
 * `chat.completion` JSON body per request), playing a {@link ScenarioName}. For CLIs that call
 * `POST <base>/chat/completions` without `stream: true`, such as grok-cli (`@vibe-kit/grok-cli`
 * 0.0.34, research/cli-envelopes.md section 9a). Handler definitions start no server.
 *
 * Wire facts (grok-cli 0.0.34 run against this mock): the body has `model`, `messages`, `tools`
 * (7 function tools), `tool_choice: "auto"`, `temperature`, `max_tokens`, `search_parameters`, no
 * `stream`; the client is the OpenAI JS SDK 5.23.2 (`user-agent: OpenAI/JS 5.23.2`), which retries a
 * 408/409/429/5xx answer twice (`x-stainless-retry-count` 0, 1, 2) before it gives up.
 */
import { http, HttpResponse, type RequestHandler } from 'msw';
import {
  DEFAULT_PAYLOADS,
  planTurn,
  type ScenarioName,
  type ScenarioPayloads,
  type Turn,
  type TurnContext,
} from '#src/mock/scenarios.ts';
import { readJsonBody } from '#src/mock/requestBody.ts';

/** Model id the mock reports when the request names none. */
export const DEFAULT_CHAT_JSON_MODEL = 'grok-code-fast-1';

/**
 * Options of {@link openaiChatJsonHandlers}.
 *
 * - `scenario`: the scripted behaviour (see `SCENARIOS`).
 * - `payloads`: what the model answers; @default {@link DEFAULT_PAYLOADS}.
 * - `model`: the model id each response reports; @default the request's `model`, else
 *   {@link DEFAULT_CHAT_JSON_MODEL}.
 * - `structuredToolName`: a function tool that carries the schema, when the CLI offers one;
 *   @default none (the scenario answers in text).
 * - `onTurn`: called with each request's context and the turn answered.
 */
export interface OpenAIChatJsonHandlersOptions {
  scenario: ScenarioName;
  payloads?: ScenarioPayloads;
  model?: string;
  structuredToolName?: string;
  onTurn?: (ctx: TurnContext, turn: Turn) => void;
}

/**
 * Read a {@link TurnContext} off a Chat Completions request body: whether the structured tool
 * (`toolName`) is among `tools[].function.name`, and the result of that tool in the last message
 * (a `role: "tool"` message answering an assistant `tool_calls` entry of that name). A tool result
 * reads as an error when its content starts with `Error` (no wire flag exists). Never throws.
 */
export function readChatJsonTurnContext(body: unknown, index: number, toolName?: string): TurnContext {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const tools = Array.isArray(record.tools) ? record.tools : [];
  const offered =
    toolName !== undefined &&
    tools.some((t) => {
      const fn = typeof t === 'object' && t !== null ? (t as { function?: { name?: unknown } }).function : undefined;
      return fn?.name === toolName;
    });
  const messages = (Array.isArray(record.messages) ? record.messages : []).filter(
    (m): m is Record<string, unknown> => typeof m === 'object' && m !== null,
  );
  const structuredIds = new Set<string>();
  for (const m of messages) {
    if (m.role !== 'assistant' || !Array.isArray(m.tool_calls)) continue;
    for (const call of m.tool_calls as { id?: unknown; function?: { name?: unknown } }[]) {
      if (call?.function?.name === toolName && typeof call.id === 'string') structuredIds.add(call.id);
    }
  }
  const last = messages.at(-1);
  let lastToolResult: TurnContext['lastToolResult'] = null;
  if (last?.role === 'tool' && typeof last.tool_call_id === 'string' && structuredIds.has(last.tool_call_id)) {
    const content = typeof last.content === 'string' ? last.content : JSON.stringify(last.content ?? '');
    lastToolResult = { isError: /^error/i.test(content.trim()), content };
  }
  return { index, structuredTool: offered ? (toolName ?? null) : null, lastToolResult, enforceNudge: false };
}

/**
 * The `chat.completion` body of one answer: text blocks joined with a newline into
 * `message.content`, tool calls into `message.tool_calls` (arguments as JSON text), `finish_reason`
 * `tool_calls` or `stop`, and `usage` (`prompt_tokens` 100, `completion_tokens` ~ characters / 4).
 *
 * @param turn - a `message` turn.
 * @param ids - `completion` id (e.g. `chatcmpl-routecert-0`); tool call ids are derived from it.
 * @param model - reported as `model`.
 */
export function renderChatJsonCompletion(
  turn: Extract<Turn, { kind: 'message' }>,
  ids: { completion: string },
  model: string,
): Record<string, unknown> {
  const texts = turn.blocks.flatMap((b) => (b.type === 'text' ? [b.text] : []));
  const calls = turn.blocks.flatMap((b, i) =>
    b.type === 'tool_use' ? [{ id: `call_${ids.completion.replace(/^chatcmpl-/, '')}_${i}`, type: 'function', function: { name: b.name, arguments: JSON.stringify(b.input) } }] : [],
  );
  const completionTokens = turn.blocks.reduce((n, b) => n + Math.ceil((b.type === 'text' ? b.text : JSON.stringify(b.input)).length / 4), 0);
  const message: Record<string, unknown> = { role: 'assistant', content: texts.length > 0 ? texts.join('\n') : null, refusal: null };
  if (calls.length > 0) message.tool_calls = calls;
  return {
    id: ids.completion,
    object: 'chat.completion',
    created: 1_796_000_000,
    model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: calls.length > 0 ? 'tool_calls' : 'stop' }],
    usage: { prompt_tokens: 100, completion_tokens: completionTokens, total_tokens: 100 + completionTokens },
  };
}

/**
 * msw handlers answering `POST <any origin>/chat/completions` (e.g. `<base>/v1/chat/completions`) with
 * the scripted turn of `options.scenario`, as one JSON body:
 *
 * - a `message` turn: HTTP 200, {@link renderChatJsonCompletion};
 * - an `error` turn: HTTP `status` with OpenAI's error body `{"error":{"message":..,"type":<errorType>,"param":null,"code":null}}`;
 * - `stall`: HTTP 200 `application/json`, one space of the body, then it never ends;
 * - a request with `stream: true`: HTTP 400 naming the mismatch (this mock only answers
 *   non-streaming requests; streamed chat completions are another mock's job).
 *
 * Each call returns fresh handlers with their own request counter.
 *
 * @example
 * const server = await startLoopbackServer(openaiChatJsonHandlers({ scenario: 'final' }));
 * // GROK_BASE_URL=`${server.url}/v1` grok -p '<prompt>'
 */
export function openaiChatJsonHandlers(options: OpenAIChatJsonHandlersOptions): RequestHandler[] {
  const payloads = options.payloads ?? DEFAULT_PAYLOADS;
  let count = 0;
  return [
    http.post('*/chat/completions', async ({ request }) => {
      const body = await readJsonBody(request);
      const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
      if (record.stream === true) {
        return HttpResponse.json(
          { error: { message: 'routecert mock: this mock answers non-streaming chat completions only (the request set stream: true)', type: 'invalid_request_error', param: 'stream', code: null } },
          { status: 400 },
        );
      }
      const index = count++;
      const ctx = readChatJsonTurnContext(body, index, options.structuredToolName);
      const turn = planTurn(options.scenario, payloads, ctx);
      options.onTurn?.(ctx, turn);
      const model = options.model ?? (typeof record.model === 'string' ? record.model : DEFAULT_CHAT_JSON_MODEL);
      const requestId = `req_routecert_${index}`;
      switch (turn.kind) {
        case 'error':
          return HttpResponse.json(
            { error: { message: turn.message, type: turn.errorType, param: null, code: null } },
            { status: turn.status, headers: { 'x-request-id': requestId } },
          );
        case 'stall': {
          const stream = new ReadableStream<Uint8Array>({
            start(controller) {
              // One byte of JSON whitespace (so the response starts), then never more, never closed.
              controller.enqueue(new TextEncoder().encode(' '));
            },
          });
          return new HttpResponse(stream, { status: 200, headers: { 'content-type': 'application/json', 'x-request-id': requestId } });
        }
        case 'message':
          return HttpResponse.json(renderChatJsonCompletion(turn, { completion: `chatcmpl-routecert-${index}` }, model), {
            headers: { 'x-request-id': requestId },
          });
      }
    }),
  ];
}
