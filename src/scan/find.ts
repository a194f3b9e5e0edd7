import { escapePointerToken } from '#src/pointer.ts';
import { eachJsonHit } from '#src/scan/scan.ts';
import type { FindOptions, FoundObject, FoundSpan, ScanHit } from '#src/scan/types.ts';

const DEFAULT_MAX_STRING_DEPTH = 3;

/** A value waiting to be visited: where it sits and how it was reached. */
interface Frame {
  value: unknown;
  pointer: string;
  offset: number;
  fenced: boolean;
  nested: number;
  /** Inside a string layer: the pointer of the outermost string, reported for every object found. */
  layerPointer: string | undefined;
  /** For a scan hit's own value: where it sits (given out with {@link FindOptions.spans}). */
  span?: FoundSpan;
}

/**
 * Every JSON object reachable from the JSON in free text: each top-level object hit of
 * {@link scanJson}, every object nested inside a hit's value (objects and arrays alike are walked),
 * and every object found by scanning string values that contain `{` as text again (JSON in JSON
 * strings: a `result` field holding ```` "```json\n{\"a\":1}\n```" ```` or `"{\"p\":1}{\"p\":2}"`),
 * recursively up to `maxStringDepth` string layers.
 *
 * Order: pre-order (a parent before its children), hits in document order, children in the
 * order JavaScript enumerates the parsed object's own keys (document order, except that
 * integer-like keys such as `"1"` come first, ascending) and array order; the objects found in a
 * string come where the string sits. With duplicate keys only the last value is seen
 * (`JSON.parse` keeps it). Not found: JSON that {@link scanJson} does not report (see its known
 * difference), and objects in strings deeper than `maxStringDepth` layers.
 *
 * Cost: linear in `text.length` per string layer (each layer re-scans only the strings of the
 * layer above that contain `{`). The walk uses an explicit stack, so deep nesting cannot overflow.
 * With `anchor`, spans whose text cannot hold the key are never parsed (see {@link eachJsonObject}).
 *
 * @param text - any string; offsets in the result are UTF-16 code units into it.
 * @param options - {@link FindOptions}: `anchor` keeps only objects with that own key and skips
 *   strings that do not contain it; `maxStringDepth` (default 3) bounds string unwrapping.
 * @returns the objects with `offset` (start of the top-level hit), `fenced`, `nested` (string
 *   layers unwrapped) and `pointer` (RFC 6901), see {@link FoundObject}.
 *
 * @example
 * findJsonObjects('{"type":"result","result":"```json\\n{\\"final\\":true}\\n```"}', { anchor: 'final' })
 * // [{ value: { final: true }, offset: 0, fenced: true, nested: 1, pointer: '/result' }]
 */
export function findJsonObjects(text: string, options: FindOptions = {}): FoundObject[] {
  const found: FoundObject[] = [];
  for (const object of eachJsonObject(text, options)) found.push(object);
  return found;
}

/**
 * The objects of {@link findJsonObjects}, produced one at a time in the same order: a caller that
 * wants the first final answer stops early, and one that wants them all holds only what it keeps.
 * Hits are taken from the scan lazily too ({@link eachJsonHit}), top level and string layers alike,
 * and with `anchor` the scan builds only spans whose text can hold the key (everything else is
 * skipped as offsets), so memory is bounded by what the caller keeps plus the hit being walked.
 * Never throws.
 *
 * @param text - any string; offsets in the results are UTF-16 code units into it.
 * @param options - {@link FindOptions}.
 * @returns an iterator of {@link FoundObject}.
 */
export function eachJsonObject(text: string, options: FindOptions = {}): Generator<FoundObject, void, undefined> {
  const scanOptions = options.anchor === undefined ? {} : { mustContain: options.anchor };
  return walk(typeof text === 'string' ? [{ hits: eachJsonHit(text, scanOptions), text, top: true, offset: 0, nested: 0, layerPointer: undefined }] : [], options);
}

