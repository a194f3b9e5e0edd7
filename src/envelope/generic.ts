/**
 * The generic decoder: any CLI whose answer sits in a structured field (any key spelling), in a
 * string field of its last JSON object (`result`, `text`, `response`), or in free text.
 * Also the decoder of the documented-only routes (xAI grok `--json-schema`, cursor-agent), whose
 * shapes come from vendor docs and public bug reports (shared/research/cli-envelopes.md 9b, 10).
 */
import { readJsonDocuments } from './jsonl.ts';
import { candidatesFromStructured, candidatesFromText, dedupeCandidates } from './candidates.ts';
import { findKeys, isPlainObject, pointerToken } from './keys.ts';
import type { Candidate, Decoded, DecodeOptions, Envelope, EnvelopeStatus, RouteDecoder } from './types.ts';

/**
 * Options of {@link genericDecoder}.
 * - `structuredKeys`: names of the structured field, spelling-insensitive
 *   (default `structured_output`, `structured_result`);
 * - `errorKeys`: names of a field that carries the CLI's structured-output failure message
 *   (default `structured_output_error`, i.e. grok's `structuredOutputError`);
 * - `textFields`: string fields of the terminal object scanned for JSON (default `result`, `text`, `response`);
 * - `terminalType`: when set, the terminal object is the last one with this `type` (e.g. `result`);
 *   otherwise the last JSON object in stdout.
 */
export interface GenericDecoderOptions {
  structuredKeys?: readonly string[];
  errorKeys?: readonly string[];
  textFields?: readonly string[];
  terminalType?: string;
  header?: string;
}

/**
 * Build a decoder for `route` that reads answers where {@link GenericDecoderOptions} says.
 *
 * @example
 * const grok = genericDecoder('grok/json', { header: 'xAI grok --json-schema (documented)' });
 */
export function genericDecoder(route: string, options: GenericDecoderOptions = {}): RouteDecoder {
  const structuredKeys = options.structuredKeys ?? ['structured_output', 'structured_result'];
  const errorKeys = options.errorKeys ?? ['structured_output_error'];
  const textFields = options.textFields ?? ['result', 'text', 'response'];
  return {
    route,
    header: options.header ?? `generic (${route})`,
    detect: () => true,
    decode: (envelope, decodeOptions: DecodeOptions = {}) => {
      const anchor = decodeOptions.anchor;
      const docs = readJsonDocuments(envelope.stdout);
      const notes = [...docs.notes];
      const candidates: Candidate[] = [];
      let structured: Candidate | undefined;
      let terminal: { value: Record<string, unknown>; line: number; offset: number } | undefined;
      for (const doc of docs.documents) {
        if (!isPlainObject(doc.value)) continue;
        if (options.terminalType === undefined || doc.value.type === options.terminalType) {
          terminal = { value: doc.value, line: doc.line, offset: doc.offset };
        }
      }
      const event = (line: number) => (docs.framing === 'lines' ? { event: line } : {});
      const human: string[] = [];
      const ancillary: string[] = [];
      let status: EnvelopeStatus = { kind: 'ok' };

      if (terminal) {
        const t = terminal.value;
        for (const key of findKeys(t, structuredKeys)) {
          const found = candidatesFromStructured(t[key], { origin: key, pointer: `/${pointerToken(key)}`, offset: terminal.offset, ...event(terminal.line) });
          if (found[0] && !structured) structured = found[0];
          candidates.push(...found);
        }
        for (const field of findKeys(t, textFields)) {
          const value = t[field];
          if (typeof value === 'string') {
            candidates.push(...candidatesFromText(value, { origin: field, pointer: `/${pointerToken(field)}`, offset: terminal.offset, ...event(terminal.line) }, anchor));
          }
        }
        for (const field of [t.result, t.message, isPlainObject(t.error) ? t.error.message : t.error]) {
          if (typeof field === 'string' && field.trim() !== '') human.push(field);
        }
        for (const key of findKeys(t, errorKeys)) {
          const value = t[key];
          if (typeof value === 'string' && value !== '') {
            human.push(value);
            status = { kind: 'cli-error', message: value };
          }
        }
        const httpStatus = readHttpStatus(t);
        if (httpStatus !== null) {
          ancillary.push(`api_error_status=${httpStatus}`);
          status = { kind: 'provider-error', apiErrorStatus: httpStatus, message: human[0] ?? `HTTP ${httpStatus}` };
        } else if (t.type === 'error' || t.is_error === true) {
          status = { kind: 'cli-error', message: human[0] ?? 'error' };
        }
      } else {
        // No JSON document at all: free text, scanned whole.
        candidates.push(...candidatesFromText(envelope.stdout, { origin: 'stdout', pointer: '', offset: 0 }, anchor));
        if (envelope.signal || (envelope.exitCode !== null && envelope.exitCode !== 0)) {
          status = envelope.stderr.trim() !== '' ? { kind: 'crashed', message: envelope.stderr.trim() } : { kind: 'crashed' };
        }
      }
      const decoded: Decoded = {
        route,
        candidates: dedupeCandidates(candidates),
        status,
        human,
        ancillary,
        keys: terminal ? Object.keys(terminal.value) : [],
        notes,
      };
      if (structured) decoded.structured = structured;
      if (terminal && terminal.value.usage !== undefined) decoded.usage = terminal.value.usage;
      return decoded;
    },
  };
}

/** An HTTP error status the envelope reports: `api_error_status`, `statusCode`, `status` (>= 400). */
function readHttpStatus(t: Record<string, unknown>): number | null {
  const places: unknown[] = [t.api_error_status, t.statusCode, t.status_code];
  if (isPlainObject(t.error)) places.push(t.error.statusCode, t.error.status, t.error.code);
  if (typeof t.status === 'number') places.push(t.status);
  for (const p of places) if (typeof p === 'number' && p >= 400 && p <= 599) return p;
  return null;
}
