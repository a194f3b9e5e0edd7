/**
 * Content-hash case ids: stable across machines and runs, so two reports can be diffed case by case.
 * Rule: the first 16 hex digits of sha256 over the canonical JSON (keys sorted at every level) of
 * `{ attempts, contract, expect }` (DESIGN.md "Corpus format").
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '#src/envelope/candidates.ts';
import type { CaseFile } from './caseTypes.ts';

/** The id a case must carry. */
export function caseId(c: Pick<CaseFile, 'attempts' | 'contract' | 'expect'>): string {
  const text = canonicalJson({ attempts: c.attempts, contract: c.contract, expect: c.expect });
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);
}
