/**
 * Reports never depend on one case (issue 23 point 2): what a report quotes is bounded, and its
 * serialisation is iterative, so no answer (a 6,000-deep array, a 200 MiB string) can overflow the
 * stack or the longest string V8 can build, and every string is redacted on its way out.
 *
 * - {@link boundReport}: a copy of a report in which every string longer than
 *   {@link MAX_STRING_CHARS} is clipped (head and tail kept, with its length and SHA-256), and every
 *   answer value (`value` of a verdict) that is larger than {@link MAX_VALUE_BYTES} serialised or
 *   deeper than {@link MAX_VALUE_DEPTH} becomes a {@link ClippedValue}: a typed preview with its
 *   size, depth and digest. `fullValues` (`run --full-values`) keeps answers whole.
 * - {@link sealReport}: what a reporter is handed: {@link boundReport}, frozen, and remembered as
 *   sealed, so it is never redacted again: a case sealed when it was judged is taken as it is into
 *   the report sealed at the end, and {@link writeJson} writes a sealed value's strings as they are.
 *   Long strings kept whole (`--full-values`) are redacted a slice at a time, the event loop free
 *   between slices, so SIGINT stops the run while they are (issue 23 experiment 3g).
 * - {@link writeJson}: JSON text written in chunks straight to a file, iteratively, every string
 *   (keys included) through {@link redactOutput}, except a sealed value's.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { clipForOutput, mapStrings, redactInSlices, redactOutput, REDACT_SLICE, withSecretsSnapshot } from '#src/diagnostics/redact.ts';
import { writeJsonString } from '#src/jsonString.ts';

/** Longest string a report quotes whole (characters); longer ones keep their head and tail. */
export const MAX_STRING_CHARS = 16 * 1024;
/** Largest answer value a report holds whole (bytes of compact JSON). */
export const MAX_VALUE_BYTES = 64 * 1024;
/** Deepest answer value a report holds whole (levels of nesting). */
export const MAX_VALUE_DEPTH = 64;

/** Deepest level {@link streamJson} indents; deeper ones are written compact. */
const INDENT_DEPTH = 64;

/** Code units of a long string hashed, escaped or written at a time (1 Mi): its UTF-8 or JSON is never built whole. */
const HASH_SLICE = 1 << 20;

/** What stands for an answer value too large or too deep to quote. */
export interface ClippedValue {
  $clipped: 'value';
  /** `object`, `array`, `string`, `number`, `boolean` or `null`. */
  type: string;
  /** Bytes of the value's compact JSON. */
  bytes: number;
  /** Deepest nesting (a scalar is 0). */
  depth: number;
  /** SHA-256 (hex) of the value's compact JSON, to compare two runs' answers without quoting them. */
  sha256: string;
  /** The head and tail of its compact JSON, redacted; `…` marks the cut. */
  preview: string;
}

/** Options of {@link boundReport}. */
export interface BoundOptions {
  /** Keep answer values and long strings whole (`run --full-values`); serialisation stays iterative. */
  fullValues?: boolean;
}

type Frame = { kind: 'open'; value: unknown; depth: number; map: (s: string) => string } | { kind: 'text'; text: string };

/**
 * Feed the compact JSON of `value` to `sink`, piece by piece, without recursion.
 * `mapString` is applied to every string (keys included) before it is quoted, except below an
 * object `asIs` names; `undefined` and functions are skipped in objects and written `null` in
 * arrays, as JSON.stringify does.
 * Returns the deepest nesting seen.
 */
