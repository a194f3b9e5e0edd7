/**
 * Building candidates from the parts of an envelope a decoder has located: a structured field's
 * value, or a string field (`result`, `text`, assistant text) that may hold JSON in prose, fences,
 * concatenations or nested JSON strings (found with src/scan).
 */
import { findJsonObjects, type FoundObject } from '#src/scan/index.ts';
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
 * string layers the scanner unwrapped. With `anchor`, only objects that own that key.
 *
 * An object inside a JSON Schema (a `$schema` echo, or an answer wrapped in
 * `{"type":"object","properties":{...}}`) is never a candidate: a schema is not silently
 * unwrapped (issue 11). Each one left out is reported in `notes` when given.
 */
export function candidatesFromText(text: string, at: PartLocation, anchor?: string, notes?: string[]): Candidate[] {
  if (text.indexOf('{') === -1) return [];
  let found: FoundObject[];
  if (text.includes('properties') || text.includes('$schema')) {
    // Only here is the anchor-free walk paid for: it sees the schema objects an anchored walk skips.
    const all = findJsonObjects(text);
    const inside = schemaInteriors(all);
    const wanted = anchor === undefined ? all : all.filter((f) => Object.hasOwn(f.value, anchor));
    found = wanted.filter((f) => !inside.has(f.value));
    const left = wanted.length - found.length;
    if (left > 0) notes?.push(`${left} object(s) in ${at.origin} sit inside a JSON Schema (a schema echo or an answer wrapped in one) and were not unwrapped`);
  } else {
    found = findJsonObjects(text, anchor === undefined ? {} : { anchor });
  }
  return found.map((f) => ({
    ...withEvent(at),
    value: f.value,
    fenced: f.fenced,
    nested: f.nested + 1,
  }));
}

/** Values of a message's `phase` / `channel` that mark it as not the answer. */
const COMMENTARY = /^(?:commentary|progress|reasoning|analysis|thinking|thought|plan|preamble)$/i;

/**
 * Why a message (an event, an item, a content block) is marked as commentary, progress or
 * reasoning rather than the answer, or `null`: its `phase` or `channel` reads `commentary`,
 * `progress`, `reasoning`, `analysis`, `thinking`, ... (Codex app-server `phase: "commentary"`,
 * openai/codex#30190; only `final_answer` or no phase is an answer), or it has `thought: true`
 * (Gemini API thought parts). Issue 11: such a message is never the answer, on every route.
 *
 * @example
 * commentaryMark({ type: 'agent_message', text: '{}', phase: 'commentary' }) // 'phase: "commentary"'
 */
export function commentaryMark(message: unknown): string | null {
  if (!isPlainObject(message)) return null;
  for (const key of ['phase', 'channel'] as const) {
    const v = message[key];
    if (typeof v === 'string' && COMMENTARY.test(v)) return `${key}: ${JSON.stringify(v)}`;
  }
  if (message.thought === true) return 'thought: true';
  return null;
}

/**
 * Whether `value` is a JSON Schema rather than an answer: it has a string `$schema`, or an object
 * `properties` together with `type: "object"`, a `required` array or `additionalProperties`.
 *
 * @example
 * looksLikeSchema({ type: 'object', properties: { position: { type: 'string' } } }) // true
 */
export function looksLikeSchema(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  if (typeof value.$schema === 'string') return true;
  return isPlainObject(value.properties) && (value.type === 'object' || Array.isArray(value.required) || Object.hasOwn(value, 'additionalProperties'));
}

/** Every object strictly inside a schema among `found` (walked through objects and arrays, iteratively). */
function schemaInteriors(found: FoundObject[]): Set<object> {
  const inside = new Set<object>();
  for (const f of found) {
    if (inside.has(f.value) || !looksLikeSchema(f.value)) continue;
    const stack: unknown[] = Object.values(f.value);
    while (stack.length > 0) {
      const v = stack.pop();
      if (typeof v !== 'object' || v === null || inside.has(v)) continue;
      if (!Array.isArray(v)) inside.add(v);
      for (const child of Object.values(v)) if (typeof child === 'object' && child !== null) stack.push(child);
    }
  }
  return inside;
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
