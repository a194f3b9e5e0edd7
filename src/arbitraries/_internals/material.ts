/**
 * The raw material every envelope builder draws: the answers (at most one distinct final), where each
 * goes, how each is written, the prose and noise around them, and the process around stdout. Builders
 * map it onto their family's places with plain functions, so shrinking works on the material.
 */
import fc from 'fast-check';
import type { AnswerStyle, EnvelopeConstraints, Finality, PovAnswer, ProcessPlan, Separator, StructuredSlot, TextPiece, TextPlan } from '../types.ts';
import { answerStyle } from '../answerStyle.ts';
import { povAnswer } from '../povAnswer.ts';
import { proseText } from '../proseText.ts';
import { stderrText } from '../stderrText.ts';
import { noiseJson, separator } from './text.ts';

/** The spellings of the structured field a CLI may use; all fold to one key (src/envelope/keys.ts). */
export const STRUCTURED_SPELLINGS = ['structured_output', 'structuredOutput', 'StructuredOutput', 'structured-output', 'STRUCTURED_OUTPUT'] as const;

/** The outcomes a builder can be asked for (see {@link EnvelopeConstraints.outcome}). */
export type Outcome = 'final' | 'no-final' | 'failing';

/** Where one answer goes and how it is written. `slot` is reduced modulo the family's places. */
export interface Placement {
  slot: number;
  style: AnswerStyle;
  lead: TextPiece | null;
  sep: Separator;
}

/** What every builder draws. */
export interface Material {
  answers: PovAnswer[];
  placements: Placement[];
  trailing: TextPiece | null;
  trailingSep: Separator;
  mirror: boolean;
  key: string;
  asString: boolean;
  structuredFirst: boolean;
  process: ProcessPlan;
  deepNoise: number;
}

/** Constraints with their defaults filled in. */
export interface Resolved {
  maxAnswers: number;
  structured: 'any' | 'always' | 'never';
  text: 'ascii' | 'unicode';
  maxDepth: number;
  guardJsonLines: boolean;
}

/** {@link EnvelopeConstraints} with defaults. */
export function resolve(c: EnvelopeConstraints): Resolved {
  return {
    maxAnswers: Math.max(1, c.maxAnswers ?? 3),
    structured: c.structured ?? 'any',
    text: c.text ?? 'unicode',
    maxDepth: Math.max(1, c.maxDepth ?? 32),
    guardJsonLines: c.guardJsonLines ?? true,
  };
}

const NON_FINAL: readonly Finality[] = ['placeholder', 'missing', 'non-boolean', 'unshaped'];

/** The answers of one envelope, in text order, for an outcome. At most one is final. */
function answerList(outcome: Outcome, r: Resolved): fc.Arbitrary<PovAnswer[]> {
  const nonFinal = povAnswer({ finality: NON_FINAL, text: r.text });
  if (outcome === 'failing') {
    return fc.array(povAnswer({ finality: 'unshaped', text: r.text }), { minLength: r.structured === 'always' ? 1 : 0, maxLength: Math.min(2, r.maxAnswers) });
  }
  if (outcome === 'no-final') return fc.array(nonFinal, { minLength: 1, maxLength: r.maxAnswers });
  return fc
    .record({ final: povAnswer({ finality: 'final', text: r.text }), others: fc.array(nonFinal, { maxLength: r.maxAnswers - 1 }), at: fc.nat() })
    .map(({ final, others, at }) => {
      const list = [...others];
      list.splice(at % (others.length + 1), 0, final);
      return list;
    });
}

/** Prose or noise JSON, for the places between answers. */
export function filler(r: Resolved): fc.Arbitrary<TextPiece> {
  return fc.oneof(
    { weight: 3, arbitrary: proseText({ unicode: r.text === 'unicode' }).map((text): TextPiece => ({ kind: 'prose', text })) },
    { weight: 1, arbitrary: noiseJson(r.maxDepth).map((json): TextPiece => ({ kind: 'noise', json })) },
  );
}

/** Remove stderr words by which Claude Code refuses to start, so a generic stderr never reads as one. */
export function neutralStderr(stderr: string): string {
  return stderr.replace(/--json-schema is not|requires --verbose|unknown option|error: option/gi, '(redacted)');
}

/** Messages by which Claude Code refuses to start (observed with 2.1.332, shared/research/cli-envelopes.md). */
export const STARTUP_MESSAGES = [
  'Error: --json-schema is not a valid JSON Schema: strict mode: unknown keyword: "_meta"',
  'Error: --json-schema is not valid JSON: JSON Parse error: Unexpected EOF',
  'Error: When using --print, --output-format=stream-json requires --verbose',
] as const;

