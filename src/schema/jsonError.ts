/**
 * Locating the first syntax error in JSON text. `JSON.parse` messages in Node 20 do not always
 * carry a position (`Unexpected token '}', "{"a": }" is not valid JSON`), so the linter scans the
 * text itself (RFC 8259 grammar, iteratively: deep nesting is fine) to report line and column.
 */

/**
 * Where a JSON text first breaks: UTF-16 `offset` into the text, and 1-based `line`/`column`.
 */
export interface JsonErrorLocation {
  offset: number;
  line: number;
  column: number;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX4 = /^[0-9a-fA-F]{4}$/;

/** Returns the end offset of the string starting at `start` (a `"`), or `-(errorOffset + 1)`. */
function scanString(text: string, start: number): number {
  let j = start + 1;
  while (j < text.length) {
    const ch = text.charCodeAt(j);
    if (ch === 0x22) return j + 1;
    if (ch === 0x5c) {
      const next = text[j + 1];
      if (next !== undefined && '"\\/bfnrt'.includes(next)) j += 2;
      else if (next === 'u' && HEX4.test(text.slice(j + 2, j + 6))) j += 6;
      else return -(j + 1);
      continue;
    }
    if (ch < 0x20) return -(j + 1);
    j++;
  }
  return -(text.length + 1);
}

type Expect = 'value' | 'valueOrEnd' | 'key' | 'keyOrEnd' | 'colon' | 'commaOrEnd' | 'done';

function afterValue(stack: readonly unknown[]): Expect {
  return stack.length === 0 ? 'done' : 'commaOrEnd';
}

/**
 * The offset of the first JSON syntax error in `text`, or `undefined` when it is valid JSON.
 * An empty or truncated text errs at its end.
 */
export function findJsonSyntaxError(text: string): number | undefined {
  const stack: ('{' | '[')[] = [];
  let expect = 'value' as Expect;
  let i = 0;
  while (true) {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
    if (i >= text.length) return expect === 'done' ? undefined : text.length;
    const c = text[i] as string;
    switch (expect) {
      case 'done':
        return i;
      case 'colon':
        if (c !== ':') return i;
        i++;
        expect = 'value';
        break;
      case 'key':
      case 'keyOrEnd': {
        if (expect === 'keyOrEnd' && c === '}') {
          stack.pop();
          i++;
          expect = afterValue(stack);
          break;
        }
        if (c !== '"') return i;
        const end = scanString(text, i);
        if (end < 0) return -end - 1;
        i = end;
        expect = 'colon';
        break;
      }
      case 'commaOrEnd': {
        const top = stack[stack.length - 1];
        if (c === ',') {
          i++;
          expect = top === '{' ? 'key' : 'value';
        } else if ((top === '{' && c === '}') || (top === '[' && c === ']')) {
          stack.pop();
          i++;
          expect = afterValue(stack);
        } else {
          return i;
        }
        break;
      }
      case 'value':
      case 'valueOrEnd': {
        if (expect === 'valueOrEnd' && c === ']') {
          stack.pop();
          i++;
          expect = afterValue(stack);
          break;
        }
        if (c === '{' || c === '[') {
          stack.push(c);
          i++;
          expect = c === '{' ? 'keyOrEnd' : 'valueOrEnd';
          break;
        }
        if (c === '"') {
          const end = scanString(text, i);
          if (end < 0) return -end - 1;
          i = end;
          expect = afterValue(stack);
          break;
        }
        if (c === '-' || (c >= '0' && c <= '9')) {
          NUMBER.lastIndex = i;
          const match = NUMBER.exec(text);
          if (match === null) return c === '-' ? i + 1 : i;
          i += match[0].length;
          expect = afterValue(stack);
          break;
        }
        const literal = ['true', 'false', 'null'].find((word) => text.startsWith(word, i));
        if (literal === undefined) return i;
        i += literal.length;
        expect = afterValue(stack);
        break;
      }
    }
  }
}

/**
 * Line and column (1-based) of a UTF-16 offset in `text`.
 *
 * @example
 * lineColumn('{\n  "a": }', 9); // { offset: 9, line: 2, column: 8 }
 */
export function lineColumn(text: string, offset: number): JsonErrorLocation {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { offset, line, column: offset - lineStart + 1 };
}

/**
 * Where `text` first breaks as JSON, or `undefined` when it parses.
 *
 * @example
 * locateJsonError('{"a": 1,}'); // { offset: 8, line: 1, column: 9 }
 */
export function locateJsonError(text: string): JsonErrorLocation | undefined {
  const offset = findJsonSyntaxError(text);
  return offset === undefined ? undefined : lineColumn(text, offset);
}

/**
 * Why and where a text that `JSON.parse` refused is not JSON, on one line: `line 3, column 7:
 * Unexpected token ','`. The place comes from {@link locateJsonError} (Node 20's messages give a
 * position for some errors only, a byte offset at best); the reason is Node's message without its
 * quoted snippet (which can hold the text's own newlines and break a console line) or its position.
 * Every "is not JSON" error of a file a user wrote (case files, configs, schemas, manifests) says it
 * this way.
 *
 * @param text - the text given to `JSON.parse`.
 * @param error - what `JSON.parse` threw.
 * @example
 * describeJsonSyntaxError('{\n "a": 1,,\n}', new SyntaxError(`Unexpected token ',', "{\n "a": 1,,\n}" is not valid JSON`))
 * // 'line 2, column 10: Unexpected token \',\''
 */
export function describeJsonSyntaxError(text: string, error: unknown): string {
  const at = locateJsonError(text);
  return at === undefined ? jsonSyntaxReason(error) : `line ${at.line}, column ${at.column}: ${jsonSyntaxReason(error)}`;
}

/** The reason of a `JSON.parse` error, on one line, without its quoted snippet or position (see {@link describeJsonSyntaxError}). */
export function jsonSyntaxReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  let reason = message.replace(/\s+in JSON at position \d+[\s\S]*$/, '').replace(/\s+after JSON at position \d+[\s\S]*$/, ' after the JSON value');
  const snippet = reason.search(/, (?:\.\.\.)?"/);
  if (snippet > 0) reason = reason.slice(0, snippet);
  return reason.replace(/\s+/g, ' ').trim() || 'not valid JSON';
}
