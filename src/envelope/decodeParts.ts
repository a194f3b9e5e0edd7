/**
 * The start and the end every JSON-event decoder shares: stdout read as JSON documents, the
 * lists a decoder fills while it walks the events, and the {@link Decoded} built from them.
 */
import { eachJsonObject, eachJsonObjectOf } from '#src/scan/index.ts';
import { framingOf, readJsonDocuments, type JsonDocuments } from './jsonl.ts';
import { dedupeCandidates, lazyCandidate } from './candidates.ts';
import type { Candidate, Decoded, DecodeOptions, Envelope, EnvelopeStatus, Reply } from './types.ts';

/**
 * What a decoder fills while it reads stdout.
 * - `event(line)`: `{ event: line }` when stdout is one document per line, else `{}` (spread into a candidate).
 */
export interface DecodeParts {
  docs: JsonDocuments;
  notes: string[];
  candidates: Candidate[];
  human: string[];
  ancillary: string[];
  event: (line: number) => { event?: number };
}

/** Read `stdout` as JSON documents and start empty lists (the notes start with the reader's). */
export function startDecode(stdout: string): DecodeParts {
  const docs = readJsonDocuments(stdout);
  return {
    docs,
    notes: [...docs.notes],
    candidates: [],
    human: [],
    ancillary: [],
    event: (line) => (docs.framing === 'lines' ? { event: line } : {}),
  };
}

/**
 * What every decoder copies off the envelope besides its own reading, so that a contract never needs
 * the envelope (issue 10 part 2): how the run ended, stdout and stderr for evidence, and with
 * `options.freeText` the objects bearing `options.anchor` found by scanning the whole of stdout
 * (origin `stdout`, `nested` = string layers unwrapped). The reply is the decoder's own reading
 * (issue 20), never built here. Never throws.
 *
 * `docs`, when the decoder has it, is `readJsonDocuments(envelope.stdout)`: when stdout is one JSON
 * document and nothing else, the scan walks that parsed document instead of parsing stdout again
 * (the same objects; issue 24: a 100 MiB `result` was held twice while the scan ran).
 */
export function envelopeFacts(envelope: Envelope, options: DecodeOptions = {}, docs?: JsonDocuments): Pick<Decoded, 'run' | 'raw' | 'freeText'> {
  const facts: Pick<Decoded, 'run' | 'raw' | 'freeText'> = {
    run: { exitCode: envelope.exitCode, signal: envelope.signal ?? null, timedOut: envelope.timedOut === true, elapsedMs: envelope.elapsedMs },
    raw: { stdout: envelope.stdout, stderr: envelope.stderr },
  };
  if (options.freeText && options.anchor !== undefined) {
    const anchor = options.anchor;
    const freeText: Decoded['freeText'] = [];
    if (envelope.stdout.includes(anchor)) {
      const whole = docs?.framing === 'whole' && docs.invalidCount === 0 ? docs.documents[0] : undefined;
      const found = whole && typeof whole.value === 'object' && whole.value !== null ? eachJsonObjectOf(whole.value, whole.offset, { anchor, spans: true }) : eachJsonObject(envelope.stdout, { anchor, spans: true });
      for (const f of found) {
        // A scan hit is held as its span (src/envelope/candidates.ts lazyCandidate), not its object.
        const fields = { origin: 'stdout', pointer: f.pointer, offset: f.offset, fenced: f.fenced, nested: f.nested };
        freeText.push(f.span ? lazyCandidate(fields, f.span) : { value: f.value, ...fields });
      }
    }
    facts.freeText = freeText;
  }
  return facts;
}

/**
 * The decoded envelope: candidates deduplicated, the decoder's own `reply` (src/envelope/reply.ts
 * helpers), `keys` those of `terminal` (none without one), and the {@link envelopeFacts} of `envelope`.
 */
export function finishDecode(
  route: string,
  parts: Pick<DecodeParts, 'candidates' | 'human' | 'ancillary' | 'notes'> & { reply: Reply; docs?: JsonDocuments; framing?: string },
  status: EnvelopeStatus,
  terminal: Record<string, unknown> | undefined,
  envelope: Envelope,
  options: DecodeOptions = {},
): Decoded {
  const decoded: Decoded = {
    ...envelopeFacts(envelope, options, parts.docs),
    reply: parts.reply,
    route,
    candidates: dedupeCandidates(parts.candidates),
    status,
    human: parts.human,
    ancillary: parts.ancillary,
    keys: terminal ? Object.keys(terminal) : [],
    notes: parts.notes,
  };
  const framing = parts.framing ?? (parts.docs ? framingOf(parts.docs) : undefined);
  if (framing !== undefined) decoded.framing = framing;
  return decoded;
}
