/**
 * Building candidates from the parts of an envelope a decoder has located: a structured field's
 * value, or a string field (`result`, `text`, assistant text) that may hold JSON in prose, fences,
 * concatenations or nested JSON strings (found with src/scan).
 */
import { eachJsonObject, type FoundObject, type FoundSpan } from '#src/scan/index.ts';
import type { Candidate, Origin } from './types.ts';
import { isPlainObject } from './keys.ts';
import { releaseMemory } from '#src/memory.ts';
import { writeJsonString } from '#src/jsonString.ts';

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
  return pushCandidatesFromText([], text, at, anchor, notes);
}

/**
 * {@link candidatesFromText} appended to `out` (returned): a decoder's list grows in place, with no
 * second list of the same candidates beside it (issue 24: 500,000 candidates made two lists and
 * their growth garbage, 21 MiB).
 */
export function pushCandidatesFromText(out: Candidate[], text: string, at: PartLocation, anchor?: string, notes?: string[]): Candidate[] {
  if (text.indexOf('{') === -1) return out;
  const toCandidate = (f: FoundObject): Candidate => ({ ...withEvent(at), value: f.value, fenced: f.fenced, nested: f.nested + 1 });
  if (text.includes('properties') || text.includes('$schema')) {
    // Only here is the anchor-free walk paid for: it sees the schema objects an anchored walk skips.
    // Lazy still (issue 24: one such word beside 500,000 candidates made them all eager): a scan hit
    // is the root of its own parsed tree, so which objects sit inside a schema is judged per hit,
    // when the walk reaches it, and remembered weakly; the hit becomes a lazy candidate.
    const inside = new WeakSet<object>();
    let left = 0;
    for (const f of eachJsonObject(text, { spans: true })) {
      if (f.span) markSchemaInteriors(f.value, inside);
      if (anchor !== undefined && !Object.hasOwn(f.value, anchor)) continue;
      if (inside.has(f.value)) left++;
      else out.push(f.span ? lazyCandidate({ ...withEvent(at), fenced: f.fenced, nested: f.nested + 1 }, f.span) : toCandidate(f));
      paced();
    }
    if (left > 0) notes?.push(`${left} object(s) in ${at.origin} sit inside a JSON Schema (a schema echo or an answer wrapped in one) and were not unwrapped`);
    return out;
  }
  // Lazily, and with an anchor only the spans that can hold it are built (issue 15: a `result` full
  // of `{ }` and `[1, 2]` costs offsets, not objects). An object that is a scan hit itself becomes a
  // lazy candidate (its value built again from its span when read, issue 24: 500,000 candidates
  // held side by side were 4x the envelope).
  for (const f of eachJsonObject(text, anchor === undefined ? { spans: true } : { anchor, spans: true })) {
    out.push(f.span ? lazyCandidate({ ...withEvent(at), fenced: f.fenced, nested: f.nested + 1 }, f.span) : toCandidate(f));
    paced();
  }
  return out;
}

/**
 * Every this many candidate values built (by the scan, or read from a lazy candidate), a full
 * collection (src/memory.ts): values parsed and let go on the way are garbage V8 leaves in its old
 * space until its heap has grown several times (issue 24: 500,000 candidates peaked at 250 MB of
 * such garbage beside 70 MB of candidates). About one collection per 10 MiB of candidate text.
 */
const COLLECT_EVERY = 65_536;
let built = 0;

/** Counts one value built; collects the garbage every {@link COLLECT_EVERY}. */
function paced(): void {
  built += 1;
  if (built >= COLLECT_EVERY) {
    built = 0;
    releaseMemory();
  }
}

/**
 * A candidate whose value is built from its span when read. Its span is held in private fields
 * (no spread, copy, `JSON.stringify`, `structuredClone` or deep equality sees them) and every
 * field sits in the object itself: 88 bytes a candidate on 64-bit Node, against 112 for a plain
 * object given the same fields one by one (issue 24: 500,000 candidates). Its prototype is this
 * class's, which nothing compares: `toEqual` and the report see the fields of an eager candidate.
 */
