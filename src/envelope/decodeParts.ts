/**
 * The start and the end every JSON-event decoder shares: stdout read as JSON documents, the
 * lists a decoder fills while it walks the events, and the {@link Decoded} built from them.
 */
import { framingOf, readJsonDocuments, type JsonDocuments } from './jsonl.ts';
import { dedupeCandidates } from './candidates.ts';
import type { Candidate, Decoded, EnvelopeStatus } from './types.ts';

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

/** The decoded envelope: candidates deduplicated, `keys` those of `terminal` (none without one). */
export function finishDecode(
  route: string,
  parts: Pick<DecodeParts, 'candidates' | 'human' | 'ancillary' | 'notes'> & { docs?: JsonDocuments; framing?: string },
  status: EnvelopeStatus,
  terminal: Record<string, unknown> | undefined,
): Decoded {
  const decoded: Decoded = {
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
