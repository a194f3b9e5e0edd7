/**
 * Bounded evidence from an envelope's stdout and stderr: a short message stays whole, a long one
 * is clipped so it can never flood a log nor vanish.
 *
 * Rule source: EveryInc/compound-engineering-plugin `bounded_failure_evidence` (PR #1175,
 * 2026-07-17), which replaced an unguarded `${x: -300}` tail that erased messages shorter than 300
 * characters on macOS bash 3.2 (PR #1153). See shared/research/ce-plugin.md section 1.9.
 */

import { redactWindows } from '#src/diagnostics/shapes.ts';

/**
 * How long evidence is clipped:
 * - `head-tail` (default): first 147 characters + ` ... ` + last 147 characters (299 in all), the
 *   same as `{ head: 147, tail: 147 }`;
 * - `tail`: the last 300 characters, the same as `{ head: 0, tail: 300 }`;
 * - `{ head, tail }` (a contract's `clip`): a text of at most `head + tail + 6` characters (`tail`
 *   when `head` is 0) stays whole; a longer one keeps its first `head` and last `tail` characters
 *   joined by ` ... `. Characters are UTF-16 code units; a code point is never split.
 */
export type ClipPolicy = 'head-tail' | 'tail' | { head: number; tail: number };

/** The bound, in characters (UTF-16 code units), up to which evidence stays whole. */
export const EVIDENCE_LIMIT_CHARS = 300;

const HEAD_TAIL_PART = 147;
const ELLIPSIS = ' ... ';

/**
 * Clip one evidence string: newlines (CR, LF, CRLF) become single spaces; a result of up to
 * {@link EVIDENCE_LIMIT_CHARS} characters is returned whole, a longer one is clipped by `policy`.
 *
 * @example
 * clipEvidence('schema invalid')            // 'schema invalid'
 * clipEvidence('x'.repeat(1000)).length     // 299 (147 + 5 + 147)
 */
export function clipEvidence(text: string, policy: ClipPolicy = 'head-tail'): string {
  const { head, tail } = policy === 'head-tail' ? { head: HEAD_TAIL_PART, tail: HEAD_TAIL_PART } : policy === 'tail' ? { head: 0, tail: EVIDENCE_LIMIT_CHARS } : policy;
  // Secrets are hidden before the cut (src/diagnostics/shapes.ts): a cut never leaves part of one.
  const windows = redactWindows(text, head, tail);
  const flatten = (t: string): string => t.replace(/\r\n|\r|\n/g, ' ');
  const limit = head === 0 ? tail : head + tail + ELLIPSIS.length + 1;
  if (windows.whole !== null && flatten(windows.whole).length <= limit) return flatten(windows.whole);
  const first = flatten(windows.head);
  const last = flatten(windows.tail);
  if (head === 0) return last.slice(startOfCodePoint(last, last.length - tail));
  return first.slice(0, endOfCodePoint(first, head)) + ELLIPSIS + (tail === 0 ? '' : last.slice(startOfCodePoint(last, last.length - tail)));
}

/** Room an evidence line has besides its clipped parts (its fixed words and short quotes), in characters. */
export const EVIDENCE_LINE_ROOM = 200;

/**
 * The longest an evidence line of a contract with clip `{ head, tail }` may be:
 * `head + tail + 5 + {@link EVIDENCE_LINE_ROOM}` (505 with the default 147 + 147).
 */
export function evidenceLineLimit(clip: { head: number; tail: number }): number {
  return clip.head + clip.tail + ELLIPSIS.length + EVIDENCE_LINE_ROOM;
}

/**
 * The last guard on every evidence line of a verdict: a line within {@link evidenceLineLimit} is
 * returned as is (its parts were clipped where they were made); a longer one keeps its first
 * `head + 100` and last `tail + 100` characters, newlines made spaces.
 */
export function boundLine(line: string, clip: { head: number; tail: number }): string {
  if (line.length <= evidenceLineLimit(clip)) return line;
  const head = clip.head + EVIDENCE_LINE_ROOM / 2;
  const tail = clip.tail + EVIDENCE_LINE_ROOM / 2;
  const windows = redactWindows(line, head, tail);
  const first = (windows.whole ?? windows.head).replace(/\r\n|\r|\n/g, ' ');
  const last = (windows.whole ?? windows.tail).replace(/\r\n|\r|\n/g, ' ');
  if (windows.whole !== null && first.length <= evidenceLineLimit(clip)) return first;
  return first.slice(0, endOfCodePoint(first, head)) + ELLIPSIS + last.slice(startOfCodePoint(last, last.length - tail));
}

