/**
 * Building candidates from the parts of an envelope a decoder has located: a structured field's
 * value, or a string field (`result`, `text`, assistant text) that may hold JSON in prose, fences,
 * concatenations or nested JSON strings (found with src/scan).
 */
import { eachJsonObject } from '#src/scan/index.ts';
import type { Candidate, Origin } from './types.ts';
import { isPlainObject } from './keys.ts';

/** Where a located part sits: its origin label, JSON Pointer, event index and stdout offset. */
export interface PartLocation {
  origin: Origin;
  pointer: string;
  event?: number;
  offset: number;
}

/**
 * The candidate for a structured field: its object value, or the object(s) in it when the CLI
 * wrote it as a JSON string. Arrays, scalars and `null` give no candidate.
 */
export function candidatesFromStructured(value: unknown, at: PartLocation): Candidate[] {
  if (isPlainObject(value)) return [{ ...withEvent(at), value, nested: 0 }];
  if (typeof value === 'string') return candidatesFromText(value, at);
  return [];
}

/**
 * Every JSON object found in a string field, in document order, each with `nested` = 1 + the
 * string layers the scanner unwrapped. With `anchor`, only objects that own that key, and the
 * scanner builds only the spans that can hold it (issue 15: a `result` full of `{ }` and `[1, 2]`
 * costs offsets, not objects). Appends to nothing: callers add the list with `pushAll`, never
 * `push(...list)`, which overflows the stack past about 120,000 candidates.
 */
export function candidatesFromText(text: string, at: PartLocation, anchor?: string): Candidate[] {
  const out: Candidate[] = [];
  if (text.indexOf('{') === -1) return out;
  const base = withEvent(at);
  for (const f of eachJsonObject(text, anchor === undefined ? {} : { anchor })) {
    out.push({ ...base, value: f.value, fenced: f.fenced, nested: f.nested + 1 });
  }
  return out;
}

/**
 * Drop candidates whose value is deep-equal (same canonical JSON) to an earlier one, so the
 * structured field keeps its origin when the `result` string mirrors it.
 */
export function dedupeCandidates(candidates: Candidate[]): Candidate[] {
  const seen = new Set<string>();
  const out: Candidate[] = [];
  for (const c of candidates) {
    let key: string;
    try {
      key = canonicalJson(c.value);
    } catch {
      // Nested too deep for JSON.stringify (a RangeError past about 4,500 levels): keep it as is.
      out.push(c);
      continue;
    }
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(c);
  }
  return out;
}

/** JSON text with object keys sorted at every level: equal values give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (isPlainObject(v)) {
      const sorted: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) sorted[k] = v[k];
      return sorted;
    }
    return v;
  });
}

function withEvent(at: PartLocation): Omit<Candidate, 'value' | 'nested'> {
  const base: Omit<Candidate, 'value' | 'nested'> = { origin: at.origin, pointer: at.pointer, offset: at.offset };
  if (at.event !== undefined) base.event = at.event;
  return base;
}
