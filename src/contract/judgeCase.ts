/**
 * Judging a whole case: every attempt in order, as a consumer would live through them. A `retry`
 * verdict moves on to the next recorded attempt (the retry on the same route); any other verdict,
 * or a retry with no further attempt recorded, is the case's verdict.
 */
import type { Decoded, Envelope, RouteDecoder } from '#src/envelope/types.ts';
import type { Contract, Verdict } from './types.ts';

/** How many candidate origins an {@link AttemptJudgement} lists at most: the first and last half of them. */
export const MAX_ORIGINS_LISTED = 100;

/**
 * What happened on one attempt: a summary of the decoding and the verdict reached on it.
 * `origins`: the origin of each candidate, in order; past {@link MAX_ORIGINS_LISTED} candidates
 * only the first and the last 50, and `originsOmitted` counts those left out between them (issue
 * 24: 500,000 candidates made a 5 MB list in report.json). `candidates` is always the whole count.
 */
export interface AttemptJudgement {
  attempt: number;
  verdict: Verdict;
  candidates: number;
  origins: string[];
  originsOmitted?: number;
  status: Decoded['status'];
  notes: string[];
  keys: string[];
}

/** The verdict of a case and the path to it. `unusedAttempts` > 0 means the case recorded attempts that were never reached. */
export interface CaseJudgement {
  verdict: Verdict;
  attempts: AttemptJudgement[];
  unusedAttempts: number;
}

/**
 * Judge `c` with `contract`, decoding each attempt with `decoder`.
 * `elapsedMs` of the attempts add up against the contract's hard window.
 */
export function judgeCase(c: { attempts: readonly Envelope[] }, contract: Contract, decoder: RouteDecoder): CaseJudgement {
  const attempts: AttemptJudgement[] = [];
  let elapsedMs = 0;
  let verdict: Verdict | undefined;
  for (let i = 0; i < c.attempts.length; i += 1) {
    const envelope = c.attempts[i]!;
    elapsedMs += envelope.elapsedMs;
    const decoded = decoder.decode(envelope, contract.decodeOptions);
    verdict = contract.judge(decoded, { attempt: i, elapsedMs });
    const all = decoded.candidates;
    const half = MAX_ORIGINS_LISTED / 2;
    const listed = all.length <= MAX_ORIGINS_LISTED ? all : [...all.slice(0, half), ...all.slice(-half)];
    attempts.push({
      attempt: i,
      verdict,
      candidates: all.length,
      origins: listed.map((x) => x.origin),
      ...(all.length > MAX_ORIGINS_LISTED ? { originsOmitted: all.length - MAX_ORIGINS_LISTED } : {}),
      status: decoded.status,
      notes: decoded.notes,
      keys: decoded.keys,
    });
    if (verdict.verdict !== 'retry') break;
  }
  return { verdict: verdict!, attempts, unusedAttempts: c.attempts.length - attempts.length };
}
