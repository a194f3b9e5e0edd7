/**
 * Comparing a verdict with a case's expectation. Returns the mismatches, one sentence each; `[]`
 * means the verdict conforms.
 */
import { isDeepStrictEqual } from 'node:util';
import { canonicalJson } from '#src/envelope/candidates.ts';
import type { Verdict } from '#src/contract/types.ts';
import type { CaseExpectation } from '#src/envelope/caseTypes.ts';
import { clipText } from '#src/diagnostics/evidence.ts';

/**
 * The ways `verdict` differs from `expect`: verdict name, origin, value (deep, key order ignored),
 * each evidence fragment (must appear verbatim inside one evidence line), attempt index.
 */
export function compareVerdict(expect: CaseExpectation, verdict: Verdict): string[] {
  const problems: string[] = [];
  if (verdict.verdict !== expect.verdict) problems.push(`expected verdict ${expect.verdict}, got ${verdict.verdict}`);
  if (expect.origin !== undefined) {
    const origin = verdict.verdict === 'accepted' ? verdict.origin : undefined;
    if (origin !== expect.origin) problems.push(`expected origin ${expect.origin}, got ${origin ?? '(none)'}`);
  }
  if (expect.value !== undefined) {
    const value = verdict.verdict === 'accepted' || verdict.verdict === 'dropped-nonfinal' ? verdict.value : undefined;
    if (value === undefined || !isDeepStrictEqual(value, expect.value)) {
      problems.push(`expected value ${clip(canonicalJson(expect.value))}, got ${value === undefined ? '(none)' : clip(canonicalJson(value))}`);
    }
  }
  for (const fragment of expect.evidence ?? []) {
    if (!verdict.evidence.some((line) => line.includes(fragment))) {
      problems.push(`expected evidence containing ${JSON.stringify(fragment)}; evidence was: ${verdict.evidence.map((e) => JSON.stringify(e)).join(', ') || '(none)'}`);
    }
  }
  if (expect.attempt !== undefined && verdict.attempt !== expect.attempt) {
    problems.push(`expected the verdict on attempt ${expect.attempt}, got it on attempt ${verdict.attempt}`);
  }
  return problems;
}

function clip(text: string): string {
  return clipText(text, 160);
}