export function streamJson(value: unknown, sink: (text: string) => void, mapString: (s: string) => string = (s) => s, indent = 0, asIs: (v: object) => boolean = () => false): number {
  let deepest = 0;
  const same = (s: string): string => s;
  const stack: Frame[] = [{ kind: 'open', value, depth: 0, map: mapString }];
  // Indentation stops at INDENT_DEPTH: deeper levels are written compact, so the text stays linear
  // in the value (a 200,000-deep array indented would be tens of gigabytes of spaces).
  const nl = (depth: number): string => (indent > 0 && depth <= INDENT_DEPTH ? `\n${' '.repeat(indent * depth)}` : '');
  const sep = indent > 0 ? ': ' : ':';
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.kind === 'text') {
      sink(frame.text);
      continue;
    }
    let v = frame.value;
    if (typeof v === 'object' && v !== null && typeof (v as { toJSON?: unknown }).toJSON === 'function') v = (v as { toJSON: () => unknown }).toJSON();
    // Below a value `asIs` names, strings (keys too) are written as they are.
    const map = typeof v === 'object' && v !== null && asIs(v) ? same : frame.map;
    if (v === null || v === undefined || typeof v === 'function' || typeof v === 'symbol') sink('null');
    else if (typeof v === 'string') writeJsonString(map(v), sink, HASH_SLICE);
    else if (typeof v === 'number') sink(Number.isFinite(v) ? String(v) : 'null');
    else if (typeof v === 'boolean') sink(v ? 'true' : 'false');
    else if (typeof v === 'bigint') sink(JSON.stringify(v.toString()));
    else {
      const depth = frame.depth + 1;
      if (depth > deepest) deepest = depth;
      const parts: Frame[] = [];
      if (Array.isArray(v)) {
        if (v.length === 0) {
          sink('[]');
          continue;
        }
        sink('[');
        v.forEach((item, i) => {
          parts.push({ kind: 'text', text: `${i > 0 ? ',' : ''}${nl(depth)}` }, { kind: 'open', value: item, depth, map });
        });
        parts.push({ kind: 'text', text: `${nl(depth - 1)}]` });
      } else {
        const entries = Object.entries(v as object).filter(([, x]) => x !== undefined && typeof x !== 'function' && typeof x !== 'symbol');
        if (entries.length === 0) {
          sink('{}');
          continue;
        }
        sink('{');
        entries.forEach(([k, x], i) => {
          parts.push({ kind: 'text', text: `${i > 0 ? ',' : ''}${nl(depth)}${JSON.stringify(map(k))}${sep}` }, { kind: 'open', value: x, depth, map });
        });
        parts.push({ kind: 'text', text: `${nl(depth - 1)}}` });
      }
      for (let i = parts.length - 1; i >= 0; i -= 1) stack.push(parts[i]!);
    }
  }
  return deepest;
}

function typeOf(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

/**
 * Measure a value (compact JSON bytes, depth, SHA-256) and keep its head and tail for a preview,
 * holding at most `head + tail` characters of it.
 */
export function measureValue(value: unknown, head = 600, tail = 200): { bytes: number; depth: number; sha256: string; preview: string } {
  const hash = createHash('sha256');
  let bytes = 0;
  let first = '';
  let last = '';
  let chars = 0;
  const depth = streamJson(value, (text) => {
    hash.update(text);
    bytes += Buffer.byteLength(text);
    chars += text.length;
    if (first.length < head) first += text.slice(0, head - first.length);
    last = (last + text).slice(-tail - 64);
  });
  const whole = chars <= head ? first : null;
  // A cut never leaves part of a secret: the token characters touching it go.
  const preview = whole ?? `${first.replace(/[A-Za-z0-9_\-.+/=~%]+$/, '')}…${last.slice(-tail).replace(/^[A-Za-z0-9_\-.+/=~%]+/, '')}`;
  return { bytes, depth, sha256: hash.digest('hex'), preview: redactOutput(preview) };
}

/**
 * The {@link ClippedValue} of `value`, or `value` itself (every string redacted) when it is small
 * and shallow enough.
 */
export function boundValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return typeof value === 'string' ? redactOutput(boundString(value)) : value;
  const m = measureValue(value);
  if (m.bytes <= MAX_VALUE_BYTES && m.depth <= MAX_VALUE_DEPTH) return mapStrings(value, redactOutput);
  const clipped: ClippedValue = { $clipped: 'value', type: typeOf(value), bytes: m.bytes, depth: m.depth, sha256: m.sha256, preview: m.preview };
  return clipped;
}

/**
 * SHA-256 (hex) of the UTF-8 of `s`, fed a slice at a time (a slice never ends inside a surrogate
 * pair, so the bytes hashed are exactly those of `s`): a 200 MiB string costs no 200 MiB buffer.
 */
