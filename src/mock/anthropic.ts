/**
 * msw handlers for the Anthropic Messages API (`POST /v1/messages`, streamed as SSE), playing a
 * {@link ScenarioName}. Handler definitions start no server: serve them to a child process with
 * `startLoopbackServer` (./server.ts), or in-process with msw's `setupServer`.
 *
 * Wire shapes: Anthropic Messages streaming (message_start, content_block_start / delta / stop,
 * message_delta, message_stop), as Claude Code 2.1.332 accepted them
 * (research/cli-envelopes.md section 13, "Minimal mock responses").
 */
import { http, HttpResponse, type RequestHandler } from 'msw';
import {
  DEFAULT_PAYLOADS,
  planTurn,
  type JsonObject,
  type ScenarioName,
  type ScenarioPayloads,
  type Turn,
  type TurnBlock,
  type TurnContext,
} from '#src/mock/scenarios.ts';
import { bodyModel, readJsonBody } from '#src/mock/requestBody.ts';

/** Model id the mock reports when the request names none. */
export const DEFAULT_MOCK_MODEL = 'claude-sonnet-4-5';

/** The name Claude Code 2.1.332 gives the tool that carries `--json-schema` as `input_schema`. */
export const STRUCTURED_OUTPUT_TOOL = 'StructuredOutput';

/** The prefix of Claude Code 2.1.332's nudge turn when the model answered text instead of the tool. */
export const STRUCTURED_OUTPUT_ENFORCE_PREFIX = '[structured-output-enforce]';

/**
 * The Messages API's refusal of a tool whose `input_schema` has `oneOf`, `allOf` or `anyOf` at its top
 * level, as the API words it (HTTP 400 `invalid_request_error`, `tools.<n>.custom.input_schema:
 * input_schema does not support oneOf, allOf, or anyOf at the top level`; anthropics/claude-code#64113,
 * Zcentury/Venom#27): the message of the first such tool, or `null`. Claude Code sends `--json-schema`
 * as the StructuredOutput tool's `input_schema`, so such a schema is refused at the first request.
 */
export function anthropicToolSchemaProblem(body: unknown): string | null {
  const tools = typeof body === 'object' && body !== null && Array.isArray((body as { tools?: unknown }).tools) ? (body as { tools: unknown[] }).tools : [];
  for (const [i, tool] of tools.entries()) {
    const schema = typeof tool === 'object' && tool !== null ? (tool as { input_schema?: unknown }).input_schema : undefined;
    if (typeof schema !== 'object' || schema === null) continue;
    if (['oneOf', 'allOf', 'anyOf'].some((k) => Object.hasOwn(schema, k))) return `tools.${i}.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level`;
  }
  return null;
}

/**
 * Options of {@link anthropicHandlers}.
 *
 * - `scenario`: the scripted behaviour (see `SCENARIOS`).
 * - `payloads`: what the model answers; @default {@link DEFAULT_PAYLOADS}.
 * - `model`: the model id reported in `message_start` (set it to play a provider that serves
 *   another model than requested); @default the request's `model`, else {@link DEFAULT_MOCK_MODEL}.
 * - `structuredToolName`: the tool that carries the schema; @default {@link STRUCTURED_OUTPUT_TOOL}.
 * - `onTurn`: called with each request's context and the turn answered (for logs and tests).
 */
export interface AnthropicHandlersOptions {
  scenario: ScenarioName;
  payloads?: ScenarioPayloads;
  model?: string;
  structuredToolName?: string;
  onTurn?: (ctx: TurnContext, turn: Turn) => void;
}

type AnthropicBlock = { type?: unknown; [key: string]: unknown };
type AnthropicMessage = { role?: unknown; content?: unknown };

function blocksOf(message: AnthropicMessage | undefined): AnthropicBlock[] {
  if (!message) return [];
  if (typeof message.content === 'string') return [{ type: 'text', text: message.content }];
  return Array.isArray(message.content)
    ? message.content.filter((b): b is AnthropicBlock => typeof b === 'object' && b !== null)
    : [];
}

function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((b) => (typeof b === 'object' && b !== null && typeof (b as AnthropicBlock).text === 'string' ? (b as { text: string }).text : ''))
      .join('');
  }
  return '';
}

/**
 * Read a {@link TurnContext} off an Anthropic Messages request body: the structured tool offered in
 * `tools`, the structured tool's `tool_result` in the last user message (matched to the assistant's
 * `tool_use` by id), and the Claude Code enforcement nudge. Never throws on any body.
 *
 * @param body - the parsed JSON request body (anything).
 * @param index - 0-based index of this request in the run.
 * @param toolName - the structured tool's name; @default {@link STRUCTURED_OUTPUT_TOOL}.
 */
export function readAnthropicTurnContext(body: unknown, index: number, toolName: string = STRUCTURED_OUTPUT_TOOL): TurnContext {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const tools = Array.isArray(record.tools) ? record.tools : [];
  const offered = tools.some((t) => typeof t === 'object' && t !== null && (t as { name?: unknown }).name === toolName);
  const messages = (Array.isArray(record.messages) ? record.messages : []).filter(
    (m): m is AnthropicMessage => typeof m === 'object' && m !== null,
  );
  const structuredIds = new Set<string>();
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    for (const b of blocksOf(m)) {
      if (b.type === 'tool_use' && b.name === toolName && typeof b.id === 'string') structuredIds.add(b.id);
    }
  }
  const last = messages.at(-1);
  let lastToolResult: TurnContext['lastToolResult'] = null;
  let enforceNudge = false;
  if (last?.role === 'user') {
    for (const b of blocksOf(last)) {
      if (b.type === 'tool_result' && typeof b.tool_use_id === 'string' && structuredIds.has(b.tool_use_id)) {
        lastToolResult = { isError: b.is_error === true, content: toolResultText(b.content) };
      }
      if (b.type === 'text' && typeof b.text === 'string' && b.text.includes(STRUCTURED_OUTPUT_ENFORCE_PREFIX)) {
        enforceNudge = true;
      }
    }
  }
  return { index, structuredTool: offered ? toolName : null, lastToolResult, enforceNudge };
}

