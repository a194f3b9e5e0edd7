/**
 * msw handlers for the Gemini API (Google AI `v1beta`), playing a {@link ScenarioName}:
 *
 * - `POST <origin>/v1beta/models/<model>:streamGenerateContent?alt=sse`: the main chat request, answered
 *   with the scenario's turn as `data:` SSE chunks of `GenerateContentResponse`;
 * - `POST <origin>/v1beta/models/<model>:generateContent`: utility calls (the model router's classifier when
 *   the CLI runs without `-m`), answered with a JSON object that satisfies the request's
 *   `generationConfig.responseJsonSchema`. Utility calls never count as scenario turns and never fail.
 *
 * Handler definitions start no server: serve them with `startLoopbackServer` (./server.ts).
 *
 * Wire facts (Gemini CLI 0.61.0 run against this mock, research/cli-envelopes.md section 4):
 * - requests carry the key in `x-goog-api-key`; the chat path is `/v1beta/models/<m>:streamGenerateContent?alt=sse`;
 * - without `-m` the router first posts `gemini-3.5-flash-lite:generateContent` with a JSON classifier
 *   prompt whose schema requires `complexity_reasoning` (string) and `complexity_score` (integer); an
 *   answer without them is logged as a ZodError and the CLI falls back to its default model;
 * - the CLI joins the `text` parts of all chunks without a separator; the last chunk carries
 *   `finishReason: "STOP"` and `usageMetadata`; `stats.models` in its envelope is keyed by `modelVersion`;
 * - an error is Google's body `{"error":{"code":400,"message":"..","status":"INVALID_ARGUMENT"}}`.
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
import { readJsonBody } from '#src/mock/requestBody.ts';

/** The path of a streamed chat request: `/v1beta/models/<model>:streamGenerateContent` (any API version). */
export const GEMINI_STREAM_PATH = /\/v1(?:alpha|beta)?\/models\/([^/:]+):streamGenerateContent$/;

/** The path of a one-shot request: `/v1beta/models/<model>:generateContent` (the router's classifier). */
export const GEMINI_GENERATE_PATH = /\/v1(?:alpha|beta)?\/models\/([^/:]+):generateContent$/;

/**
 * Google's canonical status names by HTTP status, as the Gemini API spells them in `error.status`
 * (https://cloud.google.com/apis/design/errors#handling_errors). 529 is not a Google status; the mock
 * reports it as `UNAVAILABLE`, as for 503.
 */
export const GOOGLE_STATUS_NAMES: Readonly<Record<number, string>> = Object.freeze({
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
  529: 'UNAVAILABLE',
});

/**
 * Options of {@link geminiHandlers}.
 *
 * - `scenario`: the scripted behaviour (see `SCENARIOS`).
 * - `payloads`: what the model answers; @default {@link DEFAULT_PAYLOADS}.
 * - `modelVersion`: the `modelVersion` each response reports; @default the model named in the URL.
 * - `onTurn`: called with each chat request's context and the turn answered (for logs and tests).
 * - `generateContent`: what the one-shot `:generateContent` endpoint does: `utility` (the CLI's
 *   utility calls: a schema-satisfying answer, never a scenario turn) or `scenario` (it plays the
 *   scenario like the streamed endpoint, as one `GenerateContentResponse`: what an in-process
 *   consumer such as ai-sdk-provider-gemini-cli's `generateText` calls); @default `utility`.
 */
export interface GeminiHandlersOptions {
  scenario: ScenarioName;
  generateContent?: 'utility' | 'scenario';
  payloads?: ScenarioPayloads;
  modelVersion?: string;
  onTurn?: (ctx: TurnContext, turn: Turn) => void;
}

/**
 * A {@link TurnContext} for a Gemini chat request. The Gemini CLI has no schema flag, so no
 * structured tool is ever offered (`structuredTool: null`) and the scenario answers in text;
 * `lastToolResult` and `enforceNudge` never apply. Never throws.
 */
