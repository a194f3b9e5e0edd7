import { fenceRanges, inRanges } from '#src/scan/fences.ts';
import { balancedSpanEnd, firstTokenStop, type Jumps, newJumps } from '#src/scan/span.ts';
import type { ScanHit, ScanKind, ScanOptions } from '#src/scan/types.ts';
import { ARRAY_BIT, OBJECT_BIT, type Validation, validateFrom } from '#src/scan/validate.ts';

const BOTH: readonly ScanKind[] = ['object', 'array'];
const REJECTED = Symbol('rejected');

/**
 * Every top-level JSON object or array embedded in free text, in document order.
 *
 * Finds concatenated values (`{...}{...}`, with or without blanks between), values in Markdown
 * fences (```` ```json ```` or plain ```` ``` ````, flagged `fenced`), values inside prose, and
 * values next to prose brackets (`[INFO] {...}`). Braces and escaped quotes inside JSON strings
 * do not count. CRLF line ends and a leading BOM are prose like any other. Values are strict
 * JSON (RFC 8259, what `JSON.parse` accepts): no comments, trailing commas, single quotes or
 * `NaN`; JSON scalars (`"a"`, `1`, `null`) are never hits.
 *
 * Hits are maximal and never overlap: a nested object is part of its parent hit. When an outer
 * `{` or `[` never closes validly, the complete values it held are reported and the scan goes on
 * from the character where the outer value stopped being JSON: `{ "a": {"b":1} oops` gives
 * `{"b":1}`.
 *
 * Equivalence (checked by a differential property test): the hits are exactly those of the
 * raw_decode loop, which tries Python's `json.JSONDecoder.raw_decode` at each `{`/`[`, jumps past
 * a success and moves one character on after a failure, with one known difference, the price of
 * linear time: after a failed outer value, brackets that it read as the inside of a string are not
 * tried again. In `{"note": "see {"b":1} here` the outer string `"see {"` swallows the `{`, the
 * outer value then fails at `b`, and `{"b":1}` is not reported (the raw_decode loop finds it).
 * Brackets after the failure point, including the rest of an unterminated string, are tried.
 *
 * Cost: linear in `text.length`. One bracket-matching pass finds each candidate span,
 * `JSON.parse` validates and builds it; a span `JSON.parse` rejects is run once through an
 * iterative validator that finds where it fails and which nested values were complete, and the
 * scan resumes there, never at the next character after the opener. Text that a failed pass has
 * already read is only ever re-read by the validator, which always moves forward. When a value
 * never closes, the complete values the bracket pass saw inside it are built by `JSON.parse` (the
 * short ones in one call) and the validator steps over them (a cut-off document is not read token
 * by token, then parsed again). A text whose first attempt may run to its last non-blank character
 * (a CLI's JSON envelope, prose before it allowed) is handed to `JSON.parse` from there at once,
 * without the bracket pass: about the cost of `JSON.parse` alone; when that parse fails, it cost a
 * read up to the first error. Never throws; nesting depth is limited by memory, not the call stack.
 *
 * @param text - any string (lone surrogates and NUL included); offsets are UTF-16 code units.
 * @param options - {@link ScanOptions}: `maxHits`, `kinds`, `minLength`.
 * @returns the hits, each with `text.slice(start, end)` re-parsing to `value`.
 *
 * @example
 * scanJson('Here is the answer: {"a":1} hope it helps')
 * // [{ start: 20, end: 27, value: { a: 1 }, kind: 'object', fenced: false }]
 * @see {@link https://www.rfc-editor.org/rfc/rfc8259 | RFC 8259} for what counts as JSON.
 */
export function scanJson(text: string, options: ScanOptions = {}): ScanHit[] {
  // The scanner's own loop, without an iterator result object per hit (many small hits: issue 24),
  // on the spare scanner when it is free (it always is: the loop runs to its end, calling no user code).
  const scanner = spare === undefined ? new HitScanner(text, options) : spare.reset(text, options);
  spare = undefined;
  // Every hit is built here, so the validator may build the complete values it steps over.
  if (options.mustContain === undefined || options.mustContain === '') scanner.buildWhileValidating();
  const hits: ScanHit[] = [];
  for (let hit = scanner.nextHit(); hit !== undefined; hit = scanner.nextHit()) hits.push(hit);
  spare = scanner.reset('', NO_OPTIONS); // holds on to nothing of this scan
  return hits;
}

