/**
 * What running one planned probe left, as recording reads it (src/record/recordProbes.ts) and the
 * probe source produces it (src/harness/probeSource.ts): declared here, below the harness.
 */
import type { CaseAttempt } from '#src/envelope/caseTypes.ts';
import type { PlannedProbe } from '#src/routes/plan.ts';

/** The outcome of running one planned probe: the attempts' envelopes, or why it could not run. */
export interface ExecutedProbe {
  route: string;
  planned: PlannedProbe;
  attempts: CaseAttempt[];
  /** Requests the mock did not expect (answered 501), as `METHOD path`. */
  unexpected: string[];
  /** Set when the probe could not be carried out (spawn failure, mock failure). */
  fault?: string;
  durationMs: number;
}
