/**
 * msw handlers for the OpenAI Responses API (`POST /v1/responses`, streamed as SSE), playing a
 * {@link ScenarioName}, and enforcing OpenAI's strict structured-output rules on `text.format`
 * (./openaiStrict.ts). Handler definitions start no server: serve them to a child process with
 * `startLoopbackServer` (./server.ts).
 *
 * Wire shapes: Responses streaming as Codex 0.171.0 accepted them (research/cli-envelopes.md
 * section 3 and section 13 "Minimal mock responses"): `response.created`, `response.in_progress`,
 * then per output message `response.output_item.added`, `response.content_part.added`,
 * `response.output_text.delta` (the text in two halves), `response.output_text.done`,
 * `response.content_part.done`, `response.output_item.done`, and `response.completed` with `usage`
 * (`input_tokens`, `input_tokens_details.cached_tokens`, `output_tokens`,
 * `output_tokens_details.reasoning_tokens`, `total_tokens`). Every frame has `event:` and `data:`
 * lines and a `sequence_number`.
 *
 * How the provider-neutral turns of `planTurn` are rendered:
 * - the request never offers a structured-output *tool* (the schema travels as `text.format`), so
 *   `structuredTool` is `null` and a "tool call" turn arrives as the JSON text of the answer,
 *   which is what a model constrained by `text.format` json_schema writes;
 * - each text block becomes its own assistant `message` output item. `placeholder-then-final`
 *   therefore answers two messages in one response: the placeholder JSON as a progress message
 *   (`phase: "commentary"`), then the final JSON (`phase: "final_answer"`). A reasoning model in
 *   Codex writes progress ("commentary") messages before its final answer, and `text.format`
 *   constrains those too (openai/codex#19816), so a schema-shaped placeholder followed by the
 *   final object is what a real model does;
 * - an `error` turn is an HTTP error with OpenAI's error body
 *   `{"error":{"message","type","param":null,"code"}}`; `type` is `invalid_request_error` below 500
 *   and `server_error` from 500 up (OpenAI's spelling; the scenario's Anthropic-style `errorType`
 *   becomes the `code`);
 * - `stall`: `response.created` and `response.in_progress`, then the body never ends.
 */
import { http, HttpResponse, type RequestHandler } from 'msw';
import { checkOpenAiStrict, openAiSchemaErrorBody, type StrictViolation } from '#src/mock/openaiStrict.ts';
import {
  DEFAULT_PAYLOADS,
  planTurn,
  type JsonObject,
  type ScenarioName,
  type ScenarioPayloads,
  type Turn,
  type TurnContext,
} from '#src/mock/scenarios.ts';
import { bodyModel, readJsonBody } from '#src/mock/requestBody.ts';

/** Model id the mock reports when the request names none. */
export const DEFAULT_OPENAI_MOCK_MODEL = 'routecert-mock-model';

/**
 * Options of {@link openAiResponsesHandlers}.
 *
 * - `scenario`: the scripted behaviour (see `SCENARIOS`).
 * - `payloads`: what the model answers; @default {@link DEFAULT_PAYLOADS}.
 * - `model`: the model id reported in the response; @default the request's `model`, else
 *   {@link DEFAULT_OPENAI_MOCK_MODEL}.
 * - `enforceStrict`: refuse a `text.format` json_schema with `strict: true` that breaks OpenAI's
 *   strict rules, with HTTP 400 `invalid_json_schema`, before any scenario turn; @default `true`.
 * - `onTurn`: called with each request's context and the turn answered (for logs and tests).
 * - `onSchemaRejected`: called with the violation when a request's schema is refused.
 */
export interface OpenAiResponsesHandlersOptions {
  scenario: ScenarioName;
  payloads?: ScenarioPayloads;
  model?: string;
  enforceStrict?: boolean;
  onTurn?: (ctx: TurnContext, turn: Turn) => void;
  onSchemaRejected?: (violation: StrictViolation) => void;
}

/**
 * The `text.format` of a Responses request, when it is a json_schema format:
 * `name` (Codex 0.171.0 sends `codex_output_schema`), `strict`, and the `schema` as sent.
 */