export function readGeminiTurnContext(_body: unknown, index: number): TurnContext {
  return { index, structuredTool: null, lastToolResult: null, enforceNudge: false };
}

/** Split `s` in two halves (so clients must accumulate chunks). */
function halves(s: string): string[] {
  const mid = Math.ceil(s.length / 2);
  return s.length < 2 ? [s] : [s.slice(0, mid), s.slice(mid)];
}

function partsOf(block: TurnBlock): JsonObject[] {
  if (block.type === 'text') return halves(block.text).map((text) => ({ text }));
  return [{ functionCall: { name: block.name, args: block.input } }];
}

/** One SSE frame of a streamed Gemini response: a `data:` line, then a blank line (CRLF, as Google sends). */
function sseFrame(data: JsonObject): string {
  return `data: ${JSON.stringify(data)}\r\n\r\n`;
}

/**
 * The SSE body of one streamed Gemini answer: one chunk per part (each text block split in two
 * halves), then a last chunk with no part, `finishReason: "STOP"` and `usageMetadata`
 * (`promptTokenCount` 100, `candidatesTokenCount` ~ characters / 4).
 *
 * @param turn - a `message` turn.
 * @param modelVersion - reported in every chunk.
 */
export function renderGeminiSse(turn: Extract<Turn, { kind: 'message' }>, modelVersion: string): string {
  const parts = turn.blocks.flatMap(partsOf);
  const outputTokens = turn.blocks.reduce((n, b) => n + Math.ceil((b.type === 'text' ? b.text : JSON.stringify(b.input)).length / 4), 0);
  const chunks = parts.map((part) => sseFrame({ candidates: [{ content: { role: 'model', parts: [part] }, index: 0 }], modelVersion }));
  chunks.push(
    sseFrame({
      candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 100, candidatesTokenCount: outputTokens, totalTokenCount: 100 + outputTokens },
      modelVersion,
    }),
  );
  return chunks.join('');
}

/**
 * A JSON value that satisfies a Gemini `responseJsonSchema` / `responseSchema` (OpenAPI-style
 * upper-case types accepted): every required property gets a value, the first `enum` member wins,
 * strings read `routecert mock`, numbers are 10, booleans false, arrays empty. Used for the CLI's
 * utility calls (the router's classifier wants `complexity_reasoning` and `complexity_score`).
 */
export function satisfySchema(schema: unknown, depth = 0): unknown {
  if (typeof schema !== 'object' || schema === null || depth > 8) return 'routecert mock';
  const s = schema as Record<string, unknown>;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  const type = String(Array.isArray(s.type) ? s.type[0] : (s.type ?? (s.properties ? 'object' : 'string'))).toLowerCase();
  switch (type) {
    case 'object': {
      const properties = (typeof s.properties === 'object' && s.properties !== null ? s.properties : {}) as Record<string, unknown>;
      const required = Array.isArray(s.required) ? s.required.filter((k): k is string => typeof k === 'string') : Object.keys(properties);
      const out: Record<string, unknown> = {};
      for (const key of required) out[key] = satisfySchema(properties[key], depth + 1);
      return out;
    }
    case 'integer':
    case 'number':
      return 10;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'null':
      return null;
    default:
      return 'routecert mock';
  }
}

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } as const;


function modelOf(url: string, re: RegExp): string {
  const m = re.exec(new URL(url).pathname);
  return m?.[1] ? decodeURIComponent(m[1]) : 'gemini-mock';
}

/**
 * msw handlers for the Gemini API playing `options.scenario`. Each call returns fresh handlers with
 * their own request counter (chat requests only).
 *
 * Chat requests (`:streamGenerateContent`):
 * - a `message` turn: HTTP 200 `text/event-stream`, the chunks of {@link renderGeminiSse};
 * - an `error` turn: HTTP `status` with `{"error":{"code":status,"message":..,"status":<Google name>}}`;
 * - `stall`: HTTP 200 `text/event-stream`, one chunk with an empty text part, then nothing: the body never ends.
 *
 * Utility requests (`:generateContent`): HTTP 200 JSON `GenerateContentResponse` whose text is
 * {@link satisfySchema} of the request's response schema.
 *
 * @example
 * const server = await startLoopbackServer(geminiHandlers({ scenario: 'final' }));
 * // GOOGLE_GEMINI_BASE_URL=server.url gemini -m gemini-2.5-flash -o json < prompt
 */
