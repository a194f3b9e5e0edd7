/**
 * Rendering a plan into the envelope a CLI of that family would leave. Pure: the same plan always
 * gives the same envelope. Shapes follow shared/research/cli-envelopes.md and the corpus cases
 * (Claude Code 2.1.332 recorded; grok 1.0.4 and cursor-agent documented).
 */
import type { Envelope } from '#src/envelope/types.ts';
import type {
  ClaudeJsonPlan,
  ClaudeStreamEvent,
  ClaudeStreamPlan,
  CursorStreamPlan,
  EnvelopePlan,
  FreeTextPlan,
  GrokJsonPlan,
  ProcessPlan,
  StructuredSlot,
  TerminalFailure,
  TextPlan,
} from '../types.ts';
import { answerJson, objectText, writeJson, escapeNonAscii } from './json.ts';
import { deepJson } from './text.ts';
import { pushAll } from '#src/arrays.ts';

const UUID = '"<uuid>"';
const USAGE = '{"input_tokens":100,"output_tokens":54,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}';

/** The text of a {@link TextPlan}: each piece after its separator. */
export function renderText(plan: TextPlan): string {
  let out = '';
  for (const { sep, piece } of plan.pieces) {
    out += sep;
    if (piece.kind === 'answer') out += answerJson(piece.answer, piece.style);
    else if (piece.kind === 'prose') out += piece.text;
    else out += piece.json;
  }
  return out;
}

/** The JSON text of a structured field's value: the answer object, or that object's text as a JSON string. */
export function structuredJson(slot: StructuredSlot): string {
  let text = writeJson(slot.answer.value, false, slot.style.duplicateKeys);
  if (slot.style.escapeUnicode) text = escapeNonAscii(text);
  return slot.asString ? JSON.stringify(text) : text;
}

/** The envelope a plan renders to. */
export function renderPlan(plan: EnvelopePlan): Envelope {
  switch (plan.family) {
    case 'claude-code/json':
      return withProcess(plan.process, plan.body === 'result' ? claudeResult(plan) : '', plan.body === 'result');
    case 'claude-code/stream-json':
      return withProcess(plan.process, plan.body === 'events' ? claudeStream(plan) : '', false);
    case 'grok/json':
      return withProcess(plan.process, plan.body === 'object' ? grokObject(plan) : '', plan.body === 'object');
    case 'cursor-agent/stream-json':
      return withProcess(plan.process, plan.body === 'events' ? cursorStream(plan) : '', false);
    case 'generic':
      return withProcess(plan.process, freeText(plan), false);
  }
}

function withProcess(p: ProcessPlan, body: string, endLine: boolean): Envelope {
  let stdout = body;
  if (stdout !== '' && endLine && p.trailingNewline) stdout += p.lineEnd;
  if (stdout !== '' && p.bom) stdout = `\uFEFF${stdout}`;
  const envelope: Envelope = { stdout, stderr: p.stderr, exitCode: p.exitCode, elapsedMs: p.elapsedMs };
  if (p.signal !== null) envelope.signal = p.signal;
  if (p.timedOut) envelope.timedOut = true;
  return envelope;
}

/** Members of a Claude Code result object (`claude -p --output-format json|stream-json`). */
function claudeResultMembers(plan: ClaudeJsonPlan | ClaudeStreamPlan): [string, string][] {
  const failure = plan.failure;
  const members: [string, string][] = [['type', '"result"']];
  members.push(['subtype', failure?.kind === 'cli-error' ? '"error_max_structured_output_retries"' : '"success"']);
  members.push(['is_error', failure ? 'true' : 'false'], ['duration_ms', '1234'], ['num_turns', '2']);
  const structured: [string, string][] = plan.structured ? [[plan.structured.key, structuredJson(plan.structured)]] : [];
  if (failure?.kind === 'cli-error') {
    members.push(['errors', JSON.stringify([failure.message])]);
  } else {
    const result: [string, string] = ['result', JSON.stringify(failure ? failure.message : renderText(plan.result))];
    if (plan.structuredFirst) pushAll(members, [...structured, result]);
    else pushAll(members, [result, ...structured]);
  }
  if (failure?.kind === 'cli-error') pushAll(members, structured);
  members.push(['session_id', UUID], ['total_cost_usd', '0.00111'], ['usage', USAGE]);
  members.push(['api_error_status', failure?.kind === 'provider-error' ? String(failure.status) : 'null']);
  members.push(['terminal_reason', failure?.kind === 'provider-error' ? '"api_error"' : '"completed"']);
  if (plan.deepNoise > 0) members.push(['metadata', deepJson(plan.deepNoise, 'object')]);
  return members;
}

function claudeResult(plan: ClaudeJsonPlan): string {
  return objectText(claudeResultMembers(plan));
}