/** The process around stdout. A failing outcome may crash, be killed or time out; others exit 0 or 1. */
function processPlan(outcome: Outcome): fc.Arbitrary<ProcessPlan> {
  const failing = outcome === 'failing';
  const ending = failing
    ? fc.oneof(
        { weight: 3, arbitrary: fc.constant({ exitCode: 0 as number | null, signal: null as string | null, timedOut: false }) },
        { weight: 3, arbitrary: fc.constantFrom(1, 2, 137).map((exitCode) => ({ exitCode: exitCode as number | null, signal: null as string | null, timedOut: false })) },
        { weight: 1, arbitrary: fc.constantFrom('SIGKILL', 'SIGSEGV').map((signal) => ({ exitCode: null as number | null, signal: signal as string | null, timedOut: false })) },
        { weight: 1, arbitrary: fc.constant({ exitCode: null as number | null, signal: 'SIGTERM' as string | null, timedOut: true }) },
      )
    : fc.oneof({ weight: 5, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.constant(1) }).map((exitCode) => ({ exitCode: exitCode as number | null, signal: null as string | null, timedOut: false }));
  return fc
    .record({
      ending,
      stderr: fc.oneof({ weight: failing ? 1 : 4, arbitrary: fc.constant('') }, { weight: failing ? 4 : 1, arbitrary: stderrText() }),
      elapsedMs: fc.oneof(fc.integer({ min: 0, max: 600_000 }), fc.constantFrom(0, 539_999, 540_000, 540_001, 600_000)),
      bom: fc.boolean(),
      lineEnd: fc.constantFrom<'\n' | '\r\n'>('\n', '\r\n'),
      trailingNewline: fc.boolean(),
    })
    .map(({ ending, stderr, elapsedMs, bom, lineEnd, trailingNewline }) => ({ ...ending, stderr: neutralStderr(stderr), elapsedMs, bom, lineEnd, trailingNewline }));
}

/** The material for one envelope of the given outcome. */
export function material(outcome: Outcome, r: Resolved): fc.Arbitrary<Material> {
  const placement = fc.record({ slot: fc.nat({ max: 99 }), style: answerStyle(), lead: fc.option(filler(r), { nil: null }), sep: separator });
  return fc.record({
    answers: answerList(outcome, r),
    placements: fc.array(placement, { minLength: r.maxAnswers, maxLength: r.maxAnswers }),
    trailing: fc.option(filler(r), { nil: null }),
    trailingSep: separator,
    mirror: fc.boolean(),
    key: fc.constantFrom(...STRUCTURED_SPELLINGS),
    asString: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    structuredFirst: fc.boolean(),
    process: processPlan(outcome),
    deepNoise: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: r.maxDepth }) }),
  });
}

/** An empty text plan. */
export function emptyText(): TextPlan {
  return { pieces: [] };
}

/** Append one answer (after its lead filler) to a text plan. */
export function pushAnswer(text: TextPlan, answer: PovAnswer, p: Placement): void {
  if (p.lead) text.pieces.push({ sep: text.pieces.length === 0 ? '' : p.sep, piece: p.lead });
  text.pieces.push({ sep: p.sep, piece: { kind: 'answer', answer, style: p.style } });
}

/** Close a text plan with the trailing filler; a text with no piece at all gets it (or a word of prose). */
export function closeText(text: TextPlan, m: Material): TextPlan {
  if (m.trailing) text.pieces.push({ sep: m.trailingSep, piece: m.trailing });
  if (text.pieces.length === 0) text.pieces.push({ sep: '', piece: { kind: 'prose', text: 'Done.' } });
  return text;
}

/** The structured slot for an answer. */
export function slotFor(answer: PovAnswer, m: Material, p: Placement): StructuredSlot {
  return { key: m.key, answer, style: { escapeUnicode: p.style.escapeUnicode, duplicateKeys: p.style.duplicateKeys }, asString: m.asString };
}

/**
 * Place the answers: each goes to `places[slot % places.length]`; a second answer for the single
 * structured place goes to `fallback` instead. With `structured: 'always'` the first answer takes the
 * structured place.
 */
export function distribute<P extends string>(m: Material, places: readonly P[], r: Resolved, fallback: P): { answer: PovAnswer; place: P; placement: Placement }[] {
  const usable = places.filter((p) => !(p === 'structured' && r.structured === 'never'));
  let structuredTaken = false;
  return m.answers.map((answer, i) => {
    const placement = m.placements[i % m.placements.length]!;
    let place = usable[placement.slot % usable.length]!;
    if (r.structured === 'always' && i === 0 && usable.includes('structured' as P)) place = 'structured' as P;
    if (place === 'structured') {
      if (structuredTaken) place = fallback;
      else structuredTaken = true;
    }
    return { answer, place, placement };
  });
}