/**
 * `text` whole when it has at most `maxChars` characters (UTF-16 code units), else cut so that it
 * and `marker` (default `...`; a function gets the number of characters left out) fit in
 * `maxChars`, never inside a surrogate pair. The one clip of short messages (report cells,
 * problems, verdict reasons); evidence lines use {@link clipEvidence}.
 *
 * @example
 * clipText('abcdefgh', 6)   // 'abc...'
 * clipText('ab😀cd', 5)     // 'ab...' (not half the emoji)
 */
export function clipText(text: string, maxChars: number, marker: string | ((omittedChars: number) => string) = '...'): string {
  if (text.length <= maxChars) return text;
  let keep = maxChars - (typeof marker === 'string' ? marker : marker(text.length - maxChars)).length;
  keep = endOfCodePoint(text, Math.max(0, keep));
  return text.slice(0, keep) + (typeof marker === 'string' ? marker : marker(text.length - keep));
}

/** `end` moved back by one when it would cut a surrogate pair (so no half emoji is kept). */
function endOfCodePoint(text: string, end: number): number {
  const c = text.charCodeAt(end - 1);
  return c >= 0xd800 && c <= 0xdbff ? end - 1 : end;
}

/** `start` moved forward by one when it would begin inside a surrogate pair. */
function startOfCodePoint(text: string, start: number): number {
  const c = text.charCodeAt(start);
  return c >= 0xdc00 && c <= 0xdfff ? start + 1 : start;
}

/**
 * Evidence for a stream (stdout) that a decoder read: its human fields first (`result`, `message`,
 * `error.message`, de-duplicated, joined with ` | `), else the raw text; then the ancillary
 * fragments (`api_error_status=529`, `terminal_reason=api_error`), joined with spaces; then clipped.
 * Returns `''` when there is nothing to say.
 */
export function boundedEvidence(
  parts: { human: string[]; ancillary: string[]; raw: string },
  policy: ClipPolicy = 'head-tail',
): string {
  const human = [...new Set(parts.human.filter((h) => h.trim() !== ''))].join(' | ');
  const base = human !== '' ? human : parts.raw.trim();
  const text = [base, ...parts.ancillary].filter((p) => p !== '').join(' ');
  return clipEvidence(text, policy);
}

/** At most this many error frames (and stderr error lines) are kept whole per stream. */
export const ERROR_WORDS_MAX = 5;

/** Lines longer than this (UTF-16 code units) are not read as error frames. */
const ERROR_FRAME_MAX_CHARS = 64 * 1024;

/** Event `type`s that are error frames: `error`, `session.error`, `turn.failed`, `stream_error`, ... */
const ERROR_TYPE = /(?:^|[._-])(?:error|failed|failure)$/i;

/**
 * The message an error frame carries: `message`, `error.message`, `error` (a string), `data.message`,
 * `errorMessage`; when that message is itself a relayed JSON error body, the body's message.
 */
function frameMessage(frame: Record<string, unknown>, depth = 0): string | undefined {
  const words = ownMessage(frame);
  if (words === undefined || depth > 1 || !words.trim().startsWith('{')) return words;
  try {
    const body: unknown = JSON.parse(words);
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) return frameMessage(body as Record<string, unknown>, depth + 1) ?? words;
  } catch {
    // not a JSON body: the words as they are
  }
  return words;
}

function ownMessage(frame: Record<string, unknown>): string | undefined {
  const places: unknown[] = [frame.message, frame.errorMessage];
  for (const key of ['error', 'data']) {
    const v = frame[key];
    if (typeof v === 'string') places.push(v);
    else if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
      const inner = v as Record<string, unknown>;
      places.push(inner.message, inner.errorMessage);
      if (typeof inner.data === 'object' && inner.data !== null) places.push((inner.data as Record<string, unknown>).message);
    }
  }
  return places.find((p): p is string => typeof p === 'string' && p.trim() !== '');
}