const NO_OPTIONS: ScanOptions = {};

/**
 * A scanner kept for {@link scanJson}'s next call, and alive between calls on purpose: V8 drops the
 * hidden class of `HitScanner` objects at a full garbage collection when no instance is alive, and
 * with it the optimized code of the scan loop ("weak objects"), which then runs unoptimized until
 * it is compiled again. Since the scan's state moved into a scanner object made per call (0972eaf,
 * issue 15), every scan after a collection paid that: about twice the time at 1 MiB on inputs with
 * many small hits (issue 24). One live instance keeps the class for every scanner, the iterators of
 * {@link eachJsonHit} included.
 */
let spare: HitScanner | undefined;

/**
 * The hits of {@link scanJson}, produced one at a time, in document order: a caller that wants the
 * first hit of some kind stops early and pays only for the text read so far, and a caller that
 * wants them all holds only the hits it keeps. Same hits, same options, same linear cost and the
 * same guarantee: never throws, whatever the input; no value is built for a span that is not a hit.
 *
 * With {@link ScanOptions.mustContain}, a span whose text cannot hold that string is checked by
 * the allocation-free validator and skipped as offsets, never parsed: on brace-heavy text with an
 * anchor (`{ }`, `[1, 2]`, small objects without the key), nothing but the candidates is built.
 *
 * @param text - any string; offsets are UTF-16 code units.
 * @param options - {@link ScanOptions}.
 * @returns an iterator of {@link ScanHit}.
 *
 * @example
 * for (const hit of eachJsonHit(stdout, { mustContain: 'position' })) if (isFinal(hit.value)) break;
 */
export function eachJsonHit(text: string, options: ScanOptions = {}): IterableIterator<ScanHit> {
  return new HitScanner(text, options);
}

const DONE: IteratorReturnResult<undefined> = { value: undefined, done: true };

/**
 * The scan's state between two hits (a class, not a generator: V8 runs this loop about twice as
 * fast with its state in fields as with it suspended in a generator, measured on 150,000 hits).
 */
class HitScanner implements IterableIterator<ScanHit> {
  private text = '';
  private maxHits = 0;
  private minLength = 0;
  private wantObject = false;
  private wantArray = false;
  private record = 0;
  private needle: string | undefined;
  private nextNeedle = -2;
  private nextEscape = -2;
  private count = 0;
  private fences: number[] | undefined;
  private readonly cursor = { i: 0 };
  /** Offsets below `frontier` were read by an earlier pass; attempts there use the validator only. */
  private frontier = 0;
  private pos = 0;
  private nextObject = -1;
  private nextArray = -1;
  /** Complete inner values of a failed outer value still to report (`[start, end, ...]`), and those already built. */
  private inner: number[] | undefined;
  private innerValues: unknown[] | undefined;
  private innerAt = 0;
  /** In {@link scanJson} without a needle: what each bracket pass saw close, for the validator after it. */
  private jumps: Jumps | undefined;
  private readonly ownJumps = newJumps(0);
  /** In {@link scanJson}: the first attempt first tries the rest of the text as one value (see {@link wholeValueEnd}). */
  private tryWhole = false;
  private done = true;

  constructor(text: string, options: ScanOptions) {
    this.reset(text, options);
  }