export function sha256OfText(s: string): string {
  const hash = createHash('sha256');
  for (let from = 0; from < s.length; ) {
    let to = Math.min(from + HASH_SLICE, s.length);
    const last = s.charCodeAt(to - 1);
    if (to < s.length && last >= 0xd800 && last <= 0xdbff) to -= 1;
    hash.update(s.slice(from, to));
    from = to;
  }
  return hash.digest('hex');
}

/** A string clipped to {@link MAX_STRING_CHARS}: head, `…[clipped: N chars, sha256 X]…`, tail. */
export function boundString(s: string): string {
  if (s.length <= MAX_STRING_CHARS) return s;
  const cut = clipForOutput(s, Math.floor(MAX_STRING_CHARS * 0.75), Math.floor(MAX_STRING_CHARS * 0.25));
  const digest = sha256OfText(s).slice(0, 16);
  return `${cut.head}…[clipped: ${s.length} chars, sha256 ${digest}; run --full-values to keep them]…${cut.tail}`;
}

/**
 * `value` with every object and array in it frozen (iterative, so never on depth; shared subtrees
 * and cycles visited once): what the reporters are handed, so that a reporter that changes the
 * report (empties `cases`, edits a verdict) throws in its own hook, a fault named after it, instead
 * of changing what the reporters after it write (issue 23, experiment 2g).
 */
export function freezeDeep<T>(value: T): T {
  const seen = new Set<object>();
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null || seen.has(v)) continue;
    seen.add(v);
    for (const child of Object.values(v)) stack.push(child);
    Object.freeze(v);
  }
  return value;
}

/**
 * Values sealed by {@link sealReport} (bounded, redacted, frozen), each with whether its long
 * strings and answers were kept whole.
 */
const sealed = new WeakMap<object, { fullValues: boolean }>();

/** Whether `value` was sealed by {@link sealReport}: its strings are redacted already. */
export function isSealed(value: unknown): boolean {
  return typeof value === 'object' && value !== null && sealed.has(value);
}

/** Strings at least this long are redacted a slice at a time by {@link sealReport} (`--full-values`). */
const LONG_TEXT = 2 * REDACT_SLICE;

/**
 * A copy of `report` (any JSON-like value) with every string redacted (src/diagnostics/redact.ts
 * `redactOutput`, before any reporter clips it, so no cut leaves part of a secret) and, unless
 * `fullValues`, long strings and large answer values bounded (see the module comment). Iterative;
 * never throws on depth. A part of `report` that {@link sealReport} sealed is taken as it is (unless
 * it kept values whole and this copy bounds them). An object met twice is copied once.
 */
export function boundReport<T>(report: T, options: BoundOptions = {}): T {
  return withSecretsSnapshot(() => boundReportNow(report, options, new Map(), false));
}

/**
 * @param redacted long strings already redacted (by {@link redactInSlices}), by their text.
 * @param stopped the run was interrupted while long strings were redacted: a long string not in
 *   `redacted` is clipped ({@link boundString}) instead of being redacted whole.
 */
function boundReportNow<T>(report: T, options: BoundOptions, redacted: ReadonlyMap<string, string>, stopped: boolean): T {
  const full = options.fullValues ?? false;
  const text = (s: string): string => redacted.get(s) ?? redactOutput(full && !(stopped && s.length >= LONG_TEXT) ? s : boundString(s));
  const value = (v: unknown): unknown => (full && !stopped ? mapStrings(v, text) : boundValue(v));
  const reuse = (v: object): boolean => {
    const seal = sealed.get(v);
    return seal !== undefined && (full || !seal.fullValues);
  };
  const copies = new Map<object, unknown>();
  const root: Record<string, unknown> = { v: report };
  const stack: { parent: Record<string | number, unknown>; key: string | number }[] = [{ parent: root, key: 'v' }];
  while (stack.length > 0) {
    const { parent, key } = stack.pop()!;
    const v = parent[key];
    if (typeof v === 'string') {
      parent[key] = text(v);
      continue;
    }
    if (typeof v !== 'object' || v === null || reuse(v)) continue;
    const known = copies.get(v);
    if (known !== undefined) {
      parent[key] = known;
      continue;
    }
    // Keys are output too: an object's copy has its keys redacted.
    const copy = (Array.isArray(v) ? [...v] : Object.fromEntries(Object.entries(v as object).map(([k, x]) => [redactOutput(k), x]))) as Record<string | number, unknown>;
    copies.set(v, copy);
    parent[key] = copy;
    const isVerdict = !Array.isArray(v) && typeof (v as { verdict?: unknown }).verdict === 'string';
    for (const k of Object.keys(copy)) {
      if (isVerdict && k === 'value') copy[k] = value(copy[k]);
      else stack.push({ parent: copy, key: Array.isArray(copy) ? Number(k) : k });
    }
  }
  return root.v as T;
}

