/**
 * The verdicts every contract reaches the same way when a run did not produce an answer to judge:
 * a run past its deadline, a CLI that refused to start, a provider error, a crash, or nothing usable.
 * Wording and evidence follow the pov contract (./pov.ts), which follows ce-pov's skip evidence
 * (`peer skip evidence: ...`, shared/research/ce-plugin.md 1.9): short stderr stays whole, long stderr
 * is clipped (src/diagnostics/evidence.ts).
 */
import { boundedEvidence, type ClipPolicy } from '#src/diagnostics/evidence.ts';
import type { Decoded, Envelope } from '#src/envelope/types.ts';
import type { Verdict } from './types.ts';

/**
 * Bounded evidence lines for a failing verdict: `peer skip evidence: <stdout human fields or raw>`
 * and `peer skip evidence (stderr): <stderr>`, each present only when non-empty.
 */
export function failureEvidence(envelope: Envelope, decoded: Decoded, clip: ClipPolicy): string[] {
  const lines: string[] = [];
  const out = boundedEvidence({ human: decoded.human, ancillary: decoded.ancillary, raw: envelope.stdout }, clip);
  if (out !== '') lines.push(`peer skip evidence: ${out}`);
  const err = boundedEvidence({ human: [], ancillary: [], raw: envelope.stderr }, clip);
  if (err !== '') lines.push(`peer skip evidence (stderr): ${err}`);
  return lines;
}

/**
 * The verdict that comes before any reading of the answer: `timeout` when the harness ended the run
 * (its output is discarded, ce-plugin.md 1.7), `startup-rejected` when the CLI refused to start, and
 * the no-answer verdict of an incomplete stream (`Decoded.status.incomplete`). `null` when none applies.
 */
export function runFailure(envelope: Envelope, decoded: Decoded, attempt: number, clip: ClipPolicy): Verdict | null {
  if (envelope.timedOut) {
    return {
      verdict: 'timeout',
      attempt,
      evidence: [`peer exceeded its deadline after ${Math.round(envelope.elapsedMs)} ms; output discarded`, ...failureEvidence(envelope, decoded, clip)],
    };
  }
  if (decoded.status.kind === 'startup-rejected') {
    const message = decoded.status.message ?? envelope.stderr.trim();
    return { verdict: 'startup-rejected', attempt, message, evidence: [`startup rejected: ${message}`, ...failureEvidence(envelope, decoded, clip)] };
  }
  // An incomplete stream (no terminal event, a cut last line) is never accepted (issue 11).
  if (decoded.status.incomplete !== undefined) return noAnswer(envelope, decoded, attempt, clip, []);
  return null;
}

/**
 * The first evidence line of a `crashed` verdict: how the peer exited, and, for an incomplete
 * stream, why it is incomplete (`peer output is incomplete (no terminal ... event); exited with code 0`).
 */
export function crashedHead(envelope: Envelope, decoded: Decoded): string {
  const exit = envelope.signal ? `on ${envelope.signal}` : `with code ${String(envelope.exitCode)}`;
  const reason = decoded.status.incomplete;
  return reason !== undefined ? `peer output is incomplete (${reason}); exited ${exit}` : `peer exited ${exit} without an envelope`;
}

/**
 * The verdict when no answer could be used: `provider-error` when the envelope reports one, `crashed`
 * when the process died without an envelope, else `dropped-unusable` with `why` first.
 */
export function noAnswer(envelope: Envelope, decoded: Decoded, attempt: number, clip: ClipPolicy, why: string[]): Verdict {
  if (decoded.status.kind === 'provider-error') {
    const status = decoded.status.apiErrorStatus ?? null;
    return {
      verdict: 'provider-error',
      attempt,
      status,
      evidence: [`provider error${status ? ` (HTTP ${status})` : ''}`, ...failureEvidence(envelope, decoded, clip)],
    };
  }
  if (decoded.status.kind === 'crashed') {
    return {
      verdict: 'crashed',
      attempt,
      exitCode: envelope.exitCode,
      signal: envelope.signal ?? null,
      evidence: [
        crashedHead(envelope, decoded),
        ...failureEvidence(envelope, decoded, clip),
      ],
    };
  }
  return { verdict: 'dropped-unusable', attempt, evidence: [...why, ...failureEvidence(envelope, decoded, clip)] };
}
