/**
 * `routecert fuzz --config`: a property per contract of the config, on payloads generated from the
 * contract's own schema (json-schema-faker, fixed seeds, checked with ajv: src/arbitraries/schemaPayload.ts).
 *
 * Each run puts one payload in one envelope and says what the contract's definition promises:
 * - styles: Claude Code json with the payload as `structured_output` (and mirrored in `result`), the
 *   payload as the `result` text only, inside prose in `result`, and free text only (no envelope,
 *   bare or fenced, read by the generic decoder);
 * - finality (contracts with `finality: { key }`): the key `true`, `false`, missing, or the string
 *   `"true"`; only `true` may be accepted (fail closed), the others retry or are dropped non-final;
 * - accepted iff: the payload bears the anchor, its finality is `true` (or there is none), an empty
 *   anchor array only with `emptyIsAnswer`, and free text (the `result` string as much as stdout)
 *   only as `textFallback` allows; an accepted
 *   value keeps every member of the payload (publish defaults may add members).
 * Contracts read by a reply codec (`extensions.codec`) are skipped: their answers are not schema
 * payloads alone (a Markdown footer, an event with allowed kinds).
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { schemaPayload } from '#src/arbitraries/schemaPayload.ts';
import { valueAt, type DefinedContract } from '#src/contract/define.ts';
import type { Verdict } from '#src/contract/types.ts';
import { isPlainObject } from '#src/envelope/keys.ts';
import { decoderFor } from '#src/routes/registry.ts';
import type { Envelope } from '#src/envelope/types.ts';
import { judgeCase } from '#src/contract/judgeCase.ts';

/** How the payload is carried (see the module doc). */
export const PAYLOAD_STYLES = ['structured', 'result-text', 'result-prose', 'free-text', 'free-text-fenced'] as const;

/** Finality states of a generated payload. */
export const FINALITY_STATES = ['true', 'false', 'missing', 'string'] as const;

/** The result of fuzzing one contract: runs made, and the shrunk counterexample of a failure. */
export interface ContractFuzzResult {
  contract: string;
  runs: number;
  skipped: string | null;
  failure: { seed: number; path: string; counterexample: string; message: string } | null;
}

interface Sample {
  payload: unknown;
  style: (typeof PAYLOAD_STYLES)[number];
  finality: (typeof FINALITY_STATES)[number];
}

function envelopeOf(sample: Sample): { route: string; envelope: Envelope } {
  const text = JSON.stringify(sample.payload);
  const base = { stderr: '', exitCode: 0, elapsedMs: 1_000 };
  switch (sample.style) {
    case 'structured':
      return { route: 'claude-code/json', envelope: { ...base, stdout: JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: text, structured_output: sample.payload }) } };
    case 'result-text':
      return { route: 'claude-code/json', envelope: { ...base, stdout: JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: text }) } };
    case 'result-prose':
      return { route: 'claude-code/json', envelope: { ...base, stdout: JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: `Here is my answer:\n${text}\nDone.` }) } };
    case 'free-text':
      return { route: 'generic', envelope: { ...base, stdout: `Answer follows. ${text}\n` } };
    case 'free-text-fenced':
      return { route: 'generic', envelope: { ...base, stdout: `Answer follows.\n\`\`\`json\n${text}\n\`\`\`\n` } };
  }
}

/** What the definition promises for `sample` (see the module doc): `null` when accepted, else why not. */
function promise(contract: DefinedContract, sample: Sample): string | null {
  const d = contract.definition;
  const anchor = valueAt(sample.payload, d.anchorPointer);
  if (anchor === undefined) return 'the payload does not bear the anchor';
  if (Array.isArray(anchor) && anchor.length === 0 && !d.emptyIsAnswer) return 'the anchor is an empty array and emptyIsAnswer is off';
  if (d.finality !== 'none' && sample.finality !== 'true') return `finality is ${sample.finality}`;
  // Every channel but the structured field is free text: the result string (whole or in prose) too.
  if ((sample.style === 'free-text' || sample.style === 'result-text' || sample.style === 'result-prose') && d.textFallback !== 'any') return `textFallback is ${d.textFallback}`;
  if (sample.style === 'free-text-fenced' && d.textFallback === 'off') return 'textFallback is off';
  return null;
}

function withFinality(payload: unknown, key: string, state: Sample['finality']): unknown {
  if (!isPlainObject(payload)) return payload;
  const { [key]: _drop, ...rest } = payload;
  if (state === 'missing') return rest;
  return { ...rest, [key]: state === 'true' ? true : state === 'false' ? false : 'true' };
}

/** Does `verdict` keep the promise? One sentence when not. */
function check(contract: DefinedContract, sample: Sample, verdict: Verdict): string | null {
  const why = promise(contract, sample);
  if (why === null) {
    if (verdict.verdict !== 'accepted') return `expected accepted, got ${verdict.verdict}: ${verdict.evidence.join(' | ')}`;
    if (isPlainObject(sample.payload) && isPlainObject(verdict.value)) {
      for (const [k, v] of Object.entries(sample.payload)) {
        if (!isDeepStrictEqual(verdict.value[k], v)) return `the accepted value changed member "${k}"`;
      }
    }
    if ((sample.style === 'free-text' || sample.style === 'free-text-fenced') && verdict.fromText !== true) return 'an answer from free text is not marked fromText';
    return null;
  }
  if (verdict.verdict === 'accepted') return `accepted although ${why}`;
  return null;
}

/**
 * Fuzz one contract. Never throws for a contract bug: a failure is returned with its seed and path.
 *
 * @param options `seed` (fast-check), `numRuns` (@default 100), `path` (replay one counterexample).
 */
export function fuzzContract(contract: DefinedContract, options: { seed: number; numRuns?: number; path?: string }): ContractFuzzResult {
  const d = contract.definition;
  const result: ContractFuzzResult = { contract: contract.name, runs: 0, skipped: null, failure: null };
  if (d.extensions.codec) {
    result.skipped = `read by the ${d.extensions.codec.kind} codec; its answers are not schema payloads alone`;
    return result;
  }
  const finalityKey = d.finality === 'none' ? null : d.finality.key;
  const sample: fc.Arbitrary<Sample> = fc
    .record({
      payload: schemaPayload({ schema: d.schema, count: 200 }),
      style: fc.constantFrom(...PAYLOAD_STYLES),
      finality: finalityKey === null ? fc.constant('true' as const) : fc.constantFrom(...FINALITY_STATES),
    })
    .map((s) => (finalityKey === null ? s : { ...s, payload: withFinality(s.payload, finalityKey, s.finality) }));
  const property = fc.property(sample, (s) => {
    result.runs += 1;
    const { route, envelope } = envelopeOf(s);
    const verdict = judgeCase({ attempts: [envelope] }, contract, decoderFor(route)).verdict;
    const problem = check(contract, s, verdict);
    if (problem !== null) throw new Error(problem);
  });
  const details = fc.check(property, { seed: options.seed, numRuns: options.numRuns ?? 100, ...(options.path !== undefined ? { path: options.path } : {}) });
  if (details.failed) {
    result.failure = {
      seed: details.seed,
      path: details.counterexamplePath ?? '',
      counterexample: JSON.stringify(details.counterexample?.[0] ?? null).slice(0, 2_000),
      message: details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance),
    };
  }
  return result;
}
