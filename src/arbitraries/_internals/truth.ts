/**
 * The ground truth of a plan: which answers the route reads, and the verdict the pov contract must
 * reach on them. Computed from how the plan was built (where each answer was put and what finality it
 * was built with), never by running a decoder or a contract.
 *
 * Rules (DESIGN.md "Contracts in the mission" item 1; src/contract/pov.ts):
 * 1. a timed-out run is `timeout`; a CLI that refused its schema at startup is `startup-rejected`;
 * 2. any read final answer makes the verdict `accepted` with that answer (a plan holds at most one
 *    distinct final answer, possibly in several places);
 * 3. else any read shaped answer (placeholder, missing or non-boolean `final`) is non-final: `retry`
 *    while at least 60 s of the 600 s window remain, else `dropped-nonfinal`;
 * 4. else the run's own failure: `provider-error` for an API error the envelope reports, `crashed`
 *    for a signal or a non-zero exit without an envelope, or for an incomplete stream (a cut result
 *    line, or JSON events without their result line: issue 11, never accepted), otherwise
 *    `dropped-unusable`. A non-zero exit without an envelope whose stderr is the CLI's argument
 *    parser refusing its command line is `startup-rejected`.
 *
 * The run's own failure (rule 4) reads stdout and stderr with the very rules the decoders use, not a
 * second copy of them, so the truth and a decoder cannot disagree on what a text looks like (issue 24:
 * a prose line `[warn] I` last in a stream reads as a cut JSON array to the JSONL reader): whether
 * stdout is cut, and which lines are JSON events, come from the JSONL reader
 * (src/envelope/jsonl.ts); crashed or startup-rejected from the shared status rule
 * (`crashedStatus`, src/envelope/status.ts, with the route's own refusal lines). Where the answers
 * are (rules 2 and 3) stays a fact of how the plan was built.
 *
 * Which places a route reads (shared/research/cli-envelopes.md): Claude Code reads the structured field
 * and `result` of its result line, and in stream-json also assistant text blocks and tool calls;
 * grok reads `text` and `structuredOutput`; cursor-agent reads its result line (its assistant chunks
 * are slices of the same text, so they add no answer); the generic route reads free text.
 */
import { DEFAULT_POV_POLICY } from '#src/contract/pov.ts';
import type { EnvelopePlan, Expected, PovAnswer, TextPlan } from '../types.ts';
import { jsonEvents, readJsonDocuments } from '#src/envelope/jsonl.ts';
import { crashedStatus, schemaRefusedStatus } from '#src/envelope/status.ts';
import type { EnvelopeStatus } from '#src/envelope/types.ts';
import { failedRunReason, noAnswerVerdictName } from '#src/contract/outcome.ts';
import { CLAUDE_STARTUP_REJECTION } from '#src/routes/claude/decoder.ts';
import { renderPlan } from './render.ts';

function textAnswers(text: TextPlan): PovAnswer[] {
  return text.pieces.flatMap(({ piece }) => (piece.kind === 'answer' ? [piece.answer] : []));
}

/** The answers the plan's route reads, in no particular order. */
export function answersRead(plan: EnvelopePlan): PovAnswer[] {
  switch (plan.family) {
    case 'claude-code/json':
      if (plan.body !== 'result') return [];
      return [...(plan.structured ? [plan.structured.answer] : []), ...(plan.failure ? [] : textAnswers(plan.result))];
    case 'claude-code/stream-json': {
      if (plan.body !== 'events') return [];
      const events = plan.events.flatMap((e) => (e.kind === 'assistant-text' ? textAnswers(e.text) : e.kind === 'tool-use' ? [e.answer] : []));
      if (plan.resultLine !== 'present') return events;
      return [...events, ...(plan.structured ? [plan.structured.answer] : []), ...(plan.failure ? [] : textAnswers(plan.result))];
    }
    case 'grok/json':
      if (plan.body !== 'object' || plan.failure?.kind === 'provider-error') return [];
      return [...(plan.structured ? [plan.structured.answer] : []), ...textAnswers(plan.text)];
    case 'cursor-agent/stream-json':
      if (plan.body !== 'events') return [];
      return [...(plan.structured ? [plan.structured.answer] : []), ...(plan.failure ? [] : textAnswers(plan.result))];
    case 'generic':
      return textAnswers(plan.text);
  }
}

