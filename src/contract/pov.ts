/**
 * The pov contract (cross-model point of view), DESIGN.md "Contracts in the mission" item 1.
 *
 * - Score per candidate that bears the anchor key `position`: 2 = schema-valid and `final === true`;
 *   1 = schema-valid apart from finality ("shaped"); 0 = bears the anchor only.
 *   Missing or non-boolean `final` is non-final: fail closed.
 * - Selection over the whole envelope; the structured field is one candidate among others and wins
 *   early only when it already scores 2; otherwise the best score wins and ties go to the later one.
 * - Non-final: one retry on the same route with a final-answer paragraph appended to the prompt,
 *   only when at least `retryMinS` of the `hardWindowS` window remain; otherwise drop with
 *   `peer skip evidence: non-final position: <first 200 chars>`.
 * - Finality is never read from prose: a settled "Blocked — ..." with `final: true` is accepted.
 *
 * Source: EveryInc/compound-engineering-plugin PR #1402/#1403 (`run_fixed_route`, `recover_pov_json`),
 * shared/research/ce-plugin.md sections 1.4, 1.8, 1.9 and 4.
 */
import type { Candidate, Decoded, Envelope } from '#src/envelope/types.ts';
import { isPlainObject } from '#src/envelope/keys.ts';
import { boundedEvidence, clipEvidence, type ClipPolicy } from '#src/diagnostics/evidence.ts';
import type { Verdict } from './types.ts';
import { compileValidator, type Validator } from './validator.ts';
import { crashedHead } from './outcome.ts';

/**
 * Time policy of the pov contract. Units are in the names.
 * - `hardWindowS`: the route's hard window (default 600 s);
 * - `retryMinS`: the least time that must remain for the retry (default 60 s);
 * - `maxAttempts`: attempts on one route, the retry included (default 2).
 */
export interface PovPolicy {
  hardWindowS: number;
  retryMinS: number;
  maxAttempts: number;
}

/** Defaults of {@link PovPolicy} (ce-pov: `CROSS_MODEL_HARD_SECS=600`, `CROSS_MODEL_RETRY_MIN_SECS=60`). */
export const DEFAULT_POV_POLICY: PovPolicy = { hardWindowS: 600, retryMinS: 60, maxAttempts: 2 };

/**
 * The paragraph appended to the prompt for the one retry after a non-final answer (wording after
 * ce-pov's retry paragraph: the previous response was not final, this one is).
 */
export const FINAL_ANSWER_ADDENDUM =
  'Your previous response set "final" to false, so it was not your settled answer. This response is the final one: ' +
  'inspect what you still need now, then return your settled position with its evidence and "final": true. ' +
  'A settled "Blocked" position counts as final.';

/** A candidate with its contract score (2, 1 or 0) and, for score 0, why it is not shaped. */
export interface ScoredCandidate {
  candidate: Candidate;
  score: 0 | 1 | 2;
  problems: string[];
}

/** Where one attempt stands: its 0-based index and the time spent on the route so far (ms). */
export interface AttemptContext {
  attempt: number;
  elapsedMs: number;
}

/** A compiled pov contract. Build with {@link povContract}. */
export interface PovContract {
  name: 'pov';
  anchor: string;
  finality: string;
  policy: PovPolicy;
  clip: ClipPolicy;
  /** Score every candidate that bears the anchor key, in envelope order. */
  score(candidates: Candidate[]): ScoredCandidate[];
  /** The chosen candidate, or `null` when none bears the anchor key. */
  select(decoded: Decoded): ScoredCandidate | null;
  /** The verdict for one attempt's envelope. Never throws. */
  judge(envelope: Envelope, decoded: Decoded, context: AttemptContext): Verdict;
}

/**
 * Compile the pov contract from its JSON Schema (draft-07).
 *
 * @param schema the production schema (schemas/contracts/pov.schema.json).
 * @throws Error when the schema does not compile with ajv.
 */