/**
 * The CLI's own error words in `stdout` read as JSON frames (one per line, or one document): for
 * each frame whose `type` names an error (`error`, `session.error`, `turn.failed`) or that carries
 * an `error` field (an object or a non-empty string), its message (`message`, `error.message`,
 * `error`, `data.message`, `errorMessage`), else the frame itself; in stream order, de-duplicated,
 * at most {@link ERROR_WORDS_MAX}. Only lines of at most 64 KiB that mention `error` or `fail` are parsed. Never throws.
 * Source: a Gemini CLI stream-json `{"type":"error","severity":"error","message":"Invalid stream: ..."}`
 * frame in the middle of a long stream (google-gemini/gemini-cli#26218) was clipped out of the evidence.
 *
 * @example
 * errorFrames('{"type":"message","content":"hi"}\n{"type":"error","message":"Invalid stream: x"}\n') // ['Invalid stream: x']
 */
export function errorFrames(stdout: string): string[] {
  const out: string[] = [];
  const lines = stdout.trimStart().startsWith('{') && !stdout.trim().includes('\n{') ? [stdout.trim()] : linesOf(stdout);
  for (const line of lines) {
    if (out.length >= ERROR_WORDS_MAX) break;
    const t = line.trim();
    // An error frame is small: a longer line (a whole answer) is not parsed again here.
    if (!t.startsWith('{') || t.length > ERROR_FRAME_MAX_CHARS || !/error|fail/i.test(t)) continue;
    let frame: unknown;
    try {
      frame = JSON.parse(t);
    } catch {
      continue;
    }
    if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) continue;
    const f = frame as Record<string, unknown>;
    const typed = typeof f.type === 'string' && ERROR_TYPE.test(f.type);
    // An `error` object is an error field; a bare `error` string (`"error":"unknown"` on a Claude
    // assistant event) says nothing the frame's type does not.
    const field = typeof f.error === 'object' && f.error !== null && !Array.isArray(f.error);
    if (!typed && !field) continue;
    const words = frameMessage(f) ?? t;
    if (!out.includes(words)) out.push(words);
  }
  return out;
}

/**
 * The lines of `text`, one at a time (LF ends a line; the CR of a CRLF stays on the line, for the
 * caller's `trim`): a 100 MB stdout is never split into a list of a million strings (issue 24).
 */
function* linesOf(text: string): Generator<string, void, undefined> {
  for (let start = 0; ; ) {
    const end = text.indexOf('\n', start);
    if (end === -1) {
      yield text.slice(start);
      return;
    }
    yield text.slice(start, end);
    start = end + 1;
  }
}

/** stderr lines that open with an error: `Error: ...`, `error: ...`, `FATAL ...`, `NotFoundError: ...`, `Error when talking to ...`. */
const STDERR_ERROR_LINE = /^(?:[A-Za-z_.]*(?:Error|Exception)|error|ERROR|fatal|FATAL)\b[:\s]/;

/**
 * Evidence lines that keep the CLI's own error words whole (each bounded by {@link clipEvidence})
 * when the clipped evidence would lose them (issue 21 point 6): `peer error: <words>` for each
 * {@link errorFrames} of stdout, and `peer error (stderr): <line>` for each line that opens with an
 * error (`Error: ...`, `NotFoundError: ...`, at most 3) of a stderr too long to stay whole; a word already whole in one of
 * `shown` (the lines made so far) is not repeated. Short stderr is never split: it stays whole in
 * its own line.
 */
export function errorEvidence(raw: { stdout: string; stderr: string }, shown: readonly string[], policy: ClipPolicy = 'head-tail'): string[] {
  const lines: string[] = [];
  const seen = (words: string) => {
    const flat = words.replace(/\r\n|\r|\n/g, ' ').trim();
    return shown.some((s) => s.includes(flat)) || lines.some((s) => s.includes(flat));
  };
  for (const words of errorFrames(raw.stdout)) if (!seen(words)) lines.push(`peer error: ${clipEvidence(words, policy)}`);
  const stderr = raw.stderr.trim();
  if (stderr.replace(/\r\n|\r|\n/g, ' ').length > EVIDENCE_LIMIT_CHARS) {
    let n = 0;
    for (const line of linesOf(stderr)) {
      if (n >= 3) break;
      const t = line.trim();
      if (!STDERR_ERROR_LINE.test(t) || seen(t)) continue;
      lines.push(`peer error (stderr): ${clipEvidence(t, policy)}`);
      n += 1;
    }
  }
  return lines;
}
