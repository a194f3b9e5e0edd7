/**
 * One reference token of an RFC 6901 JSON Pointer (https://www.rfc-editor.org/rfc/rfc6901#section-3):
 * `~` becomes `~0` and `/` becomes `~1`, in that order.
 *
 * @example
 * pointerToken('a/b~c') // 'a~1b~0c'
 */
export function pointerToken(key: string): string {
  if (!key.includes('~') && !key.includes('/')) return key;
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}