/** The strings of `value` at least `min` characters long, each once, outside sealed parts. */
function longStrings(value: unknown, min: number): string[] {
  const found = new Set<string>();
  const seen = new Set<object>();
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.length >= min) found.add(v);
    } else if (typeof v === 'object' && v !== null && !seen.has(v) && !sealed.has(v)) {
      seen.add(v);
      for (const [k, x] of Object.entries(v)) stack.push(k, x);
    }
  }
  return [...found];
}

/** Options of {@link sealReport}. */
export interface SealOptions extends BoundOptions {
  /** Asked between slices of a long string: true stops redacting them (the run was interrupted); the rest are clipped. */
  stop?: () => boolean;
}

/**
 * What a reporter is handed: {@link boundReport} of `value`, deep-frozen (a reporter that changes
 * it fails alone, a fault named after it: issue 23 experiment 2g) and sealed: a sealed value in a
 * later one is taken as it is, and {@link writeJson} writes its strings as they are, so every
 * string is redacted once however many reports quote it.
 *
 * With `fullValues`, each long string (2 Mi characters or more) is redacted first, a slice at a time
 * with the event loop free between slices (src/diagnostics/redact.ts `redactInSlices`); once
 * `stop()` says so, the long strings not yet redacted are clipped as without `fullValues` and
 * `stopped` is true.
 */
export async function sealReport<T>(value: T, options: SealOptions = {}): Promise<{ sealed: T; stopped: boolean }> {
  if (typeof value === 'object' && value !== null && sealed.has(value)) return { sealed: value, stopped: false };
  const stop = options.stop ?? (() => false);
  const redacted = new Map<string, string>();
  let stopped = false;
  if (options.fullValues) {
    for (const s of longStrings(value, LONG_TEXT)) {
      const r = stop() ? null : await redactInSlices(s, stop);
      if (r === null) {
        stopped = true;
        break;
      }
      redacted.set(s, r);
    }
  }
  const shown = freezeDeep(withSecretsSnapshot(() => boundReportNow(value, options, redacted, stopped)));
  if (typeof shown === 'object' && shown !== null) sealed.set(shown, { fullValues: (options.fullValues ?? false) && !stopped });
  return { sealed: shown, stopped };
}

/**
 * Write `value` as JSON (2-space indent, trailing newline) to `file`, in chunks, iteratively,
 * every string through {@link redactOutput} but those of a sealed value ({@link sealReport}), which
 * are redacted already. A value of any depth or size that fits on disk is
 * written; nothing is built as one string, and at most one chunk (64 KiB, or one string's JSON) is
 * held at a time: the text goes to the file as it is made (a `--full-values` report of three
 * 200 MiB answers is never held whole).
 */
export async function writeJson(file: string, value: unknown, flags = 'w'): Promise<void> {
  const fd = openSync(file, flags, 0o644);
  try {
    let buffer = '';
    withSecretsSnapshot(() =>
      streamJson(value, (text) => {
        buffer += text;
        if (buffer.length >= 1 << 16) {
          writeAllSync(fd, buffer);
          buffer = '';
        }
      }, (s) => redactOutput(s), 2, isSealed),
    );
    writeAllSync(fd, `${buffer}\n`);
  } finally {
    closeSync(fd);
  }
}

/** Write all of `text` (UTF-8) to `fd`, a slice at a time (a string over 512 MiB of UTF-8 cannot be one Buffer). */
function writeAllSync(fd: number, text: string): void {
  for (let from = 0; from < text.length; ) {
    let to = Math.min(from + HASH_SLICE * 16, text.length);
    const last = text.charCodeAt(to - 1);
    if (to < text.length && last >= 0xd800 && last <= 0xdbff) to -= 1;
    const bytes = Buffer.from(text.slice(from, to), 'utf8');
    for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off);
    from = to;
  }
}
