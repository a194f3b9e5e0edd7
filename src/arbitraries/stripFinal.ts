/** The corpus form of "the answer lost its final key", used by the final-removal property and the certify checks. */

/**
 * Remove `"final": true` members from JSON text, raw or escaped once or twice inside strings (the
 * corpus form of the change; generated samples change their plan instead).
 */
export function stripFinal(text: string): string {
  let out = text;
  for (const q of ['"', '\\"', '\\\\\\"']) {
    const key = `${q}final${q}`;
    const esc = key.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
    out = out.replace(new RegExp(`,(?:\\s|\\\\n)*${esc}\\s*:\\s*true`, 'g'), '');
    out = out.replace(new RegExp(`${esc}\\s*:\\s*true\\s*,(?:\\s|\\\\n)*`, 'g'), '');
  }
  return out;
}