export function geminiHandlers(options: GeminiHandlersOptions): RequestHandler[] {
  const payloads = options.payloads ?? DEFAULT_PAYLOADS;
  const encoder = new TextEncoder();
  let count = 0;
  /** The scenario's turn as one non-streamed response (`generateContent: 'scenario'`); a stall never answers. */
  const scenarioGenerate = async (request: Request): Promise<Response> => {
    const index = count++;
    const ctx = readGeminiTurnContext(await readJsonBody(request), index);
    const turn = planTurn(options.scenario, payloads, ctx);
    options.onTurn?.(ctx, turn);
    const modelVersion = options.modelVersion ?? modelOf(request.url, GEMINI_GENERATE_PATH);
    if (turn.kind === 'error') {
      return HttpResponse.json({ error: { code: turn.status, message: turn.message, status: GOOGLE_STATUS_NAMES[turn.status] ?? 'UNKNOWN' } }, { status: turn.status });
    }
    if (turn.kind === 'stall') return new Promise<Response>(() => undefined);
    const parts = turn.blocks.flatMap(partsOf);
    const outputTokens = turn.blocks.reduce((n, b) => n + Math.ceil((b.type === 'text' ? b.text : JSON.stringify(b.input)).length / 4), 0);
    return HttpResponse.json({
      candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 100, candidatesTokenCount: outputTokens, totalTokenCount: 100 + outputTokens },
      modelVersion,
    });
  };
  return [
    http.post(GEMINI_STREAM_PATH, async ({ request }) => {
      const index = count++;
      const body = await readJsonBody(request);
      const ctx = readGeminiTurnContext(body, index);
      const turn = planTurn(options.scenario, payloads, ctx);
      options.onTurn?.(ctx, turn);
      const modelVersion = options.modelVersion ?? modelOf(request.url, GEMINI_STREAM_PATH);
      switch (turn.kind) {
        case 'error':
          return HttpResponse.json(
            { error: { code: turn.status, message: turn.message, status: GOOGLE_STATUS_NAMES[turn.status] ?? 'UNKNOWN' } },
            { status: turn.status },
          );
        case 'stall': {
          const stream = new ReadableStream<Uint8Array>({
            start(controller) {
              // One chunk with an empty text part (so the response starts), then never more, never closed.
              controller.enqueue(encoder.encode(sseFrame({ candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, index: 0 }], modelVersion })));
            },
          });
          return new HttpResponse(stream, { status: 200, headers: SSE_HEADERS });
        }
        case 'message': {
          const text = renderGeminiSse(turn, modelVersion);
          const stream = new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(encoder.encode(text));
              controller.close();
            },
          });
          return new HttpResponse(stream, { status: 200, headers: SSE_HEADERS });
        }
      }
    }),
    http.post(GEMINI_GENERATE_PATH, async ({ request }) => {
      if (options.generateContent === 'scenario') return scenarioGenerate(request);
      const body = (await readJsonBody(request)) as { generationConfig?: { responseJsonSchema?: unknown; responseSchema?: unknown } } | null;
      const schema = body?.generationConfig?.responseJsonSchema ?? body?.generationConfig?.responseSchema;
      const answer = schema === undefined ? 'routecert mock' : JSON.stringify(satisfySchema(schema));
      const modelVersion = options.modelVersion ?? modelOf(request.url, GEMINI_GENERATE_PATH);
      return HttpResponse.json({
        candidates: [{ content: { role: 'model', parts: [{ text: answer }] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 10, totalTokenCount: 110 },
        modelVersion,
      });
    }),
  ];
}