  /** Starts a new scan of `text` on this object (every field set, nothing kept from the last scan). */
  reset(text: string, options: ScanOptions): this {
    this.text = typeof text === 'string' ? text : '';
    this.maxHits = options.maxHits ?? Infinity;
    this.minLength = options.minLength ?? 0;
    const kinds = options.kinds ?? BOTH;
    this.wantObject = kinds.includes('object');
    this.wantArray = kinds.includes('array');
    this.record = (this.wantObject ? OBJECT_BIT : 0) | (this.wantArray ? ARRAY_BIT : 0);
    this.needle = options.mustContain === '' ? undefined : options.mustContain;
    this.nextNeedle = -2;
    this.nextEscape = -2;
    this.count = 0;
    this.fences = undefined;
    this.cursor.i = 0;
    this.frontier = 0;
    this.pos = 0;
    this.inner = undefined;
    this.innerValues = undefined;
    this.innerAt = 0;
    this.jumps = undefined;
    this.tryWhole = false;
    this.ownJumps.start = -1;
    this.ownJumps.record = this.record;
    this.done = typeof text !== 'string' || !(this.maxHits > 0) || !(this.wantObject || this.wantArray);
    this.nextObject = this.wantObject ? this.text.indexOf('{') : -1;
    this.nextArray = this.wantArray ? this.text.indexOf('[') : -1;
    return this;
  }

  [Symbol.iterator](): IterableIterator<ScanHit> {
    return this;
  }

  next(): IteratorResult<ScanHit, undefined> {
    const hit = this.nextHit();
    return hit === undefined ? DONE : { value: hit, done: false };
  }

  /**
   * From now on, the validator builds the complete values it can hand to `JSON.parse` whole (see
   * `validateFrom`): for {@link scanJson} without a needle, where every span is built anyway; never
   * for {@link eachJsonHit}, which builds a value only when it yields it. And when the rest of the
   * text may be one value, the first attempt parses it whole before reading it (a failed try costs
   * a parse up to the first error, which a lazy caller stopping early should not pay).
   */
  buildWhileValidating(): void {
    this.jumps = this.ownJumps;
    this.tryWhole = true;
  }

  /** The next hit, or `undefined` once the scan is over (and ever after). */
  nextHit(): ScanHit | undefined {
    const hit = this.done ? undefined : this.step();
    if (hit === undefined) this.done = true;
    return hit;
  }

  /** The next hit, or `undefined` at the end of the text or after `maxHits`. */
  private step(): ScanHit | undefined {
    const text = this.text;
    const minLength = this.minLength;
    while (this.count < this.maxHits) {
      const inner = this.inner;
      if (inner !== undefined) {
        if (this.innerAt >= inner.length) {
          this.inner = undefined;
          continue;
        }
        const from = inner[this.innerAt] as number;
        const to = inner[this.innerAt + 1] as number;
        const built = this.innerValues?.[this.innerAt >> 1];
        this.innerAt += 2;
        if (!this.mayHold(from, to) || to - from < minLength) continue;
        const value = built ?? parseSpan(text, from, to);
        if (value !== REJECTED && to - from >= minLength) return this.hit(from, to, value);
        continue;
      }

      let start: number;
      const pos = this.pos;
      const here = text.charCodeAt(pos);
      if ((here === 0x7b && this.wantObject) || (here === 0x5b && this.wantArray)) {
        start = pos; // runs such as `{{{{`: no search needed
      } else {
        if (this.nextObject >= 0 && this.nextObject < pos) this.nextObject = text.indexOf('{', pos);
        if (this.nextArray >= 0 && this.nextArray < pos) this.nextArray = text.indexOf('[', pos);
        const o = this.nextObject;
        const a = this.nextArray;
        start = o < 0 ? a : a < 0 ? o : Math.min(o, a);
        if (start < 0) return undefined;
      }

      // Most prose brackets (`[INFO]`, `{{`, `{ x`) fail on their first token: skip them at once.
      const refused = firstTokenStop(text, start);
      if (refused >= 0) {
        this.pos = refused;
        continue;
      }

      // The text one value, prose before it aside (a CLI's JSON envelope): one JSON.parse, no bracket pass (issue 24).
      if (this.tryWhole) {
        this.tryWhole = false;
        const end = wholeValueEnd(text, start);
        if (end > 0 && this.mayHold(start, end)) {
          const value = parseSpan(text, start, end);
          if (value !== REJECTED) {
            this.frontier = this.pos = end;
            if (end - start >= minLength) return this.hit(start, end, value);
            continue;
          }
        }
      }

      let v: Validation | undefined;
      if (start >= this.frontier) {
        const end = balancedSpanEnd(text, start, this.jumps);
        if (end > 0) {
          this.frontier = end;
          if (this.mayHold(start, end)) {
            const value = parseSpan(text, start, end);
            if (value !== REJECTED) {
              this.pos = end;
              if (end - start >= minLength) return this.hit(start, end, value);
              continue;
            }
          } else {
            // Cannot be a hit: validate without building anything, parse nothing.
            v = validateFrom(text, start, this.record);
            if (v.end > 0) {
              this.pos = v.end;
              continue;
            }
          }
        } else {
          this.frontier = Math.max(this.frontier, -end);
        }
      }

      v ??= validateFrom(text, start, this.record, this.jumps);
      if (v.failAt + 1 > this.frontier) this.frontier = v.failAt + 1;
      if (v.end > 0) {
        this.pos = v.end;
        if (this.mayHold(start, v.end)) {
          const value = parseSpan(text, start, v.end);
          if (value !== REJECTED && v.end - start >= minLength) return this.hit(start, v.end, value);
        }
        continue;
      }
      this.pos = Math.max(v.failAt, start + 1);
      if (v.inner.length > 0) {
        this.inner = v.inner;
        this.innerValues = v.values;
        this.innerAt = 0;
      }
    }
    return undefined;
  }