/**
 * The objects {@link eachJsonObject} gives for a text that is one JSON object or array and nothing
 * else (JSON blanks and a leading byte order mark aside), from that value already parsed: `value`
 * is `JSON.parse` of the text, `offset` where it starts in the text. The same objects in the same
 * order, without parsing the text a second time (issue 24: a decoder that read stdout as one
 * document no longer holds two parsed copies of it for the free-text scan). Never throws.
 *
 * @example
 * [...eachJsonObjectOf({ a: { final: true } }, 0, { anchor: 'final' })] // [{ value: { final: true }, offset: 0, fenced: false, nested: 0, pointer: '/a' }]
 */
export function eachJsonObjectOf(value: object, offset: number, options: FindOptions = {}): Generator<FoundObject, void, undefined> {
  return walk([{ value, pointer: '', offset, fenced: false, nested: 0, layerPointer: undefined }], options);
}

/** The walk of {@link eachJsonObject} from `stack` (hits still to take, values still to visit). */
function* walk(stack: (Frame | Layer)[], options: FindOptions): Generator<FoundObject, void, undefined> {
  const anchor = options.anchor;
  const maxStringDepth = options.maxStringDepth ?? DEFAULT_MAX_STRING_DEPTH;
  const scanOptions = anchor === undefined ? {} : { mustContain: anchor };
  const spans = options.spans === true;
  while (stack.length > 0) {
    const item = stack.pop() as Frame | Layer;
    if ('hits' in item) {
      const next = item.hits.next();
      if (next.done === true) continue;
      const hit = next.value;
      stack.push(item);
      const frame: Frame = {
        value: hit.value,
        pointer: '',
        offset: item.top ? hit.start : item.offset,
        fenced: hit.fenced,
        nested: item.nested,
        layerPointer: item.layerPointer,
      };
      if (spans) frame.span = { text: item.text, start: hit.start, end: hit.end };
      stack.push(frame);
      continue;
    }
    const frame = item;
    const { value } = frame;
    if (typeof value === 'string') {
      if (frame.nested >= maxStringDepth || !value.includes('{')) continue;
      if (anchor !== undefined && !value.includes(anchor)) continue;
      stack.push({
        hits: eachJsonHit(value, scanOptions),
        text: value,
        top: false,
        offset: frame.offset,
        nested: frame.nested + 1,
        layerPointer: frame.layerPointer ?? frame.pointer,
      });
    } else if (Array.isArray(value)) {
      for (let k = value.length - 1; k >= 0; k--) pushChild(stack, frame, value[k], String(k));
    } else if (value !== null && typeof value === 'object') {
      const object = value as Record<string, unknown>;
      if (anchor === undefined || Object.hasOwn(object, anchor)) {
        const found: FoundObject = {
          value: object,
          offset: frame.offset,
          fenced: frame.fenced,
          nested: frame.nested,
          pointer: frame.layerPointer ?? frame.pointer,
        };
        if (frame.span) found.span = frame.span;
        yield found;
      }
      const keys = Object.keys(object);
      for (let k = keys.length - 1; k >= 0; k--) {
        const key = keys[k] as string;
        pushChild(stack, frame, object[key], escapePointerToken(key));
      }
    }
  }
}

/**
 * Hits of one string layer still to be walked: the top-level text (`top`, each hit's own offset)
 * or a string value (every object found reports the offset and pointer of that string).
 */
interface Layer {
  hits: Iterator<ScanHit>;
  /** The text the hits are found in. */
  text: string;
  top: boolean;
  offset: number;
  nested: number;
  layerPointer: string | undefined;
}

/** Queues a child value if it can hold an object (a string, an array or an object). */
function pushChild(stack: (Frame | Layer)[], parent: Frame, value: unknown, token: string): void {
  if (value === null || (typeof value !== 'object' && typeof value !== 'string')) return;
  stack.push({
    value,
    pointer: parent.layerPointer === undefined ? `${parent.pointer}/${token}` : '',
    offset: parent.offset,
    fenced: parent.fenced,
    nested: parent.nested,
    layerPointer: parent.layerPointer,
  });
}
