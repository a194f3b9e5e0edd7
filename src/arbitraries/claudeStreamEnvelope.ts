/**
 * Envelopes of `claude -p --output-format stream-json --verbose` (route `claude-code/stream-json`).
 */
import fc from 'fast-check';
import { CLAUDE_PROVIDER_ERRORS } from './claudeJsonEnvelope.ts';
import type { ClaudeStreamEvent, ClaudeStreamPlan, EnvelopeConstraints, GeneratedEnvelope } from './types.ts';
import { byOutcome, generatedFrom } from './_internals/generated.ts';
import { closeText, distribute, emptyText, material, pushAnswer, resolve, slotFor, STARTUP_MESSAGES, type Material, type Outcome, type Resolved } from './_internals/material.ts';
import { proseWords } from './_internals/text.ts';

const FAILURES = ['prose', 'provider-error', 'cli-error', 'startup', 'cut', 'absent'] as const;
const TOOL_NAMES = ['StructuredOutput', 'StructuredOutput', 'submit_answer', 'Write'] as const;
type NoiseKind = 'system' | 'tool-result' | 'prose-line' | 'blank';

interface StreamExtras {
  mode: (typeof FAILURES)[number];
  failureIndex: number;
  toolName: number;
  opening: boolean;
  noise: { at: number; kind: NoiseKind; text: string }[];
  cutAt: number;
}

function streamPlan(outcome: Outcome, m: Material, x: StreamExtras, r: Resolved): ClaudeStreamPlan {
  const plan: ClaudeStreamPlan = {
    family: 'claude-code/stream-json',
    process: m.process,
    body: 'events',
    events: x.opening ? [{ kind: 'system' }] : [],
    resultLine: 'present',
    cutAt: x.cutAt,
    structured: null,
    structuredFirst: m.structuredFirst,
    result: emptyText(),
    failure: null,
    deepNoise: m.deepNoise,
  };
  const failing = outcome === 'failing';
  if (failing && x.mode === 'startup') {
    const message = STARTUP_MESSAGES[x.failureIndex % STARTUP_MESSAGES.length]!;
    plan.body = 'startup-rejected';
    plan.events = [];
    plan.process = { ...m.process, exitCode: 1, signal: null, timedOut: false, stderr: m.process.stderr.trim() === '' ? `${message}\n` : `${message}\n${m.process.stderr}` };
    return plan;
  }
  if (failing && x.mode === 'provider-error') plan.failure = CLAUDE_PROVIDER_ERRORS[x.failureIndex % CLAUDE_PROVIDER_ERRORS.length]!;
  if (failing && x.mode === 'cli-error') plan.failure = { kind: 'cli-error', message: 'Failed to provide valid structured output after 5 attempts' };
  // Only a non-final outcome may lose its result line: an incomplete stream is never accepted, and a
  // final outcome is accepted unless its process exits non-zero (issue 19; the truth says which).
  if (outcome !== 'final' && (x.mode === 'cut' || x.mode === 'absent')) plan.resultLine = x.mode;

  const places = plan.failure ? (['assistant-text', 'tool-use'] as const) : (['structured', 'result', 'assistant-text', 'tool-use'] as const);
  for (const { answer, place, placement } of distribute(m, places, r, 'result')) {
    if (place === 'structured') {
      plan.structured = slotFor(answer, m, placement);
    } else if (place === 'result') {
      pushAnswer(plan.result, answer, placement);
    } else if (place === 'assistant-text') {
      const text = emptyText();
      pushAnswer(text, answer, placement);
      plan.events.push({ kind: 'assistant-text', text });
    } else {
      const style = { escapeUnicode: placement.style.escapeUnicode, duplicateKeys: placement.style.duplicateKeys };
      plan.events.push({ kind: 'tool-use', name: TOOL_NAMES[x.toolName % TOOL_NAMES.length]!, answer, style }, { kind: 'tool-result' });
    }
  }
  if (plan.structured && m.mirror) {
    plan.result.pieces.push({ sep: '', piece: { kind: 'answer', answer: plan.structured.answer, style: { pretty: false, escapeUnicode: false, duplicateKeys: false, wrap: 'bare' } } });
  } else {
    closeText(plan.result, m);
  }
  for (const { at, kind, text } of x.noise) {
    const event: ClaudeStreamEvent = kind === 'prose-line' ? { kind, text } : { kind };
    plan.events.splice(at % (plan.events.length + 1), 0, event);
  }
  return plan;
}

/**
 * An arbitrary of `claude-code/stream-json` envelopes with their ground truth: JSONL events (system
 * init, assistant text blocks holding answers in prose or fences, StructuredOutput or other tool calls
 * holding answers, tool results, prose lines and blank lines between events, LF or CRLF, a BOM) ending
 * with a result line that carries the structured field (any spelling) and the `result` string. A
 * non-final or failing run may lose its result line or have it cut mid-line (pipe truncation), in which
 * case only the answers in earlier events count.
 *
 * @param constraints - {@link EnvelopeConstraints}
 * @returns an arbitrary of {@link GeneratedEnvelope}
 *
 * @example
 * fc.sample(claudeStreamEnvelope({ outcome: 'no-final' }), 1)[0].expected.verdict // 'retry' or 'dropped-nonfinal', ...
 */
export function claudeStreamEnvelope(constraints: EnvelopeConstraints = {}): fc.Arbitrary<GeneratedEnvelope> {
  const r = resolve(constraints);
  const noise = fc.record({
    at: fc.nat({ max: 20 }),
    kind: fc.constantFrom<NoiseKind>('system', 'tool-result', 'prose-line', 'blank'),
    text: proseWords(6, r.text === 'unicode'),
  });
  return byOutcome(constraints.outcome, (outcome) =>
    fc
      .record({
        m: material(outcome, r),
        x: fc.record({
          mode: fc.constantFrom(...FAILURES),
          failureIndex: fc.nat({ max: 9 }),
          toolName: fc.nat({ max: 9 }),
          opening: fc.boolean(),
          noise: fc.array(noise, { maxLength: 3 }),
          cutAt: fc.double({ min: 0.05, max: 0.95, noNaN: true }),
        }),
      })
      .map(({ m, x }) => generatedFrom(streamPlan(outcome, m, x, r))),
  );
}
