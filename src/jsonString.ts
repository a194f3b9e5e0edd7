/**
 * `JSON.stringify(text)` handed to `out` a slice of `text` at a time when it is long: the escaped
 * text of a string can be twice its length (quotes, control characters), longer than the longest
 * string V8 can build. A surrogate pair is never split between two slices, so the pieces joined are
 * exactly `JSON.stringify(text)`.
 *
 * @param text - any string.
 * @param out - receives the pieces in order (the opening quote, the escaped slices, the closing quote).
 * @param slice - code units of `text` per piece (default 64 Ki); a text no longer is written whole.
 */
export function writeJsonString(text: string, out: (chunk: string) => void, slice = 1 << 16): void {
  if (text.length <= slice) {
    out(JSON.stringify(text));
    return;
  }
  out('"');
  for (let from = 0; from < text.length; ) {
    let to = Math.min(from + slice, text.length);
    const last = text.charCodeAt(to - 1);
    // Keep a surrogate pair whole: end before it, or, on a one-unit slice, after it.
    if (to < text.length && last >= 0xd800 && last <= 0xdbff) to += to - 1 > from ? -1 : 1;
    out(JSON.stringify(text.slice(from, to)).slice(1, -1));
    from = to;
  }
  out('"');
}
