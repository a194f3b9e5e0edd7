/**
 * Writing answers as JSON text in a given style: compact or pretty, `\uXXXX` escapes, decoy duplicate
 * keys, fences, or a JSON string inside a wrapper object. Whatever the style, `JSON.parse` of the bare
 * text gives the answer's value back (the last of duplicate members wins).
 */
import type { AnswerStyle, PovAnswer } from '../types.ts';

/** `\uXXXX` for every UTF-16 unit above U+007E, and `\/` for `/`. Valid only on JSON text (both occur only inside strings). */
export function escapeNonAscii(json: string): string {
  return json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).replace(/\//g, '\\/');
}

/** The decoy written before a member when duplicate keys are on: another value of a plausible type. */
function decoy(key: string, value: unknown): unknown {
  if (key === 'final') return typeof value === 'boolean' ? !value : true;
  if (typeof value === 'string') return `${value} (draft)`;
  if (Array.isArray(value)) return [];
  return null;
}

/** JSON text of a plain JSON value, with decoy duplicate members in objects when `duplicates` is set. */
export function writeJson(value: unknown, pretty: boolean, duplicates: boolean, indent = ''): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  const inner = `${indent}  `;
  const nl = pretty ? '\n' : '';
  const pad = pretty ? inner : '';
  const colon = pretty ? ': ' : ':';
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[${nl}${value.map((v) => pad + writeJson(v, pretty, duplicates, inner)).join(`,${nl}`)}${nl}${pretty ? indent : ''}]`;
  }
  const members: string[] = [];
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (duplicates) members.push(`${pad}${JSON.stringify(key)}${colon}${writeJson(decoy(key, v), pretty, false, inner)}`);
    members.push(`${pad}${JSON.stringify(key)}${colon}${writeJson(v, pretty, duplicates, inner)}`);
  }
  if (members.length === 0) return '{}';
  return `{${nl}${members.join(`,${nl}`)}${nl}${pretty ? indent : ''}}`;
}

/** The answer's JSON text in `style`, wrapped as the style says (bare, fenced, or inside a JSON string). */
export function answerJson(answer: PovAnswer, style: AnswerStyle): string {
  let text = writeJson(answer.value, style.pretty, style.duplicateKeys);
  if (style.escapeUnicode) text = escapeNonAscii(text);
  switch (style.wrap) {
    case 'bare':
      return text;
    case 'fenced':
      return `\`\`\`json\n${text}\n\`\`\``;
    case 'fenced-plain':
      return `\`\`\`\n${text}\n\`\`\``;
    case 'nested-string':
      return `{"content":${JSON.stringify(text)}}`;
  }
}

/** A JSON object written from members whose values are JSON text already, in order. */
export function objectText(members: readonly (readonly [string, string])[], pretty = false, lineEnd = '\n'): string {
  if (!pretty) return `{${members.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;
  return `{${lineEnd}${members.map(([k, v]) => `  ${JSON.stringify(k)}: ${v}`).join(`,${lineEnd}`)}${lineEnd}}`;
}
