/**
 * Content-hash case ids: stable across machines and runs, so two reports can be diffed case by case.
 * Rule: the first 16 hex digits of sha256 over the canonical JSON (keys sorted at every level) of
 * `{ attempts, contract, expect }` (DESIGN.md "Corpus format").
 */
import { createHash } from 'node:crypto';
import { writeCanonicalJson } from '#src/envelope/candidates.ts';
import type { CaseFile } from '#src/envelope/caseTypes.ts';

/**
 * The id a case must carry. The canonical JSON is hashed a piece at a time, never built whole, so
 * the id of a case holding a 100 MB envelope costs no copy of it (issue 15).
 */
export function caseId(c: Pick<CaseFile, 'attempts' | 'contract' | 'expect'>): string {
  const hash = createHash('sha256');
  writeCanonicalJson({ attempts: c.attempts, contract: c.contract, expect: c.expect }, (chunk) => hash.update(chunk, 'utf8'));
  return hash.digest('hex').slice(0, 16);
}