export function povContract(
  schema: Record<string, unknown>,
  options: { policy?: Partial<PovPolicy>; clip?: ClipPolicy; anchor?: string; finality?: string } = {},
): PovContract {
  const anchor = options.anchor ?? 'position';
  const finality = options.finality ?? 'final';
  const policy: PovPolicy = { ...DEFAULT_POV_POLICY, ...options.policy };
  const clip = options.clip ?? 'head-tail';
  const shaped: Validator = compileValidator(withoutFinality(schema, finality));

  const score = (candidates: Candidate[]): ScoredCandidate[] =>
    candidates
      .filter((c) => isPlainObject(c.value) && Object.hasOwn(c.value, anchor))
      .map((candidate) => {
        const problems = shaped(candidate.value);
        if (problems.length > 0) return { candidate, score: 0 as const, problems };
        const isFinal = (candidate.value as Record<string, unknown>)[finality] === true;
        return { candidate, score: isFinal ? (2 as const) : (1 as const), problems: [] };
      });

  const select = (decoded: Decoded): ScoredCandidate | null => {
    const scored = score(decoded.candidates);
    if (decoded.structured) {
      const early = scored.find((s) => s.candidate === decoded.structured);
      if (early && early.score === 2) return early;
    }
    let best: ScoredCandidate | null = null;
    for (const s of scored) if (best === null || s.score >= best.score) best = s;
    return best;
  };

  const judge = (envelope: Envelope, decoded: Decoded, context: AttemptContext): Verdict => {
    const attempt = context.attempt;
    const failureEvidence = (): string[] => {
      const lines: string[] = [];
      const out = boundedEvidence({ human: decoded.human, ancillary: decoded.ancillary, raw: envelope.stdout }, clip);
      if (out !== '') lines.push(`peer skip evidence: ${out}`);
      const err = boundedEvidence({ human: [], ancillary: [], raw: envelope.stderr }, clip);
      if (err !== '') lines.push(`peer skip evidence (stderr): ${err}`);
      return lines;
    };
    const hardMs = policy.hardWindowS * 1000;

    if (envelope.timedOut) {
      return {
        verdict: 'timeout',
        attempt,
        evidence: [`peer exceeded its deadline after ${Math.round(envelope.elapsedMs)} ms; output discarded`, ...failureEvidence()],
      };
    }
    if (decoded.status.kind === 'startup-rejected') {
      const message = decoded.status.message ?? envelope.stderr.trim();
      return { verdict: 'startup-rejected', attempt, message, evidence: [`startup rejected: ${clipEvidence(message, clip)}`, ...failureEvidence()] };
    }
    const best = select(decoded);
    // An incomplete stream (no terminal event, a cut last line) is never accepted (issue 11); it may still be retried.
    if (best && best.score === 2 && decoded.status.incomplete === undefined) {
      return {
        verdict: 'accepted',
        attempt,
        origin: best.candidate.origin,
        value: best.candidate.value,
        score: 2,
        evidence: [`accepted final ${anchor} from ${best.candidate.origin}${best.candidate.fenced ? ' (fenced)' : ''}`],
      };
    }
    if (best && best.score === 1) {
      const value = best.candidate.value as Record<string, unknown>;
      const position = String(value[anchor]);
      const remainingMs = hardMs - context.elapsedMs;
      const quoted = position.slice(0, 120);
      if (attempt + 1 < policy.maxAttempts && remainingMs >= policy.retryMinS * 1000) {
        return {
          verdict: 'retry',
          attempt,
          reason: 'non-final',
          addendum: FINAL_ANSWER_ADDENDUM,
          remainingMs,
          evidence: [
            `peer returned a non-final position ("${quoted}"); retrying once on the same route with a final-answer requirement (${Math.floor(remainingMs / 1000)}s left)`,
          ],
        };
      }
      const why =
        attempt + 1 >= policy.maxAttempts
          ? `peer returned a non-final position ("${quoted}") on its last attempt; not retrying`
          : `peer returned a non-final position ("${quoted}") with ${Math.max(0, Math.floor(remainingMs / 1000))}s of the ${policy.hardWindowS}s window left; not retrying`;
      return {
        verdict: 'dropped-nonfinal',
        attempt,
        value,
        evidence: [why, `peer skip evidence: non-final position: ${position.replace(/\r\n|\r|\n/g, ' ').slice(0, 200)}`],
      };
    }
    if (decoded.status.kind === 'provider-error') {
      return {
        verdict: 'provider-error',
        attempt,
        status: decoded.status.apiErrorStatus ?? null,
        evidence: [`provider error${decoded.status.apiErrorStatus ? ` (HTTP ${decoded.status.apiErrorStatus})` : ''}`, ...failureEvidence()],
      };
    }
    if (decoded.status.kind === 'crashed') {
      return {
        verdict: 'crashed',
        attempt,
        exitCode: envelope.exitCode,
        signal: envelope.signal ?? null,
        evidence: [crashedHead(envelope, decoded), ...failureEvidence()],
      };
    }
    const lines = ['produced no usable schema-shaped output; skipping fold-in'];
    if (best) lines.push(`best candidate (${best.candidate.origin}) is not shaped: ${best.problems.slice(0, 3).join('; ')}`);
    return { verdict: 'dropped-unusable', attempt, evidence: [...lines, ...failureEvidence()] };
  };

  return { name: 'pov', anchor, finality, policy, clip, score, select, judge };
}

/**
 * The schema with the finality key made optional and untyped, so that "shaped" (score 1) means
 * valid in every respect but finality; finality is then read as `value[finality] === true`.
 */
function withoutFinality(schema: Record<string, unknown>, finality: string): Record<string, unknown> {
  const copy = structuredClone(schema);
  if (Array.isArray(copy.required)) copy.required = copy.required.filter((k) => k !== finality);
  if (isPlainObject(copy.properties)) copy.properties = { ...copy.properties, [finality]: true };
  return copy;
}
