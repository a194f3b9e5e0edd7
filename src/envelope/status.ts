/**
 * Status helpers the route decoders share: reading an HTTP error status from a code or an error
 * text, the `crashed` status of a run that printed nothing readable, and the `api_error_status=`
 * evidence fragment.
 */
import type { Envelope, EnvelopeStatus } from './types.ts';

/** Whether `code` is an HTTP error status (a number from 400 to 599). */
export function isHttpErrorStatus(code: unknown): code is number {
  return typeof code === 'number' && code >= 400 && code <= 599;
}

/**
 * The HTTP error status (400-599) that `pattern`'s first group captures in `text`, or `null`.
 *
 * @example
 * httpStatusIn('[API Error: 529 Overloaded]', /\[API Error: (\d{3})\b/) // 529
 */
export function httpStatusIn(text: string, pattern: RegExp): number | null {
  const m = pattern.exec(text);
  const status = m ? Number(m[1]) : NaN;
  return isHttpErrorStatus(status) ? status : null;
}

/** A provider error with `code` when it is an HTTP error status (400-599), else a CLI error; `message` verbatim. */
export function errorStatusFromCode(code: unknown, message: string): EnvelopeStatus {
  if (isHttpErrorStatus(code)) return { kind: 'provider-error', apiErrorStatus: code, message };
  return { kind: 'cli-error', message };
}

/**
 * `crashed` when the run exited non-zero or by a signal (with the trimmed `stderr` as the message
 * when there is one), else `null`. `stderr` @default the envelope's.
 */
export function crashedStatus(envelope: Envelope, stderr: string = envelope.stderr): EnvelopeStatus | null {
  if (envelope.signal || (envelope.exitCode !== null && envelope.exitCode !== 0)) {
    const message = stderr.trim();
    return message !== '' ? { kind: 'crashed', message } : { kind: 'crashed' };
  }
  return null;
}

/** Append `api_error_status=<status>` to `ancillary` when `status` is a provider error with a status. */
export function pushApiErrorStatus(status: EnvelopeStatus, ancillary: string[]): void {
  if (status.kind === 'provider-error' && status.apiErrorStatus != null) ancillary.push(`api_error_status=${status.apiErrorStatus}`);
}