  private hit(start: number, end: number, value: unknown): ScanHit {
    const fences = (this.fences ??= fenceRanges(this.text));
    this.count += 1;
    return {
      start,
      end,
      value,
      kind: this.text.charCodeAt(start) === 0x7b ? 'object' : 'array',
      fenced: fences.length > 0 && inRanges(fences, start, this.cursor),
    };
  }

  /**
   * Whether `text.slice(from, to)` contains the needle, or a `\u` escape that could spell it
   * inside a JSON string. Asked in non-decreasing order of `from` (the scan's order), so each
   * search resumes where the last one stopped and all the checks of one scan read the text once.
   * Without a needle every span may hold it.
   */
  private mayHold(from: number, to: number): boolean {
    const needle = this.needle;
    if (needle === undefined) return true;
    if (this.nextNeedle !== -1 && this.nextNeedle < from) this.nextNeedle = this.text.indexOf(needle, from);
    if (this.nextNeedle >= 0 && this.nextNeedle + needle.length <= to) return true;
    if (this.nextEscape !== -1 && this.nextEscape < from) this.nextEscape = this.text.indexOf('\\u', from);
    return this.nextEscape >= 0 && this.nextEscape + 2 <= to;
  }
}

spare = new HitScanner('', NO_OPTIONS);

/**
 * When the last character of `text` other than JSON blanks closes the value opening at `start`
 * (`}` for `{`, `]` for `[`), the end that value then has; else -1. Reads only the blanks at the
 * end. At the scan's first attempt, a span from `start` to there that `JSON.parse` accepts is the
 * hit the bracket pass and parse would give (a valid value's opener matches its last closer), and
 * only blanks follow it; whatever precedes `start` holds no attempt (an intro line of prose).
 * The price: a text that is not one value but ends with such a closer pays a parse up to its first
 * error, which is cheap for concatenated values (`{..}\n{..}`: the first one) and a whole read for
 * a cut-off document that happens to end at a closer of its first opener's kind (paired, a cut-off
 * nested document cut after a `}`: 1.34x at 1 MiB, 1.50x at 4 MiB; issue 24).
 */
function wholeValueEnd(text: string, start: number): number {
  let end = text.length;
  while (end > start && isBlank(text.charCodeAt(end - 1))) end--;
  const closer = text.charCodeAt(start) === 0x7b ? 0x7d : 0x5d;
  return end - start >= 2 && text.charCodeAt(end - 1) === closer ? end : -1;
}

function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function parseSpan(text: string, start: number, end: number): unknown {
  try {
    return JSON.parse(text.slice(start, end));
  } catch {
    return REJECTED;
  }
}