/** One SSE frame: `event: <name>` and `data: <json>` lines, then a blank line. */
function sseFrame(event: string, data: JsonObject): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function messageStart(id: string, model: string): string {
  return sseFrame('message_start', {
    type: 'message_start',
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 100, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    },
  });
}

/** Split `s` in two halves (so clients must accumulate deltas). */
function halves(s: string): string[] {
  const mid = Math.ceil(s.length / 2);
  return s.length < 2 ? [s] : [s.slice(0, mid), s.slice(mid)];
}

function blockFrames(block: TurnBlock, index: number, toolId: string): string {
  if (block.type === 'text') {
    return (
      sseFrame('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }) +
      halves(block.text)
        .map((text) => sseFrame('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text } }))
        .join('') +
      sseFrame('content_block_stop', { type: 'content_block_stop', index })
    );
  }
  return (
    sseFrame('content_block_start', {
      type: 'content_block_start',
      index,
      content_block: { type: 'tool_use', id: toolId, name: block.name, input: {} },
    }) +
    halves(JSON.stringify(block.input))
      .map((partial_json) =>
        sseFrame('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } }),
      )
      .join('') +
    sseFrame('content_block_stop', { type: 'content_block_stop', index })
  );
}

/**
 * The full SSE body of one streamed Anthropic message (text).
 *
 * @param turn - a `message` turn.
 * @param ids - `message` id (e.g. `msg_routecert_0`); tool ids are derived from it.
 * @param model - the model id to report.
 */
export function renderAnthropicSse(turn: Extract<Turn, { kind: 'message' }>, ids: { message: string }, model: string): string {
  const outputTokens = turn.blocks.reduce((n, b) => n + Math.ceil((b.type === 'text' ? b.text : JSON.stringify(b.input)).length / 4), 0);
  return (
    messageStart(ids.message, model) +
    turn.blocks.map((b, i) => blockFrames(b, i, `toolu_${ids.message.replace(/^msg_/, '')}_${i}`)).join('') +
    sseFrame('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: turn.stopReason, stop_sequence: null },
      usage: { output_tokens: outputTokens },
    }) +
    sseFrame('message_stop', { type: 'message_stop' })
  );
}

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
} as const;

function sseResponse(stream: ReadableStream<Uint8Array>, requestId: string): HttpResponse<ReadableStream<Uint8Array>> {
  return new HttpResponse(stream, { status: 200, headers: { ...SSE_HEADERS, 'request-id': requestId } });
}

/**
 * msw handlers answering `POST * /v1/messages` (any origin; the `?beta=true` query Claude Code adds
 * is ignored by msw's path matching) with the scripted turn of `options.scenario` for each request:
 *
 * - a `message` turn: HTTP 200 `text/event-stream`, the SSE body as a `ReadableStream`;
 * - an `error` turn: HTTP `status` with Anthropic's error body
 *   `{"type":"error","error":{"type":<errorType>,"message":..},"request_id":..}`;
 * - `stall`: HTTP 200 `text/event-stream`, `message_start` and a `ping`, then the body never ends
 *   (the stream stays open until the client goes away or the server closes its connections).
 *
 * Each call returns fresh handlers with their own request counter.
 *
 * @example
 * const server = await startLoopbackServer(anthropicHandlers({ scenario: 'final' }));
 * // ANTHROPIC_BASE_URL=server.url claude -p --json-schema '<schema>' ...
 */
export function anthropicHandlers(options: AnthropicHandlersOptions): RequestHandler[] {
  const payloads = options.payloads ?? DEFAULT_PAYLOADS;
  const toolName = options.structuredToolName ?? STRUCTURED_OUTPUT_TOOL;
  let count = 0;
  const encoder = new TextEncoder();
  return [
    http.post('*/v1/messages', async ({ request }) => {
      const index = count++;
      const body = await readJsonBody(request);
      const refused = anthropicToolSchemaProblem(body);
      if (refused !== null) {
        const id = `req_routecert_${index}`;
        return HttpResponse.json({ type: 'error', error: { type: 'invalid_request_error', message: refused }, request_id: id }, { status: 400, headers: { 'request-id': id } });
      }
      const ctx = readAnthropicTurnContext(body, index, toolName);
      const turn = planTurn(options.scenario, payloads, ctx);
      options.onTurn?.(ctx, turn);
      const requestId = `req_routecert_${index}`;
      const model = options.model ?? bodyModel(body) ?? DEFAULT_MOCK_MODEL;
      const messageId = `msg_routecert_${index}`;
      switch (turn.kind) {
        case 'error':
          return HttpResponse.json(
            { type: 'error', error: { type: turn.errorType, message: turn.message }, request_id: requestId },
            { status: turn.status, headers: { 'request-id': requestId } },
          );
        case 'stall': {
          const stream = new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(encoder.encode(messageStart(messageId, model) + sseFrame('ping', { type: 'ping' })));
              // Never enqueue more and never close: the body stays unfinished.
            },
          });
          return sseResponse(stream, requestId);
        }
        case 'message': {
          const text = renderAnthropicSse(turn, { message: messageId }, model);
          const stream = new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(encoder.encode(text));
              controller.close();
            },
          });
          return sseResponse(stream, requestId);
        }
      }
    }),
  ];
}
