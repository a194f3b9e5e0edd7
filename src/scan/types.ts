/**
 * Shapes of the text scanner's results and options.
 *
 * Offsets are UTF-16 code unit offsets into the scanned JavaScript string (what `String#slice`
 * takes), not byte offsets. Ends are exclusive.
 */

/** The kind of a top-level JSON value the scanner reports: `{...}` or `[...]`. */
export type ScanKind = 'object' | 'array';

/**
 * One top-level JSON object or array found in free text by {@link scanJson}.
 *
 * - `start` / `end`: UTF-16 offsets of the value in the scanned text, end exclusive;
 *   `JSON.parse(text.slice(start, end))` gives `value` back. The span starts at `{` or `[` and
 *   ends just after the matching `}` or `]` (no surrounding whitespace).
 * - `value`: the parsed value (what `JSON.parse` returns for the span).
 * - `kind`: `'object'` or `'array'`.
 * - `fenced`: true when `start` lies inside the content of a Markdown fenced code block
 *   (CommonMark 0.31.2, section 4.5: a line of three or more backticks or tildes, indented by at most
 *   three spaces, up to a closing fence of the same character, at least as long, or the end of the text).
 */
export interface ScanHit {
  start: number;
  end: number;
  value: unknown;
  kind: ScanKind;
  fenced: boolean;
}

/**
 * Options of {@link scanJson}. All optional.
 */
export interface ScanOptions {
  /**
   * Stop after this many hits.
   * @defaultValue Infinity
   */
  maxHits?: number;
  /**
   * Which brackets open a hit. A bracket of a kind not listed is treated as prose, so with
   * `['object']` the objects inside a top-level array are reported one by one, and with `['array']`
   * arrays nested inside objects are reported.
   * @defaultValue ['object', 'array']
   */
  kinds?: readonly ScanKind[];
  /**
   * Drop hits shorter than this many UTF-16 code units (`end - start`); e.g. `3` drops `{}` and `[]`.
   * A dropped hit still counts as scanned: values inside it are not reported separately.
   * @defaultValue 0
   */
  minLength?: number;
  /**
   * Report only hits whose text contains this string (or a `\u` escape, which could spell it in a
   * JSON string). Any other span is checked by the allocation-free validator and skipped as
   * offsets, never parsed, so on brace-heavy text only the spans that can be candidates are built
   * (issue 15). {@link findJsonObjects} passes its `anchor` here. Hits and resume points are those
   * of the scan without it, minus the hits dropped.
   */
  mustContain?: string;
}

/**
 * One JSON object found by {@link findJsonObjects}.
 *
 * - `value`: the object.
 * - `offset`: UTF-16 offset in the scanned text of the top-level hit ({@link ScanHit.start}) it was
 *   found in, whatever the depth or string layer.
 * - `fenced`: for `nested === 0`, whether the top-level hit is inside a Markdown code fence; for an
 *   object found inside a string, whether it sat inside a fence of that string (the innermost layer).
 * - `nested`: how many JSON string layers were unwrapped to reach it (0 = a direct value).
 * - `pointer`: RFC 6901 JSON Pointer of the object inside its top-level hit (`""` for the hit
 *   itself); for an object found inside a string, the pointer of the string in the top-level hit
 *   that holds it (the outermost string layer), shared by every object found through that string.
 */
export interface FoundObject {
  value: Record<string, unknown>;
  offset: number;
  fenced: boolean;
  nested: number;
  pointer: string;
  /** With {@link FindOptions.spans}: where the object is a scan hit itself, see {@link FoundSpan}. */
  span?: FoundSpan;
}

/**
 * Where an object that is a scan hit itself (not a value inside one) sits: `JSON.parse(text.slice(start,
 * end))` builds it again, so a caller can let the value go and keep three numbers' worth instead
 * (issue 24: 500,000 candidates held side by side). `text` is the top-level text, or the string
 * value of the layer the hit was found in.
 */
export interface FoundSpan {
  text: string;
  start: number;
  end: number;
}

/**
 * Options of {@link findJsonObjects}. All optional.
 */
export interface FindOptions {
  /**
   * Keep only objects that have this own key. String values that do not contain this text are
   * then not re-scanned (a cheap pre-check: a key spelled with `\u` escapes inside a string layer
   * is therefore missed).
   */
  anchor?: string;
  /**
   * How many JSON string layers to unwrap at most (a string holding JSON that holds a string
   * holding JSON is two layers). `0` turns string re-scanning off.
   * @defaultValue 3
   */
  maxStringDepth?: number;
  /**
   * Give each object that is a scan hit itself its {@link FoundObject.span}.
   * @defaultValue false
   */
  spans?: boolean;
}
