/**
 * Scenarios: scripted model behaviours that a provider mock plays, turn by turn
 * (DESIGN.md "Words": scenario). This file is provider-neutral: it decides *what* the model says on
 * each request of a run from a small {@link TurnContext}; a provider file (e.g. `anthropic.ts`)
 * reads the context off its own wire format and renders the {@link Turn} in its own framing.
 */

/**
 * The scenario names, in the order reports list them.
 *
 * - `final`: the structured tool is called with the final payload.
 * - `placeholder-then-final`: one message with a text block holding the placeholder JSON, then the
 *   structured tool call with the final payload.
 * - `nonfinal-only`: the structured tool is called with the placeholder (`final: false`).
 * - `missing-final`: the structured tool is called with the final payload minus its `final` key, on
 *   every request (a CLI that validates client-side answers a tool error and asks again).
 * - `prose-only`: text only, never a tool call, on every request (including a CLI's enforcement turn).
 * - `fenced`: text with the final payload inside a ```json fence, never a tool call, on every request.
 * - `api-400`: the provider answers HTTP 400 `invalid_request_error` on every request.
 * - `api-529`: the provider answers HTTP 529 `overloaded_error` on every request.
 * - `stall`: the provider accepts the request, starts the stream and never finishes it.
 */
export const SCENARIOS = [
  'final',
  'placeholder-then-final',
  'nonfinal-only',
  'missing-final',
  'prose-only',
  'fenced',
  'api-400',
  'api-529',
  'stall',
] as const;

/** One of {@link SCENARIOS}. */
export type ScenarioName = (typeof SCENARIOS)[number];

/** A JSON object as the scenarios hand it to the model's tool call or text. */
export type JsonObject = Record<string, unknown>;

/**
 * What a scenario says: `final` is the settled answer, `placeholder` the non-final one
 * (POV-shaped objects for the pov contract; any JSON objects for other contracts).
 */
export interface ScenarioPayloads {
  final: JsonObject;
  placeholder: JsonObject;
  /**
   * What `prose-only` says instead of {@link PROSE_ONLY_TEXT} (a team recording plays a JSON scalar
   * such as `42` through it: `routecert record --config`).
   */
  text?: string;
  /**
   * The error `api-400` answers instead of HTTP 400 `invalid_request_error` (a team recording plays
   * HTTP 429 `rate_limit_error` through it: `routecert record --config`).
   */
  error?: { status: number; errorType: string; message: string };
}

/** Default final POV payload: schema-valid against `schemas/contracts/pov.schema.json`, `final: true`. */
export const DEFAULT_FINAL_PAYLOAD: Readonly<JsonObject> = Object.freeze({
  voice: 'peer',
  position: 'Choose A',
  reasoning: 'A keeps the decoder linear and the evidence is in src/a.ts.',
  evidence: ['src/a.ts:1'],
  external_check: 'ran',
  mode: 'independent',
  movement: 'initial',
  final: true,
});

/** Default placeholder POV payload: the final payload, still gathering evidence, `final: false`. */
export const DEFAULT_PLACEHOLDER_PAYLOAD: Readonly<JsonObject> = Object.freeze({
  ...DEFAULT_FINAL_PAYLOAD,
  position: 'blocked: gathering subject evidence',
  final: false,
});

/** Default payloads: {@link DEFAULT_FINAL_PAYLOAD} and {@link DEFAULT_PLACEHOLDER_PAYLOAD}. */
export const DEFAULT_PAYLOADS: Readonly<ScenarioPayloads> = Object.freeze({
  final: DEFAULT_FINAL_PAYLOAD,
  placeholder: DEFAULT_PLACEHOLDER_PAYLOAD,
});

/** The prose that `prose-only` answers (no JSON in it). */
export const PROSE_ONLY_TEXT =
  'I looked at the question and I think option A is the better choice, because it keeps things simple.';

/** Text the model says after its structured answer was already accepted (a courtesy turn). */
export const AFTER_ACCEPTED_TEXT = 'Done.';

/**
 * `payload` without its `final` key (the `missing-final` scenario's tool input).
 *
 * @example
 * withoutFinal({ position: 'A', final: true }) // => { position: 'A' }
 */
export function withoutFinal(payload: JsonObject): JsonObject {
  const { final: _final, ...rest } = payload;
  return rest;
}

/**
 * The text a `fenced` scenario answers: a sentence, then `payload` pretty-printed inside a
 * ```json fence, then a closing sentence.
 */
export function fencedText(payload: JsonObject): string {
  return `Here is my answer:\n\n\`\`\`json\n${JSON.stringify(payload, null, 2)}\n\`\`\`\n\nThat is my final position.`;
}

