/**
 * Markdown fenced code blocks, found in one pass so the scanner can flag hits inside them.
 *
 * Rule source: CommonMark 0.31.2, section 4.5 "Fenced code blocks"
 * (https://spec.commonmark.org/0.31.2/#fenced-code-blocks):
 * - an opening fence is a line that starts, after at most three spaces, with at least three
 *   backticks or at least three tildes; for backticks the rest of the line (the info string, e.g.
 *   `json`) may not contain a backtick;
 * - the block ends at a closing fence: at most three spaces, then at least as many of the same
 *   character, then only spaces or tabs; with no closing fence it runs to the end of the text;
 * - lines end with LF, CRLF or CR.
 * Not handled: fences inside block quotes or indented list items (more than three spaces).
 */

/**
 * The content ranges of fenced code blocks in `text`, in order, as a flat list of UTF-16 offsets
 * `[contentStart0, contentEnd0, contentStart1, contentEnd1, ...]`, each end exclusive. The content
 * of a block runs from the start of the line after the opening fence to the start of the closing
 * fence line (or the end of the text). Linear in `text.length`; returns `[]` at once when the
 * text holds no ```` ``` ```` or `~~~`.
 *
 * @example
 * fenceRanges('a\n```json\n{"x":1}\n```\n') // [10, 18]
 */
export function fenceRanges(text: string): number[] {
  const ranges: number[] = [];
  const len = text.length;
  let nextTick = text.indexOf('```');
  let nextTilde = text.indexOf('~~~');
  if (nextTick < 0 && nextTilde < 0) return ranges;
  let open = false;
  let openChar = 0;
  let openRun = 0;
  let pos = 0;
  for (;;) {
    if (nextTick >= 0 && nextTick < pos) nextTick = text.indexOf('```', pos);
    if (nextTilde >= 0 && nextTilde < pos) nextTilde = text.indexOf('~~~', pos);
    let i: number;
    if (nextTick < 0) i = nextTilde;
    else if (nextTilde < 0) i = nextTick;
    else i = Math.min(nextTick, nextTilde);
    if (i < 0) break;
    const ch = text.charCodeAt(i);
    let run = 3;
    while (i + run < len && text.charCodeAt(i + run) === ch) run++;
    const lineStart = startOfLine(text, i);
    if (lineStart < 0) {
      pos = i + run;
      continue;
    }
    const lineEnd = endOfLine(text, i + run);
    pos = lineEnd;
    if (!open) {
      if (ch === 0x60 && text.slice(i + run, lineEnd).includes('`')) continue;
      open = true;
      openChar = ch;
      openRun = run;
      ranges.push(afterLineBreak(text, lineEnd));
    } else if (ch === openChar && run >= openRun && onlyBlanks(text, i + run, lineEnd)) {
      open = false;
      ranges.push(lineStart);
    }
  }
  if (open) ranges.push(len);
  return ranges;
}

/** Whether `offset` lies in one of `ranges` (from {@link fenceRanges}); `cursor.i` walks forward. */
export function inRanges(ranges: readonly number[], offset: number, cursor: { i: number }): boolean {
  let i = cursor.i;
  while (i < ranges.length && (ranges[i + 1] as number) <= offset) i += 2;
  cursor.i = i;
  return i < ranges.length && (ranges[i] as number) <= offset;
}

/** Start of the line holding `i` if only up to three spaces precede `i` on it, else -1. */
function startOfLine(text: string, i: number): number {
  let j = i;
  while (j > 0 && i - j < 4) {
    const c = text.charCodeAt(j - 1);
    if (c === 0x0a || c === 0x0d) return j;
    if (c !== 0x20) return -1;
    j--;
  }
  return j === 0 && i <= 3 ? 0 : -1;
}

/** Offset of the line break (LF or CR) at or after `i`, or the text length. */
function endOfLine(text: string, i: number): number {
  const len = text.length;
  let j = i;
  while (j < len) {
    const c = text.charCodeAt(j);
    if (c === 0x0a || c === 0x0d) return j;
    j++;
  }
  return len;
}

/** Offset just after the line break (LF, CRLF or CR) at `i`. */
function afterLineBreak(text: string, i: number): number {
  if (i >= text.length) return text.length;
  if (text.charCodeAt(i) === 0x0d && text.charCodeAt(i + 1) === 0x0a) return i + 2;
  return i + 1;
}

function onlyBlanks(text: string, from: number, to: number): boolean {
  for (let j = from; j < to; j++) {
    const c = text.charCodeAt(j);
    if (c !== 0x20 && c !== 0x09) return false;
  }
  return true;
}
