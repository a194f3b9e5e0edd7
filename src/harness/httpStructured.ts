/**
 * A structured call over an OpenAI-compatible Chat Completions API: the event contract's HTTP route
 * (DESIGN.md "Contracts in the mission" item 4). Two ways to ask for structure:
 * - `json_schema`: `response_format: {type: "json_schema", json_schema: {name, schema, strict: true}}`;
 *   the answer is `choices[0].message.content`;
 * - `tools`: one function whose `parameters` is the schema, forced with `tool_choice`; the answer is
 *   `choices[0].message.tool_calls[0].function.arguments`.
 * A server that answers HTTP 400 to tool calling gets the same request again in `json_schema` mode
 * (once; the path taken is recorded). Each answer goes through the contract's tolerant parser; one with
 * problems is re-asked in the same conversation (the reply, then the contract's re-ask message) at most
 * `maxRetries` times (instructor's `max_retries`; LangChain's `max_retries` of its fixing parser:
 * shared/research/anchors.md A5, A8). The transport fallback is not a re-ask. Usage of every response is
 * summed (src/policy/usage.ts), including after the re-asks run out.
 */
import type { EventReading } from '#src/contract/event.ts';
import type { Verdict } from '#src/contract/types.ts';
import { UsageLedger, type UsageTotals } from '#src/policy/usage.ts';

/** How the call asks for structure. */
export type StructuredMode = 'json_schema' | 'tools';

/** A chat message. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** What the call needs from a contract: its tolerant parser and its re-ask message (the event contract has both). */
export interface StructuredJudge {
  evaluate(text: string, origin: string): EventReading;
  reask(reading: EventReading): string;
}

/**
 * Options of {@link structuredCall}.
 * - `baseUrl`: the API base, e.g. `http://127.0.0.1:4010/v1`;
 * - `model`, `messages`: as the API takes them;
 * - `schema`, `schemaName`: the JSON Schema and its name (@default `'event'`);
 * - `mode`: the first mode tried;
 * - `maxRetries`: re-asks after an answer with problems (0 = none);
 * - `judge`: see {@link StructuredJudge};
 * - `apiKey`: sent as a bearer token; @default a dummy key (the mock takes any);
 * - `fetch`: @default the global `fetch`.
 */
export interface StructuredCallOptions {
  baseUrl: string;
  model: string;
  messages: readonly ChatMessage[];
  schema: Record<string, unknown>;
  schemaName?: string;
  mode: StructuredMode;
  maxRetries: number;
  judge: StructuredJudge;
  apiKey?: string;
  fetch?: typeof fetch;
}

/** One HTTP request of the call: its mode, the status, and, for an answer, the parser tier and problems. */
export interface StructuredRequestStep {
  mode: StructuredMode;
  status: number;
  tier?: EventReading['tier'];
  problems: string[];
}

/**
 * What a structured call came to.
 * - `verdict`: `accepted` (with `tier`), `dropped-unusable` after the re-asks ran out (with `tier`), or
 *   `provider-error`; it carries the summed `usage`;
 * - `path`: the modes taken, in order (`['json_schema']`, `['tools']`, or `['tools', 'json_schema']`);
 * - `fellBack`: the server refused tool calling and the call went on in `json_schema` mode;
 * - `reasks`: re-asks made (at most `maxRetries`);
 * - `requests`: every HTTP request, in order;
 * - `usage`: the summed usage of every response (also on the verdict).
 */
export interface StructuredCallResult {
  verdict: Verdict;
  path: StructuredMode[];
  fellBack: boolean;
  reasks: number;
  requests: StructuredRequestStep[];
  usage: UsageTotals;
}

/**
 * Make a structured call. Never throws for an HTTP or model failure (they are verdicts).
 *
 * @throws TypeError only when `fetch` itself fails (no server, network refused).
 * @example
 * const result = await structuredCall({ baseUrl, model: 'm', messages, schema, mode: 'tools', maxRetries: 2, judge: eventContract });
 * result.path // ['tools', 'json_schema'] against a server that answers 400 to tools
 */