/** A content block of a model message: text, or a call of the structured-output tool. */
export type TurnBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; name: string; input: JsonObject };

/**
 * What the provider answers to one request:
 * - `message`: a streamed model message with these blocks; `stopReason` is `tool_use` when the last
 *   block is a tool call, else `end_turn`;
 * - `error`: an HTTP error with the provider's error body (`errorType` as the provider spells it);
 * - `stall`: accept the request, start the stream and never finish it.
 */
export type Turn =
  | { kind: 'message'; blocks: TurnBlock[]; stopReason: 'tool_use' | 'end_turn' }
  | { kind: 'error'; status: number; errorType: string; message: string }
  | { kind: 'stall' };

/**
 * What a scenario needs to know about one request, read off the provider's wire format.
 *
 * - `index`: 0-based index of this request among the model requests the handler has answered.
 * - `structuredTool`: the name of the structured-output tool offered in the request
 *   (`StructuredOutput` for Claude Code 2.1.332), or `null` when none is offered.
 * - `lastToolResult`: the result of the structured tool in the last user message, when there is one:
 *   `isError: true` when the CLI rejected the tool input (e.g. it failed the schema), else the tool
 *   call was accepted and the model should just close the turn.
 * - `enforceNudge`: the last user message is a CLI's nudge to call the tool (Claude Code 2.1.332
 *   sends `[structured-output-enforce] You MUST call the StructuredOutput tool ...`).
 */
export interface TurnContext {
  index: number;
  structuredTool: string | null;
  lastToolResult: { isError: boolean; content: string } | null;
  enforceNudge: boolean;
}

function toolOrText(ctx: TurnContext, leading: TurnBlock[], input: JsonObject): Turn {
  if (ctx.structuredTool === null) {
    // No structured tool offered (no schema): the model can only say its answer as text.
    return {
      kind: 'message',
      blocks: [...leading, { type: 'text', text: JSON.stringify(input) }],
      stopReason: 'end_turn',
    };
  }
  return {
    kind: 'message',
    blocks: [...leading, { type: 'tool_use', name: ctx.structuredTool, input }],
    stopReason: 'tool_use',
  };
}

function text(t: string): Turn {
  return { kind: 'message', blocks: [{ type: 'text', text: t }], stopReason: 'end_turn' };
}

/**
 * The scripted answer of `scenario` to one request. Pure: the same inputs give the same turn, so
 * every request of a run is answered deterministically (a CLI's retries get the same answer again).
 *
 * Rules, in order:
 * 1. `api-400`, `api-529`, `stall` answer the same on every request.
 * 2. When the last user message holds an accepted (non-error) structured tool result, the model
 *    closes the turn with {@link AFTER_ACCEPTED_TEXT}.
 * 3. Otherwise the scenario's answer (see {@link SCENARIOS}), the same on every request.
 *
 * @example
 * planTurn('final', DEFAULT_PAYLOADS, { index: 0, structuredTool: 'StructuredOutput', lastToolResult: null, enforceNudge: false })
 * // => { kind: 'message', blocks: [{ type: 'tool_use', name: 'StructuredOutput', input: {...final} }], stopReason: 'tool_use' }
 */
export function planTurn(scenario: ScenarioName, payloads: ScenarioPayloads, ctx: TurnContext): Turn {
  switch (scenario) {
    case 'api-400':
      if (payloads.error) return { kind: 'error', ...payloads.error };
      return {
        kind: 'error',
        status: 400,
        errorType: 'invalid_request_error',
        message: 'routecert mock: invalid request (scenario api-400)',
      };
    case 'api-529':
      return { kind: 'error', status: 529, errorType: 'overloaded_error', message: 'Overloaded' };
    case 'stall':
      return { kind: 'stall' };
    default:
      break;
  }
  if (ctx.lastToolResult !== null && !ctx.lastToolResult.isError) return text(AFTER_ACCEPTED_TEXT);
  switch (scenario) {
    case 'final':
      return toolOrText(ctx, [], payloads.final);
    case 'placeholder-then-final':
      return toolOrText(ctx, [{ type: 'text', text: JSON.stringify(payloads.placeholder) }], payloads.final);
    case 'nonfinal-only':
      return toolOrText(ctx, [], payloads.placeholder);
    case 'missing-final':
      return toolOrText(ctx, [], withoutFinal(payloads.final));
    case 'prose-only':
      return text(payloads.text ?? PROSE_ONLY_TEXT);
    case 'fenced':
      return text(fencedText(payloads.final));
  }
}

/**
 * Type guard: is `name` one of {@link SCENARIOS}?
 */
export function isScenarioName(name: string): name is ScenarioName {
  return (SCENARIOS as readonly string[]).includes(name);
}
