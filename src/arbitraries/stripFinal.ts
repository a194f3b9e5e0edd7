/** The corpus form of "the answer lost its final key", used by the final-removal property and the certify checks. */

/**
 * Remove `"final": true` members (of `finalityKey`: `final`, or the key a contract names, e.g.
 * `done`) from JSON text, raw or escaped once or twice inside strings (the corpus form of the
 * change; generated samples change their plan instead): with the comma before or after it, or,
 * when the answer streams as text chunks (grok streaming-json, one ACP message chunk per line),
 * alone in its chunk before the closing `}` whose comma sits in an earlier chunk (case
 * 3787d941088f5687: the route assembles the chunks, so the member must go from the chunk too).
 */
export function stripFinal(text: string, finalityKey = 'final'): string {
  let out = text;
  for (const q of ['"', '\\"', '\\\\\\"']) {
    const key = `${q}${finalityKey}${q}`;
    const esc = key.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
    out = out.replace(new RegExp(`,(?:\\s|\\\\n)*${esc}\\s*:\\s*true`, 'g'), '');
    out = out.replace(new RegExp(`${esc}\\s*:\\s*true\\s*,(?:\\s|\\\\n)*`, 'g'), '');
    out = out.replace(new RegExp(`${esc}\\s*:\\s*true(?=\\s*})`, 'g'), '');
  }
  return out;
}

/**
 * Turn `"final": true` members (of `finalityKey`) into the string `"final": "true"` in JSON text,
 * raw or escaped once or twice inside strings, as {@link stripFinal} finds them: the answer a model
 * gives when it quotes the flag. Only the boolean `true` is final (missing or `"true"` is not: fail
 * closed); a worker testing the flag for truthiness publishes it.
 */
export function finalAsString(text: string, finalityKey = 'final'): string {
  let out = text;
  for (const q of ['"', '\\"', '\\\\\\"']) {
    const key = `${q}${finalityKey}${q}`;
    const esc = key.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
    out = out.replace(new RegExp(`(${esc}\\s*:\\s*)true\\b`, 'g'), (_m, head: string) => `${head}${q}true${q}`);
  }
  return out;
}