export interface ResponsesJsonSchemaFormat {
  name: string;
  strict: boolean;
  schema: unknown;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The json_schema `text.format` of a Responses request body, or `null` (no format, another type). Never throws. */
export function readResponsesFormat(body: unknown): ResponsesJsonSchemaFormat | null {
  const format = record(record(record(body).text).format);
  if (format.type !== 'json_schema') return null;
  return { name: typeof format.name === 'string' ? format.name : 'response', strict: format.strict === true, schema: format.schema };
}

/**
 * Read a {@link TurnContext} off a Responses request body. The Responses route offers no
 * structured-output tool (the schema is `text.format`), so `structuredTool` is `null`;
 * `lastToolResult` is `null` and `enforceNudge` is `false` (Codex sends no enforcement turn).
 *
 * @param index - 0-based index of this request in the run.
 */
export function readResponsesTurnContext(_body: unknown, index: number): TurnContext {
  return { index, structuredTool: null, lastToolResult: null, enforceNudge: false };
}

/** The strict-rule violation that makes the service refuse this request, or `null`. */
export function strictRejection(body: unknown): { format: ResponsesJsonSchemaFormat; violation: StrictViolation } | null {
  const format = readResponsesFormat(body);
  if (format === null || !format.strict) return null;
  const violation = checkOpenAiStrict(format.schema)[0];
  return violation ? { format, violation } : null;
}

/** One SSE frame: `event: <type>` and `data: <json>` lines, then a blank line. */
function sseFrame(data: JsonObject): string {
  return `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Split `s` in two halves (so clients must accumulate deltas). */
function halves(s: string): string[] {
  const mid = Math.ceil(s.length / 2);
  return s.length < 2 ? [s] : [s.slice(0, mid), s.slice(mid)];
}

function responseObject(id: string, model: string, status: string, output: JsonObject[], usage: JsonObject | null): JsonObject {
  return {
    id,
    object: 'response',
    created_at: 1_796_000_000,
    status,
    model,
    output,
    parallel_tool_calls: false,
    tool_choice: 'auto',
    tools: [],
    usage,
  };
}

/** The opening frames every streamed response starts with (`response.created`, `response.in_progress`). */
function openingFrames(responseId: string, model: string, seq: { n: number }): string {
  const created = responseObject(responseId, model, 'in_progress', [], null);
  return (
    sseFrame({ type: 'response.created', sequence_number: seq.n++, response: created }) +
    sseFrame({ type: 'response.in_progress', sequence_number: seq.n++, response: created })
  );
}

/**
 * The full SSE body of one streamed Responses answer (text): one assistant `message` output item
 * per text block (progress messages `phase: "commentary"`, the last one `phase: "final_answer"`),
 * then `response.completed` with `usage`.
 *
 * @param turn - a `message` turn; tool-use blocks are written as their input's JSON text.
 * @param ids - the response id (e.g. `resp_routecert_0`); item ids are derived from it.
 * @param model - the model id to report.
 */
export function renderResponsesSse(turn: Extract<Turn, { kind: 'message' }>, ids: { response: string }, model: string): string {
  const seq = { n: 0 };
  const texts = turn.blocks.map((b) => (b.type === 'text' ? b.text : JSON.stringify(b.input)));
  const suffix = ids.response.replace(/^resp_/, '');
  const items: JsonObject[] = [];
  let body = openingFrames(ids.response, model, seq);
  texts.forEach((text, outputIndex) => {
    const itemId = `msg_${suffix}_${outputIndex}`;
    const phase = outputIndex === texts.length - 1 ? 'final_answer' : 'commentary';
    const part = { type: 'output_text', text, annotations: [] };
    const done = { id: itemId, type: 'message', status: 'completed', role: 'assistant', phase, content: [part] };
    body +=
      sseFrame({
        type: 'response.output_item.added',
        sequence_number: seq.n++,
        output_index: outputIndex,
        item: { id: itemId, type: 'message', status: 'in_progress', role: 'assistant', phase, content: [] },
      }) +
      sseFrame({
        type: 'response.content_part.added',
        sequence_number: seq.n++,
        item_id: itemId,
        output_index: outputIndex,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      }) +
      halves(text)
        .map((delta) =>
          sseFrame({ type: 'response.output_text.delta', sequence_number: seq.n++, item_id: itemId, output_index: outputIndex, content_index: 0, delta }),
        )
        .join('') +
      sseFrame({ type: 'response.output_text.done', sequence_number: seq.n++, item_id: itemId, output_index: outputIndex, content_index: 0, text }) +
      sseFrame({ type: 'response.content_part.done', sequence_number: seq.n++, item_id: itemId, output_index: outputIndex, content_index: 0, part }) +
      sseFrame({ type: 'response.output_item.done', sequence_number: seq.n++, output_index: outputIndex, item: done });
    items.push(done);
  });
  const outputTokens = texts.reduce((n, t) => n + Math.ceil(t.length / 4), 0);
  const usage = {
    input_tokens: 100,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 100 + outputTokens,
  };
  body += sseFrame({ type: 'response.completed', sequence_number: seq.n++, response: responseObject(ids.response, model, 'completed', items, usage) });
  return body;
}

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
} as const;

function openAiErrorType(status: number): string {
  return status >= 500 ? 'server_error' : 'invalid_request_error';
}

/**
 * msw handlers answering `POST .../responses` (msw path `*\/responses`: any origin and prefix; Codex 0.171.0 posts to
 * `<base_url>/responses`, i.e. `/v1/responses`) for each request, in this order:
 *
 * 1. a `text.format` json_schema with `strict: true` that breaks OpenAI's strict rules (and
 *    `enforceStrict` is on): HTTP 400 with
 *    `{"error":{"message":"Invalid schema for response_format '<name>': <rule> (JSON Pointer: \"<ptr>\")",
 *    "type":"invalid_request_error","param":"text.format.schema","code":"invalid_json_schema"}}`;
 * 2. otherwise the scripted turn of `options.scenario`:
 *    - `message`: HTTP 200 `text/event-stream`, the SSE body of {@link renderResponsesSse};
 *    - `error`: HTTP `status` with `{"error":{"message","type","param":null,"code":<errorType>}}`;
 *    - `stall`: HTTP 200 `text/event-stream`, the opening frames, then the body never ends.
 *
 * Each response carries an `x-request-id` header. Each call returns fresh handlers with their own
 * request counter.
 *
 * @example
 * const server = await startLoopbackServer(openAiResponsesHandlers({ scenario: 'final' }));
 * // model_providers.mock.base_url = `${server.url}/v1`, wire_api = "responses"
 */
export function openAiResponsesHandlers(options: OpenAiResponsesHandlersOptions): RequestHandler[] {
  const payloads = options.payloads ?? DEFAULT_PAYLOADS;
  const enforceStrict = options.enforceStrict ?? true;
  let count = 0;
  const encoder = new TextEncoder();
  return [
    http.post('*/responses', async ({ request }) => {
      const index = count++;
      const body = await readJsonBody(request);
      const requestId = `req_routecert_${index}`;
      const headers = { 'x-request-id': requestId };
      if (enforceStrict) {
        const rejected = strictRejection(body);
        if (rejected) {
          options.onSchemaRejected?.(rejected.violation);
          return HttpResponse.json(openAiSchemaErrorBody(rejected.format.name, rejected.violation), { status: 400, headers });
        }
      }
      const ctx = readResponsesTurnContext(body, index);
      const turn = planTurn(options.scenario, payloads, ctx);
      options.onTurn?.(ctx, turn);
      const model = options.model ?? bodyModel(body) ?? DEFAULT_OPENAI_MOCK_MODEL;
      const responseId = `resp_routecert_${index}`;
      switch (turn.kind) {
        case 'error':
          return HttpResponse.json(
            { error: { message: turn.message, type: openAiErrorType(turn.status), param: null, code: turn.errorType } },
            { status: turn.status, headers },
          );
        case 'stall': {
          const stream = new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(encoder.encode(openingFrames(responseId, model, { n: 0 })));
              // Never enqueue more and never close: the body stays unfinished.
            },
          });
          return new HttpResponse(stream, { status: 200, headers: { ...SSE_HEADERS, ...headers } });
        }
        case 'message': {
          const text = renderResponsesSse(turn, { response: responseId }, model);
          const stream = new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(encoder.encode(text));
              controller.close();
            },
          });
          return new HttpResponse(stream, { status: 200, headers: { ...SSE_HEADERS, ...headers } });
        }
      }
    }),
  ];
}
