/**
 * The verdicts every contract reaches the same way when a run did not produce an answer to judge:
 * a run past its deadline, a CLI that refused to start, a provider error, a crash, or nothing usable.
 * The one source of these verdicts (issue 10 part 3): every contract built by defineContract
 * (./define.ts) uses them. Wording and evidence follow ce-pov's skip evidence
 * (`peer skip evidence: ...`, shared/research/ce-plugin.md 1.9): short stderr stays whole, long stderr
 * is clipped (src/diagnostics/evidence.ts), and so is the CLI's startup message.
 * They read the decoder's output only (`Decoded.run`, `status`, `human`, `ancillary`, `raw`).
 */
import { boundedEvidence, clipEvidence, errorEvidence, type ClipPolicy } from '#src/diagnostics/evidence.ts';
import type { Decoded, EnvelopeStatus, RunFacts } from '#src/envelope/types.ts';
import type { Verdict } from './types.ts';

/**
 * Bounded evidence lines for a failing verdict: `peer skip evidence: <stdout human fields or raw>`
 * and `peer skip evidence (stderr): <stderr>`, each present only when non-empty, then the CLI's own
 * error words the clipping would lose, each whole and bounded (`peer error: ...`,
 * src/diagnostics/evidence.ts `errorEvidence`).
 */
export function failureEvidence(decoded: Decoded, clip: ClipPolicy): string[] {
  const lines: string[] = [];
  const out = boundedEvidence({ human: decoded.human, ancillary: decoded.ancillary, raw: decoded.raw.stdout }, clip);
  if (out !== '') lines.push(`peer skip evidence: ${out}`);
  const err = boundedEvidence({ human: [], ancillary: [], raw: decoded.raw.stderr }, clip);
  if (err !== '') lines.push(`peer skip evidence (stderr): ${err}`);
  for (const line of errorEvidence(decoded.raw, lines, clip)) lines.push(line);
  return lines;
}

/**
 * The verdict that comes before any reading of the answer: `timeout` when the harness ended the run
 * (its output is discarded, ce-plugin.md 1.7), `startup-rejected` when the CLI refused to start
 * (`message` verbatim, its evidence line clipped). `null` when neither applies.
 */
export function runFailure(decoded: Decoded, attempt: number, clip: ClipPolicy): Verdict | null {
  if (decoded.run.timedOut) {
    return {
      verdict: 'timeout',
      attempt,
      // A capture that says it timed out but not when (`--- timed out ---`, no elapsedMs) records 0 ms: no time is said then.
      evidence: [`peer exceeded its deadline${decoded.run.elapsedMs > 0 ? ` after ${Math.round(decoded.run.elapsedMs)} ms` : ' (its elapsed time was not recorded)'}; output discarded`, ...failureEvidence(decoded, clip)],
    };
  }
  if (decoded.status.kind === 'startup-rejected') {
    const message = decoded.status.message ?? decoded.raw.stderr.trim();
    return { verdict: 'startup-rejected', attempt, message, evidence: [`startup rejected: ${clipEvidence(message, clip)}`, ...failureEvidence(decoded, clip)] };
  }
  return null;
}

/**
 * Why a run that produced an answer still says it failed, or `null`, from its status and how its
 * process ended: the envelope reports a provider error (`is_error: true`, an error event, Codex's
 * `turn.failed`), a CLI error or a crash, or the process exited non-zero or by a signal. Such a run
 * never yields an accepted answer, whatever it printed (issue 19 point 1: compound-engineering-plugin
 * #1519 rejects failed terminal envelopes before publishing; a schema-valid object beside
 * `is_error: true` is the provider's partial output). The one copy of the rule: the judge
 * ({@link runSaysFailed}) and the generators' ground truth (src/arbitraries/_internals/truth.ts) call it.
 */
export function failedRunReason(status: EnvelopeStatus, run: Pick<RunFacts, 'exitCode' | 'signal'>): string | null {
  const { kind, isError } = status;
  if (kind === 'provider-error' || kind === 'cli-error' || kind === 'crashed') return `the run reports ${kind}`;
  if (isError === true) return 'the envelope says is_error: true';
  const { exitCode, signal } = run;
  if (signal) return `the CLI ended on ${signal}`;
  if (exitCode !== null && exitCode !== 0) return `the CLI exited with code ${exitCode}`;
  return null;
}

/** {@link failedRunReason} of a decoded run (its `status` and `run`). */
export function runSaysFailed(decoded: Decoded): string | null {
  return failedRunReason(decoded.status, decoded.run);
}

/**
 * The verdict a run gets when no answer can be used, from its status alone: `provider-error` when
 * the envelope reports one, `crashed` when the process died without an envelope (or the stream is
 * incomplete), else `dropped-unusable`. The one copy of the rule ({@link noAnswer} and the
 * generators' ground truth call it).
 */
export function noAnswerVerdictName(status: EnvelopeStatus): 'provider-error' | 'crashed' | 'dropped-unusable' {
  return status.kind === 'provider-error' || status.kind === 'crashed' ? status.kind : 'dropped-unusable';
}

/**
 * The first evidence line of a `crashed` verdict: how the peer exited, and, for an incomplete
 * stream, why it is incomplete (`peer output is incomplete (no terminal ... event); exited with code 0`).
 */
export function crashedHead(decoded: Decoded): string {
  const { signal, exitCode } = decoded.run;
  const exit = signal ? `on ${signal}` : `with code ${String(exitCode)}`;
  const reason = decoded.status.incomplete;
  return reason !== undefined ? `peer output is incomplete (${reason}); exited ${exit}` : `peer exited ${exit} without an envelope`;
}

/**
 * The verdict when no answer could be used: `provider-error` when the envelope reports one, `crashed`
 * when the process died without an envelope, else `dropped-unusable` with `why` first.
 */
export function noAnswer(decoded: Decoded, attempt: number, clip: ClipPolicy, why: string[]): Verdict {
  const name = noAnswerVerdictName(decoded.status);
  if (name === 'provider-error') {
    const status = decoded.status.apiErrorStatus ?? null;
    return {
      verdict: 'provider-error',
      attempt,
      status,
      evidence: [`provider error${status ? ` (HTTP ${status})` : ''}`, ...failureEvidence(decoded, clip)],
    };
  }
  if (name === 'crashed') {
    const { signal, exitCode } = decoded.run;
    return {
      verdict: 'crashed',
      attempt,
      exitCode,
      signal,
      evidence: [crashedHead(decoded), ...failureEvidence(decoded, clip)],
    };
  }
  return { verdict: 'dropped-unusable', attempt, evidence: [...why, ...failureEvidence(decoded, clip)] };
}
