/**
 * Property `placeholder-insertion`: a final answer, wherever it sits, is never displaced by a
 * non-final placeholder (`final: false`, missing or non-boolean `final`) inserted anywhere in the
 * envelope: before or after it, in another event, in the empty structured field.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { answerStyle } from '#src/arbitraries/answerStyle.ts';
import { checkAnswer, povAnswer } from '#src/arbitraries/povAnswer.ts';
import { routeEnvelope } from '#src/arbitraries/routeEnvelope.ts';
import { answerJson } from '#src/arbitraries/_internals/json.ts';
import { renderPlan } from '#src/arbitraries/_internals/render.ts';
import { insertAnswer } from '#src/arbitraries/_internals/transform.ts';
import { expectedOf } from '#src/arbitraries/_internals/truth.ts';
import type { AnswerStyle, Expected, PovAnswer } from '#src/arbitraries/types.ts';
import { canonicalJson } from '#src/envelope/candidates.ts';
import { isPlainObject } from '#src/envelope/keys.ts';
import type { Envelope } from '#src/envelope/types.ts';
import { describeSample, judgeAttempts, sampleFromCase, sampleOf, usableCases } from './samples.ts';
import type { PropertyEnv, RoutecertProperty, Sample } from './types.ts';

/** Input: an accepted sample, the placeholder, how it is written, and where it goes. */
export interface PlaceholderInsertion {
  sample: Sample;
  placeholder: PovAnswer;
  style: AnswerStyle;
  /** Insertion point (modulo the plan's points); for a corpus case, even = before the text, odd = after. */
  at: number;
}

/** The placeholder used with corpus examples (the wording of Claude Code's non-final answers in the corpus). */
const CORPUS_PLACEHOLDER: PovAnswer = {
  finality: 'placeholder',
  value: { voice: 'peer', position: 'blocked: gathering subject evidence', reasoning: 'Still reading the code.', evidence: [], external_check: 'unavailable', mode: 'independent', movement: 'initial', final: false },
};
const TEXT_FIELDS = ['result', 'text', 'response'];

/** Put `json` before or after the string field of the last JSON object of `stdout` that has one. */
function insertIntoText(stdout: string, json: string, before: boolean): string | null {
  const bom = stdout.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = stdout.slice(bom.length);
  const edit = (line: string): string | null => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return null;
    }
    if (!isPlainObject(value)) return null;
    const field = TEXT_FIELDS.find((f) => typeof value[f] === 'string');
    if (!field) return null;
    value[field] = before ? `${json}\n${value[field] as string}` : `${value[field] as string}\n${json}`;
    return JSON.stringify(value);
  };
  const whole = edit(body);
  if (whole !== null) return bom + whole + (body.endsWith('\n') ? '\n' : '');
  const lines = body.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const cr = lines[i]!.endsWith('\r') ? '\r' : '';
    const edited = edit(lines[i]!.slice(0, lines[i]!.length - cr.length));
    if (edited !== null) {
      lines[i] = edited + cr;
      return bom + lines.join('\n');
    }
  }
  return null;
}

/** The attempts with the placeholder inserted (in the last attempt for a corpus case), or null when it has no text to put it in. */
function inserted(input: PlaceholderInsertion): Envelope[] | null {
  const { sample, placeholder, style, at } = input;
  if (sample.plan) return [renderPlan(insertAnswer(sample.plan, placeholder, style, at))];
  const last = sample.attempts[sample.attempts.length - 1];
  if (!last) return null;
  const stdout = insertIntoText(last.stdout, answerJson(placeholder, style), at % 2 === 0);
  return stdout === null ? null : [...sample.attempts.slice(0, -1), { ...last, stdout }];
}

/**
 * What the envelope must get once the placeholder is in: for a generated sample, the ground truth of
 * the changed plan (the judge's own rules, src/arbitraries/_internals/truth.ts); for a corpus case,
 * its stated verdict.
 */
function expectedAfter(input: PlaceholderInsertion): Expected {
  const { sample } = input;
  return sample.plan ? expectedOf(insertAnswer(sample.plan, input.placeholder, input.style, input.at)) : sample.expected;
}

/**
 * The final answer must survive the insertion. An accepted sample stays accepted with the same value
 * (else the generator is wrong), and the judge reaches the ground truth of the changed envelope: for
 * a final answer from a run that says it failed (a non-zero exit, issue 19) that is a no-answer
 * verdict, never the `retry` a displacing placeholder would bring (the placeholder may still change
 * which one: a second JSON document costs the generic route its one-document envelope).
 */
function failure(input: PlaceholderInsertion, env: PropertyEnv): string | null {
  const { sample } = input;
  const truth = expectedAfter(input);
  if ((truth.verdict === 'accepted') !== (sample.expected.verdict === 'accepted') || !isDeepStrictEqual(truth.value, sample.expected.value)) {
    return `generator bug: inserting a placeholder changed the ground truth from ${sample.expected.verdict} to ${truth.verdict}`;
  }
  const attempts = inserted(input);
  if (!attempts) return null;
  const v = judgeAttempts(sample.route, attempts, env);
  if (v.verdict !== truth.verdict) return `the final answer was displaced: ${v.verdict}, expected ${truth.verdict} (${v.evidence.join(' | ').slice(0, 300)})`;
  if (v.verdict === 'accepted' && !isDeepStrictEqual(v.value, truth.value)) return `another value was accepted: ${canonicalJson(v.value).slice(0, 300)}`;
  return null;
}

/** See the file comment. */
export const placeholderInsertionProperty: RoutecertProperty<PlaceholderInsertion> = {
  name: 'placeholder-insertion',
  summary: 'inserting a non-final placeholder anywhere never displaces a final answer',
  numRuns: 80,
  arbitrary: () =>
    fc.record({
      sample: routeEnvelope({ outcome: 'final' }).map(sampleOf),
      placeholder: povAnswer({ finality: ['placeholder', 'missing', 'non-boolean'] }),
      style: answerStyle(),
      at: fc.nat(),
    }),
  examples: (cases) => {
    checkAnswer(CORPUS_PLACEHOLDER);
    return usableCases(cases)
      .filter((c) => c.case.expect.verdict === 'accepted' && c.case.expect.value !== undefined)
      .map(sampleFromCase)
      .flatMap((sample) => [0, 1].map((at) => ({ sample, placeholder: CORPUS_PLACEHOLDER, style: { pretty: false, escapeUnicode: false, duplicateKeys: false, wrap: 'bare' as const }, at })))
      .filter((input) => inserted(input) !== null);
  },
  check(input, env) {
    const problem = failure(input, env);
    if (problem) throw new Error(problem);
  },
  regression(input) {
    const attempts = inserted(input);
    if (!attempts) return { refused: 'the envelope has no text to insert the placeholder into' };
    return {
      route: input.sample.route,
      description: `a ${input.placeholder.finality} placeholder inserted beside the final answer must not displace it`,
      attempts,
      expect: (({ verdict, value }) => (value ? { verdict, value } : { verdict }))(expectedAfter(input)),
      tags: ['placeholder-then-final'],
    };
  },
  describe: (input) => `${describeSample(input.sample)}; insert a ${input.placeholder.finality} placeholder at point ${input.at}`,
};