function claudeEvent(event: ClaudeStreamEvent, index: number): string {
  const assistant = (content: string) =>
    `{"type":"assistant","message":{"id":"msg_${index}","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[${content}]},"session_id":${UUID}}`;
  switch (event.kind) {
    case 'system':
      return `{"type":"system","subtype":"init","cwd":"<tmp>/work","session_id":${UUID},"tools":["Read","Bash","StructuredOutput"],"model":"claude-sonnet-4-5"}`;
    case 'assistant-text':
      return assistant(`{"type":"text","text":${JSON.stringify(renderText(event.text))}}`);
    case 'tool-use': {
      let input = writeJson(event.answer.value, false, event.style.duplicateKeys);
      if (event.style.escapeUnicode) input = escapeNonAscii(input);
      return assistant(`{"type":"tool_use","id":"toolu_${index}","name":${JSON.stringify(event.name)},"input":${input}}`);
    }
    case 'tool-result':
      return `{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_${index}","type":"tool_result","content":"Structured output provided successfully"}]},"session_id":${UUID}}`;
    case 'prose-line':
      return event.text;
    case 'blank':
      return '';
  }
}

function claudeStream(plan: ClaudeStreamPlan): string {
  const lines = plan.events.map(claudeEvent);
  const end = plan.process.lineEnd;
  if (plan.resultLine === 'absent') return lines.length === 0 ? '' : lines.join(end) + (plan.process.trailingNewline ? end : '');
  const result = objectText(claudeResultMembers(plan));
  if (plan.resultLine === 'cut') {
    const keep = Math.min(result.length - 1, Math.max(1, Math.floor(result.length * plan.cutAt)));
    return [...lines, result.slice(0, keep)].join(end);
  }
  return [...lines, result].join(end) + (plan.process.trailingNewline ? end : '');
}

function grokFailureBody(failure: TerminalFailure & { kind: 'provider-error' }, pretty: boolean, lineEnd: string): string {
  return objectText([['error', `{"code":${failure.status},"message":${JSON.stringify(failure.message)}}`]], pretty, lineEnd);
}

function grokObject(plan: GrokJsonPlan): string {
  const lineEnd = plan.process.lineEnd;
  if (plan.failure?.kind === 'provider-error') return grokFailureBody(plan.failure, plan.pretty, lineEnd);
  const members: [string, string][] = [
    [plan.textKey, JSON.stringify(renderText(plan.text))],
    ['stopReason', '"end_turn"'],
    ['sessionId', UUID],
    ['usage', '{"input_tokens":812,"output_tokens":45,"total_tokens":857}'],
    ['num_turns', '2'],
  ];
  if (plan.structured) members.push([plan.structured.key, structuredJson(plan.structured)]);
  if (plan.failure?.kind === 'cli-error') {
    if (!plan.structured) members.push(['structuredOutput', 'null']);
    members.push(['structuredOutputError', JSON.stringify(plan.failure.message)]);
  }
  return objectText(members, plan.pretty, lineEnd);
}

function cursorStream(plan: CursorStreamPlan): string {
  const end = plan.process.lineEnd;
  const failure = plan.failure;
  const text = failure ? failure.message : renderText(plan.result);
  const lines = [`{"type":"system","subtype":"init","session_id":${UUID},"model":"gpt-5"}`];
  const size = Math.max(1, Math.ceil(text.length / Math.max(1, plan.chunks)));
  for (let k = 0; k < plan.chunks && k * size < text.length; k++) {
    lines.push(`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":${JSON.stringify(text.slice(k * size, (k + 1) * size))}}]},"session_id":${UUID}}`);
  }
  const members: [string, string][] = [
    ['type', '"result"'],
    ['subtype', failure ? '"error"' : '"success"'],
    ['is_error', failure ? 'true' : 'false'],
    ['duration_ms', '1234'],
    ['result', JSON.stringify(text)],
  ];
  if (plan.structured) members.push([plan.structured.key, structuredJson(plan.structured)]);
  members.push(['session_id', UUID]);
  lines.push(objectText(members));
  return lines.join(end) + (plan.process.trailingNewline ? end : '');
}

/** True when `text` parses as one JSON object (what a JSONL reader would take for an envelope). */
function parsesAsObject(text: string): boolean {
  const t = text.trim();
  if (!t.startsWith('{')) return false;
  try {
    const v: unknown = JSON.parse(t);
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}

/**
 * Free text. With `guardJsonLines`, a line that parses as a JSON object on its own, or a whole text
 * that does, gets the prose prefix `> ` (see {@link FreeTextPlan.guardJsonLines}).
 */
function freeText(plan: FreeTextPlan): string {
  let text = renderText(plan.text);
  if (plan.process.trailingNewline && text !== '') text += plan.process.lineEnd;
  if (!plan.guardJsonLines) return text;
  text = text
    .split('\n')
    .map((line) => (parsesAsObject(line.replace(/\r$/, '')) ? `> ${line}` : line))
    .join('\n');
  return parsesAsObject(text) ? `> ${text}` : text;
}