class SpanCandidate {
  readonly #text: string;
  readonly #start: number;
  readonly #end: number;

  constructor(fields: Omit<Candidate, 'value'>, span: FoundSpan) {
    // Assigned in one order (that of an eager candidate's fields), so that every lazy candidate
    // shares one hidden class.
    const self = this as unknown as Candidate;
    self.origin = fields.origin;
    self.pointer = fields.pointer;
    self.offset = fields.offset;
    if (fields.event !== undefined) self.event = fields.event;
    Object.defineProperty(this, 'value', { get: spanValue, enumerable: true, configurable: true });
    if (fields.fenced !== undefined) self.fenced = fields.fenced;
    self.nested = fields.nested;
    this.#text = span.text;
    this.#start = span.start;
    this.#end = span.end;
  }

  /** The value parsed again from the span: a new object each call. */
  static valueOf(c: SpanCandidate): unknown {
    paced();
    return JSON.parse(c.#text.slice(c.#start, c.#end));
  }

  /** The span of `c` when it is a lazy candidate, else `undefined`. */
  static spanOf(c: object): FoundSpan | undefined {
    return #text in c ? { text: (c as SpanCandidate).#text, start: (c as SpanCandidate).#start, end: (c as SpanCandidate).#end } : undefined;
  }
}

/** The `value` getter of every lazy candidate: the object parsed again from its span. */
function spanValue(this: SpanCandidate): unknown {
  return SpanCandidate.valueOf(this);
}

/**
 * A candidate whose `value` is built from `span` each time it is read (`JSON.parse` of the span's
 * text: equal to the value the scanner found, a new object each read), so a list of many
 * candidates holds their offsets, not their objects (issue 24). `value` is an own enumerable
 * getter: spreads, `structuredClone`, `JSON.stringify` and deep equality see a plain candidate;
 * the other fields are in the order of an eager one. {@link withCandidateFields} copies one without
 * building its value.
 */
export function lazyCandidate(fields: Omit<Candidate, 'value'>, span: FoundSpan): Candidate {
  return new SpanCandidate(fields, span) as unknown as Candidate;
}

/**
 * `c` with `fields` changed (`{ ...c, ...fields }`), lazy still when `c` is lazy: its value is
 * not built.
 */
export function withCandidateFields(c: Candidate, fields: Partial<Omit<Candidate, 'value'>>): Candidate {
  const span = SpanCandidate.spanOf(c);
  if (span === undefined) return { ...c, ...fields };
  const { value: _value, ...rest } = Object.getOwnPropertyDescriptors(c);
  const plain: Omit<Candidate, 'value'> = { origin: c.origin, pointer: c.pointer, offset: c.offset, nested: c.nested };
  for (const [k, d] of Object.entries(rest)) (plain as unknown as Record<string, unknown>)[k] = d.value;
  return lazyCandidate({ ...plain, ...fields }, span);
}

/** Values of a message's `phase` / `channel` that mark it as not the answer. */
const COMMENTARY = /^(?:commentary|progress|reasoning|analysis|thinking|thought|plan|preamble)$/i;

/** A `phase` / `channel` value that marks a message as not the answer, or `undefined`. */
function commentaryValue(v: unknown): string | undefined {
  return typeof v === 'string' && COMMENTARY.test(v) ? v : undefined;
}

/** The `phase` inside a JSON string such as pi-ai's text signature `{"v":1,"id":..,"phase":..}`. */
function phaseInJsonString(s: unknown): string | undefined {
  if (typeof s !== 'string' || !s.startsWith('{') || !s.includes('"phase"')) return undefined;
  try {
    const parsed: unknown = JSON.parse(s);
    return isPlainObject(parsed) ? commentaryValue(parsed.phase) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why a message (an event, an item, a content block) is marked as commentary, progress or
 * reasoning rather than the answer, or `null`. The mark is one rule, wherever a CLI carries it:
 * - its own `phase` or `channel` reads `commentary`, `progress`, `reasoning`, `analysis`,
 *   `thinking`, ... (Codex `agent_message` `phase: "commentary"`, openai/codex#30190; only
 *   `final_answer` or no phase is an answer);
 * - the provider metadata it carries, `metadata.<provider>.phase` or
 *   `providerMetadata.<provider>.phase` (opencode copies the AI SDK's providerMetadata onto each
 *   text part: the OpenAI Responses provider writes `{openai: {itemId, phase}}`);
 * - a `textSignature` JSON string with that `phase` (pi-ai's OpenAI Responses text blocks,
 *   `{"v":1,"id":..,"phase":"commentary"}`);
 * - `thought: true` (Gemini API thought parts).
 * Issue 11: such a message is never the answer, on every route.
 *
 * @example
 * commentaryMark({ type: 'agent_message', text: '{}', phase: 'commentary' }) // 'phase: "commentary"'
 * commentaryMark({ type: 'text', text: '{}', metadata: { openai: { phase: 'commentary' } } }) // 'metadata.openai.phase: "commentary"'
 */
export function commentaryMark(message: unknown): string | null {
  if (!isPlainObject(message)) return null;
  for (const key of ['phase', 'channel'] as const) {
    const v = commentaryValue(message[key]);
    if (v !== undefined) return `${key}: ${JSON.stringify(v)}`;
  }
  for (const key of ['metadata', 'providerMetadata'] as const) {
    const meta = message[key];
    if (!isPlainObject(meta)) continue;
    for (const [provider, m] of Object.entries(meta)) {
      const v = isPlainObject(m) ? commentaryValue(m.phase) : undefined;
      if (v !== undefined) return `${key}.${provider}.phase: ${JSON.stringify(v)}`;
    }
  }
  const signed = phaseInJsonString(message.textSignature);
  if (signed !== undefined) return `textSignature phase: ${JSON.stringify(signed)}`;
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

/**
 * Adds to `inside` every object strictly inside a schema in the tree of `root` (one parsed scan
 * hit, walked through objects and arrays in the walk's pre-order, iteratively). Objects found by
 * scanning a string inside a schema are parsed apart, so they are never inside.
 */
function markSchemaInteriors(root: object, inside: WeakSet<object>): void {
  const order: object[] = [root];
  for (let k = 0; k < order.length; k++) {
    const v = order[k]!;
    if (!Array.isArray(v) && !inside.has(v) && looksLikeSchema(v)) {
      const stack: unknown[] = Object.values(v);
      while (stack.length > 0) {
        const w = stack.pop();
        if (typeof w !== 'object' || w === null || inside.has(w)) continue;
        if (!Array.isArray(w)) inside.add(w);
        for (const child of Object.values(w)) if (typeof child === 'object' && child !== null) stack.push(child);
      }
      continue; // all below is marked
    }
    for (const child of Object.values(v)) if (typeof child === 'object' && child !== null) order.push(child);
  }
}

/**
 * Drop candidates whose value is deep-equal (same canonical JSON) to another one. The one kept is
 * the first (so the structured field keeps its origin when the `result` string mirrors it) but it
 * takes the place of the LAST of its copies: an answer repeated later in the envelope (Claude's
 * StructuredOutput tool input, then the result event) is as late as its last copy, so a tie with a
 * candidate in between still goes to the later one (issue 19 point 2). With `identity: 'last'` the
 * last copy is kept whole (Codex: the `-o` last-message file over the agent message it repeats).
 *
 * Memory (issue 24): each value's canonical text is made, hashed to 32 bits and let go; only
 * candidates whose hashes meet have their texts compared (made again), so 500,000 candidates cost
 * a few typed arrays, never their texts side by side, and a lazy candidate ({@link lazyCandidate})
 * stays lazy. When nothing repeats, `candidates` itself is returned (no copy).
 */
export function dedupeCandidates(candidates: Candidate[], identity: 'first' | 'last' = 'first'): Candidate[] {
  const n = candidates.length;
  const keyOf = (i: number): string | undefined => {
    try {
      return canonicalJson(candidates[i]!.value);
    } catch {
      // Nested too deep for JSON.stringify (a RangeError past about 4,500 levels): keep it as is.
      return undefined;
    }
  };
  /** For each candidate: the index of the first of its copies, or -1 when it has no key. */
  const firstOf = new Int32Array(n);
  /** For the first of each set of copies: the index of the last one. */
  const lastOf = new Int32Array(n);
  const hashes = new Uint32Array(n);
  let keyed = 0;
  for (let i = 0; i < n; i++) {
    const key = keyOf(i);
    firstOf[i] = key === undefined ? -1 : i;
    lastOf[i] = i;
    if (key === undefined) continue;
    hashes[i] = hash32(key);
    keyed += 1;
  }
  // The keyed candidates by hash, then place: only those whose hashes meet are compared, their
  // texts made again (a typed array sorted, not a map of 500,000 entries: issue 24).
  const order = new Int32Array(keyed);
  for (let i = 0, k = 0; i < n; i++) if (firstOf[i] !== -1) order[k++] = i;
  order.sort((a, b) => hashes[a]! - hashes[b]! || a - b);
  for (let from = 0; from < keyed; ) {
    let to = from + 1;
    while (to < keyed && hashes[order[to]!] === hashes[order[from]!]) to++;
    if (to - from > 1) {
      /** The first index and the text of each distinct key in this run of equal hashes. */
      const distinct: { first: number; key: string | undefined }[] = [];
      for (let r = from; r < to; r++) {
        const i = order[r]!;
        const key = keyOf(i);
        const same = distinct.find((d) => d.key === key);
        if (same === undefined) distinct.push({ first: i, key });
        else {
          firstOf[i] = same.first;
          lastOf[same.first] = i;
        }
      }
    }
    from = to;
  }
  // Nothing repeated (the usual case): the list itself, not a copy of 500,000 entries beside it.
  let repeated = false;
  for (let i = 0; i < n && !repeated; i++) repeated = (firstOf[i] !== -1 && firstOf[i] !== i) || lastOf[i] !== i;
  if (!repeated) return candidates;
  const out: Candidate[] = [];
  for (let i = 0; i < n; i++) {
    const first = firstOf[i]!;
    if (first === -1) out.push(candidates[i]!);
    else if (lastOf[first] === i) out.push(identity === 'last' ? candidates[i]! : candidates[first]!);
  }
  return out;
}

/** FNV-1a over the UTF-16 code units of `text`, 32 bits. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * JSON text with object keys sorted at every level: equal values give equal text. Exactly
 * `JSON.stringify(value, sortKeys)` where `sortKeys` re-inserts every non-array object's keys in
 * `Array#sort` order (so integer-like keys still come first, ascending, as JavaScript enumerates
 * them); `undefined` when `value` has no JSON form (`undefined`, a function). Nesting too deep for
 * `JSON.stringify` (a RangeError past about 4,500 levels) is written by {@link writeCanonicalJson},
 * so depth is limited by memory, not the call stack.
 *
 * @throws TypeError on a cycle or a BigInt, as `JSON.stringify` does.
 */
export function canonicalJson(value: unknown): string {
  try {
    // Native and about twice as fast on small values; the same text as the writer below
    // (src/envelope/candidates.test.ts checks both against this rule).
    return JSON.stringify(value, sortKeys);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  const chunks: string[] = [];
  const written = writeCanonicalJson(value, (chunk) => chunks.push(chunk));
  return (written ? chunks.join('') : undefined) as string;
}

/** The replacer of {@link canonicalJson}: every non-array object with its keys re-inserted sorted. */
function sortKeys(_key: string, v: unknown): unknown {
  if (isPlainObject(v)) {
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) sorted[k] = v[k];
    return sorted;
  }
  return v;
}

/** Size in UTF-16 code units of the pieces {@link writeCanonicalJson} hands on (64 Ki). */
const CANONICAL_CHUNK = 1 << 16;

/** A container being written: its keys (objects) or length (arrays), and how far it got. */
interface OpenContainer {
  value: Record<string, unknown> | unknown[];
  keys: string[] | undefined;
  next: number;
  wrote: boolean;
}

/**
 * The text of {@link canonicalJson}, handed to `write` in pieces of about 64 Ki code units, so a
 * caller that hashes or streams it never holds a copy of a large value (issue 15: a case id over a
 * 100 MB envelope). A long string is escaped a slice at a time, never split inside a surrogate pair.
 * Iterative: any nesting depth.
 *
 * @returns `false` (nothing written) when `value` has no JSON form, else `true`.
 * @throws TypeError on a cycle or a BigInt, as `JSON.stringify` does.
 */
export function writeCanonicalJson(value: unknown, write: (chunk: string) => void): boolean {
  let pending: string[] = [];
  let size = 0;
  const out = (text: string): void => {
    pending.push(text);
    size += text.length;
    if (size >= CANONICAL_CHUNK) {
      write(pending.join(''));
      pending = [];
      size = 0;
    }
  };
  const stack: OpenContainer[] = [];
  const ancestors = new Set<object>();
  /** Writes a resolved value, opening a container when it is one. */
  const open = (v: unknown): void => {
    if (v === null) out('null');
    else if (typeof v === 'string') writeJsonString(v, out, CANONICAL_CHUNK);
    else if (typeof v === 'number') out(Number.isFinite(v) ? JSON.stringify(v) : 'null');
    else if (typeof v === 'boolean') out(v ? 'true' : 'false');
    else if (typeof v === 'object') {
      if (ancestors.has(v)) throw new TypeError('Converting circular structure to JSON');
      ancestors.add(v);
      if (Array.isArray(v)) {
        out('[');
        stack.push({ value: v, keys: undefined, next: 0, wrote: false });
      } else {
        const order: Record<string, true> = {};
        for (const k of Object.keys(v).sort()) order[k] = true;
        out('{');
        stack.push({ value: v as Record<string, unknown>, keys: Object.keys(order), next: 0, wrote: false });
      }
    } else JSON.stringify(v); // a BigInt throws its TypeError here
  };

  const root = resolveJson(value, '');
  if (!hasJsonForm(root)) return false;
  open(root);
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as OpenContainer;
    const keys = top.keys;
    if (keys === undefined) {
      const list = top.value as unknown[];
      if (top.next >= list.length) {
        out(']');
        ancestors.delete(list);
        stack.pop();
        continue;
      }
      const k = top.next++;
      if (k > 0) out(',');
      const v = resolveJson(list[k], String(k));
      if (hasJsonForm(v)) open(v);
      else out('null');
      continue;
    }
    if (top.next >= keys.length) {
      out('}');
      ancestors.delete(top.value);
      stack.pop();
      continue;
    }
    const key = keys[top.next++] as string;
    const v = resolveJson((top.value as Record<string, unknown>)[key], key);
    if (!hasJsonForm(v)) continue;
    out(top.wrote ? ',' : '');
    top.wrote = true;
    writeJsonString(key, out, CANONICAL_CHUNK);
    out(':');
    open(v);
  }
  if (size > 0) write(pending.join(''));
  return true;
}

/** The value `JSON.stringify` serialises for `value` under `key`: the result of its `toJSON`, if any. */
function resolveJson(value: unknown, key: string): unknown {
  if (typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return (value as { toJSON: (key: string) => unknown }).toJSON(key);
  }
  return value;
}

/** False for what `JSON.stringify` leaves out of an object (and writes as `null` in an array). */
function hasJsonForm(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}

function withEvent(at: PartLocation): Omit<Candidate, 'value' | 'nested'> {
  const base: Omit<Candidate, 'value' | 'nested'> = { origin: at.origin, pointer: at.pointer, offset: at.offset };
  if (at.event !== undefined) base.event = at.event;
  return base;
}
