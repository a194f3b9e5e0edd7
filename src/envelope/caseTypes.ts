/**
 * The corpus case, as stored in fixtures/cases/** (validated by schemas/case.schema.json).
 */
import type { Envelope } from '#src/envelope/types.ts';
import type { VerdictName } from '#src/verdicts.ts';

/** One attempt of a case: the envelope plus what was sent (argv with the schema as `<schema>`, prompt). */
export interface CaseAttempt extends Envelope {
  argv?: string[];
  prompt?: string;
}

/** The expected outcome: the verdict name, and optionally the origin, value, evidence fragments, attempt. */
export interface CaseExpectation {
  verdict: VerdictName;
  origin?: string;
  value?: unknown;
  evidence?: string[];
  attempt?: number;
}

/** Where a case comes from: `recorded` from a real CLI, `documented` from vendor docs, `issue`, `generated`. */
export interface CaseProvenance {
  source: 'recorded' | 'documented' | 'issue' | 'generated';
  ref?: string;
  date: string;
  seed?: number;
  path?: string;
}

/** A corpus case (DESIGN.md "Corpus format"). */
export interface CaseFile {
  id: string;
  description: string;
  route: string;
  scenario?: string;
  cli: { name: string; version: string };
  provenance: CaseProvenance;
  contract: string;
  attempts: CaseAttempt[];
  expect: CaseExpectation;
  tags: string[];
  skip?: { reason: string; issue: string; cliRange?: string };
}
