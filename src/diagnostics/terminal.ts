/**
 * What reaches a terminal: text routecert prints quotes what others wrote (a case's description, a
 * CLI's stderr, a worker's log), and a terminal obeys the control characters in it. A case file
 * whose description holds `\r` and an escape sequence could set the window title, clear the
 * screen, or overwrite `FAIL ...` with `PASS ...` on the line a user reads (issue 23, repeated on
 * hostile inputs). {@link terminalSafe} shows such characters instead of sending them.
 */

const ESC = String.fromCharCode(0x1b);
/**
 * The colour and style sequences (SGR, `ESC [ n m`) routecert's own colours are made of (picocolors'
 * bold, dim, red, green, yellow, magenta and their resets), kept. Any other SGR is shown: conceal
 * (8), reverse (7), black or a background could hide the `FAIL` a case's own text follows.
 */
const KEPT = new RegExp(`${ESC}\\[(?:1|2|22|31|32|33|35|39)m`, 'y');
/** The progress line's own rewrite (src/report/progress.ts): kept only where it starts a write. */
const LINE_REWRITE = `\r${ESC}[K`;

/**
 * `text` with every control character a terminal would act on shown as `\xHH` (C0 but newline and
 * tab, DEL, C1; `\r\n` becomes `\n`), routecert's own colour sequences (SGR) kept, other SGR shown, and the progress line's
 * `\r ESC[K` kept when it starts `text` (routecert writes it as the start of a write, never inside one).
 *
 * @example
 * terminalSafe('ok\u001b]0;title\u0007\rPASS') // 'ok\\x1b]0;title\\x07\\x0dPASS'
 */
export function terminalSafe(text: string): string {
  const start = text.startsWith(LINE_REWRITE) ? LINE_REWRITE.length : 0;
  let out = text.slice(0, start);
  const rest = text.slice(start).replace(/\r\n/g, '\n');
  for (let i = 0; i < rest.length; i += 1) {
    const c = rest.charCodeAt(i);
    const control = (c < 0x20 && c !== 0x0a && c !== 0x09) || (c >= 0x7f && c <= 0x9f);
    if (!control) {
      out += rest[i];
      continue;
    }
    if (c === 0x1b) {
      KEPT.lastIndex = i;
      const m = KEPT.exec(rest);
      if (m !== null) {
        out += m[0];
        i += m[0].length - 1;
        continue;
      }
    }
    out += `\\x${c.toString(16).padStart(2, '0')}`;
  }
  return out;
}