/** Does the route find a terminal envelope object in stdout (a result line, grok's object)? */
function hasTerminal(plan: EnvelopePlan): boolean {
  switch (plan.family) {
    case 'claude-code/json':
      return plan.body === 'result';
    case 'claude-code/stream-json':
      return plan.body === 'events' && plan.resultLine === 'present';
    case 'grok/json':
      return plan.body === 'object';
    case 'cursor-agent/stream-json':
      return plan.body === 'events';
    case 'generic': {
      // The generic route's terminal object is stdout's one JSON document, stray non-JSON lines
      // around it read past (issue 11: a stray line is evidence, never a reason to lose the envelope).
      const docs = readJsonDocuments(renderPlan(plan).stdout);
      const value = docs.framing === 'whole' ? docs.documents[0]?.value : undefined;
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    }
  }
}

/**
 * Is the plan an incomplete stream: a Claude Code stream-json run whose result line is cut, whose
 * last line the JSONL reader takes for cut JSON, or whose result line is absent after at least one
 * JSON event (the reader decides what a JSON event is: prose and blank lines are not)?
 */
function incomplete(plan: EnvelopePlan): boolean {
  if (plan.family !== 'claude-code/stream-json' || plan.body !== 'events') return false;
  if (plan.resultLine === 'cut') return true;
  const docs = readJsonDocuments(renderPlan(plan).stdout);
  return docs.truncated || (plan.resultLine === 'absent' && jsonEvents(docs).length > 0);
}

/**
 * The status the route's decoder gives the plan, built with the decoders' own status rules: a
 * provider failure the terminal object reports goes through `schemaRefusedStatus` (a 400 naming the
 * schema or a tool's `input_schema` is `startup-rejected`, issue 21 point 1), a CLI failure is a
 * `cli-error`; an incomplete stream is `crashed`; a run without a terminal object gets the shared
 * `crashedStatus` (Claude Code's decoder adds its own refusal lines); else `ok`.
 */
function statusOf(plan: EnvelopePlan): EnvelopeStatus {
  const claude = plan.family === 'claude-code/json' || plan.family === 'claude-code/stream-json';
  if (claude && plan.body === 'startup-rejected') return { kind: 'startup-rejected' };
  if (incomplete(plan)) return { kind: 'crashed', incomplete: 'incomplete stream' };
  if (hasTerminal(plan)) {
    const failure = 'failure' in plan ? plan.failure : null;
    if (failure?.kind === 'provider-error') {
      // A schema refusal counts only before any model turn (assistant text or a tool call), as the decoders read it.
      const modelTurn = plan.family === 'claude-code/stream-json' && plan.body === 'events' && plan.events.some((e) => e.kind === 'assistant-text' || e.kind === 'tool-use');
      return schemaRefusedStatus({ kind: 'provider-error', apiErrorStatus: failure.status, message: failure.message, isError: true }, [], modelTurn);
    }
    if (failure?.kind === 'cli-error') return { kind: 'cli-error', message: failure.message, isError: true };
    return { kind: 'ok' };
  }
  const envelope = renderPlan(plan);
  return crashedStatus(envelope, envelope.stderr, claude ? CLAUDE_STARTUP_REJECTION : []) ?? { kind: 'ok' };
}

/**
 * The verdict (and accepted value) the plan implies; see the rules at the top of this file. The
 * judge's rules are called, not copied: a final answer from a run that says it failed is not accepted
 * (`failedRunReason`), and a run without a usable answer gets `noAnswerVerdictName` of its status
 * (src/contract/outcome.ts), the order being the judge's (src/contract/define.ts).
 */
export function expectedOf(plan: EnvelopePlan): Expected {
  const p = plan.process;
  if (p.timedOut) return { verdict: 'timeout' };
  const status = statusOf(plan);
  if (status.kind === 'startup-rejected') return { verdict: 'startup-rejected' };
  const read = answersRead(plan);
  const final = read.find((a) => a.finality === 'final');
  if (final) {
    if (status.incomplete === undefined && failedRunReason(status, p) === null) return { verdict: 'accepted', value: final.value };
    return { verdict: noAnswerVerdictName(status) };
  }
  if (read.some((a) => a.finality !== 'unshaped')) {
    const remainingMs = DEFAULT_POV_POLICY.hardWindowS * 1000 - p.elapsedMs;
    return { verdict: remainingMs >= DEFAULT_POV_POLICY.retryMinS * 1000 ? 'retry' : 'dropped-nonfinal' };
  }
  return { verdict: noAnswerVerdictName(status) };
}