export async function structuredCall(options: StructuredCallOptions): Promise<StructuredCallResult> {
  const doFetch = options.fetch ?? fetch;
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const name = options.schemaName ?? 'event';
  const messages: ChatMessage[] = [...options.messages];
  const ledger = new UsageLedger();
  const requests: StructuredRequestStep[] = [];
  const path: StructuredMode[] = [options.mode];
  const evidence: string[] = [];
  let mode = options.mode;
  let fellBack = false;
  let reasks = 0;

  const done = (verdict: Verdict): StructuredCallResult => {
    const usage = ledger.totals;
    return { verdict: { ...verdict, evidence: [...evidence, ...verdict.evidence], usage }, path, fellBack, reasks, requests, usage };
  };

  for (;;) {
    const attempt = requests.length;
    const body: Record<string, unknown> = { model: options.model, messages };
    if (mode === 'json_schema') body.response_format = { type: 'json_schema', json_schema: { name, schema: options.schema, strict: true } };
    else {
      body.tools = [{ type: 'function', function: { name, description: `Return the ${name} object.`, parameters: options.schema } }];
      body.tool_choice = { type: 'function', function: { name } };
    }
    const response = await doFetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${options.apiKey ?? 'sk-routecert-mock'}` },
      body: JSON.stringify(body),
    });
    const json = (await response.json().catch(() => null)) as Record<string, unknown> | null;
    ledger.add(attempt, json?.usage);
    if (!response.ok) {
      const message = errorMessage(json) ?? response.statusText;
      requests.push({ mode, status: response.status, problems: [message] });
      if (mode === 'tools' && response.status === 400) {
        evidence.push(`tools mode refused (HTTP 400: ${message}); falling back to json_schema`);
        mode = 'json_schema';
        path.push(mode);
        fellBack = true;
        continue;
      }
      return done({ verdict: 'provider-error', attempt, status: response.status, evidence: [`provider error (HTTP ${response.status}) in ${mode} mode: ${message}`] });
    }
    const { text, origin } = answerOf(json, mode);
    const reading = options.judge.evaluate(text, origin);
    requests.push({ mode, status: response.status, tier: reading.tier, problems: reading.problems });
    if (reading.problems.length === 0) {
      return done({
        verdict: 'accepted',
        attempt,
        origin: reading.origin,
        value: reading.value,
        score: reading.tier === 'strict-json' ? 2 : 1,
        tier: reading.tier,
        evidence: [`accepted ${String(reading.value.kind ?? name)} from ${reading.origin} in ${mode} mode, tier ${reading.tier}${reasks > 0 ? `, after ${reasks} re-ask(s)` : ''}`],
      });
    }
    if (reasks >= options.maxRetries) {
      return done({
        verdict: 'dropped-unusable',
        attempt,
        tier: reading.tier,
        evidence: [`no valid answer after ${reasks} re-ask(s) (max_retries ${options.maxRetries}); last answer, tier ${reading.tier}: ${reading.problems.slice(0, 3).join('; ')}`],
      });
    }
    reasks += 1;
    evidence.push(`answer ${attempt + 1} (tier ${reading.tier}) re-asked: ${reading.problems.slice(0, 2).join('; ')}`);
    messages.push({ role: 'assistant', content: text }, { role: 'user', content: options.judge.reask(reading) });
  }
}

/** The answer text of a 200 response and where it was: the tool call's arguments, else the message content. */
function answerOf(json: Record<string, unknown> | null, mode: StructuredMode): { text: string; origin: string } {
  const choices = Array.isArray(json?.choices) ? json.choices : [];
  const message = (choices[0] as { message?: { content?: unknown; tool_calls?: { function?: { arguments?: unknown } }[] } } | undefined)?.message;
  const args = message?.tool_calls?.[0]?.function?.arguments;
  if (mode === 'tools' && typeof args === 'string') return { text: args, origin: 'tool_calls[0].function.arguments' };
  return { text: typeof message?.content === 'string' ? message.content : '', origin: 'choices[0].message.content' };
}

function errorMessage(json: Record<string, unknown> | null): string | undefined {
  const error = json?.error;
  if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') return (error as { message: string }).message;
  return typeof json?.message === 'string' ? json.message : undefined;
}
