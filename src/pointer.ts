/**
 * JSON Pointer (RFC 6901), the one module every layer uses to write and read pointers: escaping
 * of reference tokens (`~` -> `~0`, `/` -> `~1`), formatting and joining, parsing, and turning a
 * local `$ref` (`#/...`, the URI fragment form) into a pointer. It imports nothing, so the
 * scanner, the envelope toolkit, the schema lint, contracts and the harness may all use it.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6901
 */

/**
 * Escapes one reference token: `~` becomes `~0`, then `/` becomes `~1` (RFC 6901 §3). A number
 * (an array index) is written in decimal.
 *
 * @example
 * escapePointerToken('a/b~c'); // 'a~1b~0c'
 * escapePointerToken(3);       // '3'
 */
export function escapePointerToken(token: string | number): string {
  const text = String(token);
  if (!text.includes('~') && !text.includes('/')) return text;
  return text.replaceAll('~', '~0').replaceAll('/', '~1');
}

/**
 * Unescapes one reference token: `~1` becomes `/`, then `~0` becomes `~` (RFC 6901 §4).
 *
 * @example
 * unescapePointerToken('a~1b~0c'); // 'a/b~c'
 */
export function unescapePointerToken(token: string): string {
  if (!token.includes('~')) return token;
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}

/**
 * Appends tokens to a pointer, escaping each. `''` is the whole document.
 *
 * @example
 * joinPointer('/properties', 'a/b');  // '/properties/a~1b'
 * joinPointer('', 'items', 0);        // '/items/0'
 */
export function joinPointer(pointer: string, ...tokens: readonly (string | number)[]): string {
  let out = pointer;
  for (const token of tokens) out += '/' + escapePointerToken(token);
  return out;
}

/**
 * The pointer of a path of unescaped tokens from the document root; `[]` gives `''`.
 *
 * @example
 * formatPointer(['properties', 'a/b', 0]); // '/properties/a~1b/0'
 */
export function formatPointer(tokens: readonly (string | number)[]): string {
  return joinPointer('', ...tokens);
}

/**
 * Splits a pointer into its unescaped tokens. `''` gives `[]`; `'/'` gives `['']` (the key `""`).
 *
 * @throws {SyntaxError} when a non-empty pointer does not start with `/`.
 * @example
 * parsePointer('/properties/a~1b'); // ['properties', 'a/b']
 */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) {
    throw new SyntaxError(`[routecert] not a JSON Pointer (must be empty or start with "/"): ${pointer}`);
  }
  return pointer.slice(1).split('/').map(unescapePointerToken);
}

/**
 * Turns a same-document `$ref` into a JSON Pointer, or `undefined` when the reference is not a
 * local pointer (another document, a plain-name fragment such as `#foo`, or not a string).
 * The fragment is percent-decoded first, as RFC 6901 §6 requires for the URI fragment form.
 *
 * @example
 * localRefToPointer('#/$defs/a%20b'); // '/$defs/a b'
 * localRefToPointer('#');             // ''
 * localRefToPointer('other.json#/x'); // undefined
 */
export function localRefToPointer(ref: unknown): string | undefined {
  if (typeof ref !== 'string' || !ref.startsWith('#')) return undefined;
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (fragment === '' || fragment.startsWith('/')) return fragment;
  return undefined;
}
