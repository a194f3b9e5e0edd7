/**
 * Changes to a plan for metamorphic properties: respell the structured field, insert an answer at one
 * of the plan's places, remove `final` from every answer, replace stderr. Each returns a new plan and
 * leaves its argument alone; render it again and compute its truth again.
 */
import type { AnswerStyle, EnvelopePlan, PovAnswer, TextPlan } from '../types.ts';
import { neutralStderr } from './material.ts';

/** The same plan with the structured field spelled `key` (unchanged when it has none). */
export function respell(plan: EnvelopePlan, key: string): EnvelopePlan {
  const copy = structuredClone(plan);
  if ('structured' in copy && copy.structured) copy.structured.key = key;
  return copy;
}

function eachText(plan: EnvelopePlan): TextPlan[] {
  switch (plan.family) {
    case 'claude-code/json':
      return [plan.result];
    case 'claude-code/stream-json':
      return [...plan.events.flatMap((e) => (e.kind === 'assistant-text' ? [e.text] : [])), plan.result];
    case 'grok/json':
      return [plan.text];
    case 'cursor-agent/stream-json':
      return [plan.result];
    case 'generic':
      return [plan.text];
  }
}

function eachAnswer(plan: EnvelopePlan): PovAnswer[] {
  const out: PovAnswer[] = [];
  if ('structured' in plan && plan.structured) out.push(plan.structured.answer);
  if (plan.family === 'claude-code/stream-json') for (const e of plan.events) if (e.kind === 'tool-use') out.push(e.answer);
  for (const text of eachText(plan)) for (const { piece } of text.pieces) if (piece.kind === 'answer') out.push(piece.answer);
  return out;
}

/**
 * The same plan with the `final` member removed from every answer: final, placeholder and
 * non-boolean answers become `missing` (still shaped, never final); unshaped ones stay unshaped.
 */
export function withoutFinality(plan: EnvelopePlan): EnvelopePlan {
  const copy = structuredClone(plan);
  for (const answer of new Set(eachAnswer(copy))) {
    delete answer.value.final;
    if (answer.finality !== 'unshaped') answer.finality = 'missing';
  }
  return copy;
}

/**
 * The places where {@link insertAnswer} can put an answer in this plan: each gap of each text
 * (before, between and after its pieces), each gap between stream events (as an assistant text or a
 * tool call), and the structured field when it is empty.
 */
export function insertionPoints(plan: EnvelopePlan): number {
  let count = eachText(plan).reduce((n, t) => n + t.pieces.length + 1, 0);
  if (plan.family === 'claude-code/stream-json' && plan.body === 'events') count += 2 * (plan.events.length + 1);
  if ((plan.family === 'claude-code/json' || plan.family === 'claude-code/stream-json' || plan.family === 'grok/json') && !plan.structured) count += 1;
  return count;
}

/**
 * The same plan with `answer` (written in `style`) inserted at insertion point `at` modulo
 * {@link insertionPoints}. In a text the answer goes after a newline; a new stream event is an
 * assistant text block or a `StructuredOutput` tool call.
 */
export function insertAnswer(plan: EnvelopePlan, answer: PovAnswer, style: AnswerStyle, at: number): EnvelopePlan {
  const copy = structuredClone(plan);
  let k = at % Math.max(1, insertionPoints(copy));
  for (const text of eachText(copy)) {
    if (k <= text.pieces.length) {
      text.pieces.splice(k, 0, { sep: '\n', piece: { kind: 'answer', answer, style } });
      return copy;
    }
    k -= text.pieces.length + 1;
  }
  if (copy.family === 'claude-code/stream-json' && copy.body === 'events') {
    const gaps = copy.events.length + 1;
    if (k < 2 * gaps) {
      const event =
        k < gaps
          ? { kind: 'assistant-text' as const, text: { pieces: [{ sep: '' as const, piece: { kind: 'answer' as const, answer, style } }] } }
          : { kind: 'tool-use' as const, name: 'StructuredOutput', answer, style: { escapeUnicode: style.escapeUnicode, duplicateKeys: style.duplicateKeys } };
      copy.events.splice(k % gaps, 0, event);
      return copy;
    }
  }
  if ((copy.family === 'claude-code/json' || copy.family === 'claude-code/stream-json' || copy.family === 'grok/json') && !copy.structured) {
    copy.structured = { key: 'structured_output', answer, style: { escapeUnicode: style.escapeUnicode, duplicateKeys: style.duplicateKeys }, asString: false };
  }
  return copy;
}

/**
 * The same plan with `stderr` as its stderr. A startup rejection keeps the CLI's message as its first
 * line; any other plan gets `stderr` without the words by which Claude Code refuses to start.
 */
export function withStderr(plan: EnvelopePlan, stderr: string): EnvelopePlan {
  const copy = structuredClone(plan);
  if ((copy.family === 'claude-code/json' || copy.family === 'claude-code/stream-json') && copy.body === 'startup-rejected') {
    const message = copy.process.stderr.split('\n')[0] ?? '';
    copy.process.stderr = stderr.trim() === '' ? `${message}\n` : `${message}\n${stderr}`;
  } else {
    copy.process.stderr = neutralStderr(stderr);
  }
  return copy;
}
