/**
 * Answers to the pov contract of a chosen finality, built from json-schema-faker payloads of
 * schemas/contracts/pov.schema.json and checked with ajv.
 */
import fc from 'fast-check';
import { InvalidPayloadError } from './errors.ts';
import { schemaPayload } from './schemaPayload.ts';
import { answerString } from './_internals/text.ts';
import { povShapedValidator, productionSchema, validatorOf } from './_internals/schemas.ts';
import { FINALITIES, type Finality, type PovAnswer } from './types.ts';
import { pushAll } from '#src/arrays.ts';

/** Constraints of {@link povAnswer}. All optional. */
export interface PovAnswerConstraints {
  /**
   * The finalities to draw from.
   * @defaultValue every {@link Finality}
   */
  finality?: Finality | readonly Finality[];
  /**
   * `unicode`: `position`, `reasoning` and `voice` may hold any code point (lone surrogates, controls,
   * quotes, backslashes, braces, fences); `ascii`: printable ASCII only.
   * @defaultValue 'unicode'
   */
  text?: 'ascii' | 'unicode';
  /**
   * First json-schema-faker seed of the base payloads (see {@link schemaPayload}).
   * @defaultValue 1
   */
  seed?: number;
}

/** How an `unshaped` answer breaks the schema (it still bears `position`). */
const BREAKAGES = ['drop-reasoning', 'bad-mode', 'evidence-not-strings', 'extra-key'] as const;

/**
 * An arbitrary of pov answers of the requested finality. Each starts from a json-schema-faker payload
 * of the pov schema, gets generated strings for `position`, `reasoning` and `voice`, then its `final`
 * member is set (`true`, `false`, removed, or a non-boolean such as `"true"`); an `unshaped` answer also
 * breaks one rule of the schema. Every answer is checked with ajv against what its finality promises
 * (valid; valid apart from `final`; invalid even without `final`): a mismatch throws
 * {@link InvalidPayloadError} instead of being filtered.
 *
 * @param constraints - {@link PovAnswerConstraints}
 * @returns an arbitrary of {@link PovAnswer}
 *
 * @example
 * fc.sample(povAnswer({ finality: 'placeholder', text: 'ascii' }), 1)[0].value.final // false
 */
export function povAnswer(constraints: PovAnswerConstraints = {}): fc.Arbitrary<PovAnswer> {
  const finalities = constraints.finality === undefined ? FINALITIES : typeof constraints.finality === 'string' ? [constraints.finality] : constraints.finality;
  const text = constraints.text ?? 'unicode';
  return fc
    .record({
      base: schemaPayload({ name: 'pov', seed: constraints.seed ?? 1 }),
      finality: fc.constantFrom(...finalities),
      position: answerString(text),
      reasoning: fc.option(answerString(text, 120), { nil: undefined }),
      voice: fc.option(answerString(text, 12), { nil: undefined }),
      nonBoolean: fc.constantFrom<unknown>('true', 1, null, 'yes', 'false'),
      unshapedFinal: fc.boolean(),
      breakage: fc.constantFrom(...BREAKAGES),
    })
    .map(({ base, finality, position, reasoning, voice, nonBoolean, unshapedFinal, breakage }) => {
      // A copy: fast-check re-applies this mapper to the same drawn record while shrinking.
      const value = structuredClone(base) as Record<string, unknown>;
      value.position = position;
      if (reasoning !== undefined) value.reasoning = reasoning;
      if (voice !== undefined) value.voice = voice;
      switch (finality) {
        case 'final':
          value.final = true;
          break;
        case 'placeholder':
          value.final = false;
          break;
        case 'missing':
          delete value.final;
          break;
        case 'non-boolean':
          value.final = nonBoolean;
          break;
        case 'unshaped':
          value.final = unshapedFinal;
          breakSchema(value, breakage);
          break;
      }
      checkAnswer({ value, finality });
      return { value, finality };
    });
}

function breakSchema(value: Record<string, unknown>, how: (typeof BREAKAGES)[number]): void {
  if (how === 'drop-reasoning') delete value.reasoning;
  else if (how === 'bad-mode') value.mode = 'nonsense';
  else if (how === 'evidence-not-strings') value.evidence = [1];
  else value.unexpected_key = 'x';
}

/**
 * Check with ajv that `answer` is what its finality promises (see {@link Finality}).
 *
 * @throws InvalidPayloadError when it is not.
 */
export function checkAnswer(answer: PovAnswer): void {
  const { value, finality } = answer;
  const full = validatorOf(productionSchema('pov'))(value);
  const shaped = povShapedValidator()(value);
  const problems: string[] = [];
  if (!Object.hasOwn(value, 'position')) problems.push('/ must have the anchor key position');
  if (finality === 'final' || finality === 'placeholder') {
    pushAll(problems, full);
    if (value.final !== (finality === 'final')) problems.push(`/final must be ${finality === 'final'}`);
  } else if (finality === 'missing' || finality === 'non-boolean') {
    pushAll(problems, shaped);
    if (finality === 'missing' && Object.hasOwn(value, 'final')) problems.push('/final must be absent');
    if (finality === 'non-boolean' && typeof value.final === 'boolean') problems.push('/final must not be a boolean');
  } else if (shaped.length === 0) {
    problems.push('/ must break the pov schema apart from final (unshaped)');
  }
  if (problems.length > 0) throw new InvalidPayloadError(`${finality} pov answer`, value, problems);
}
