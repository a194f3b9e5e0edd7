/**
 * Building blocks for {@link Reply}, the model's reply as a consumer reads it before any contract
 * rule: the raw value of the structured field (whatever its JSON type, `null` included), the answer
 * text and the usage. Each route decoder builds its reply from its OWN parse of stdout (issue 20:
 * one reader per envelope); nothing here reads stdout. Contracts whose rules are about the reply's
 * shape (role-output: prose, scalars, arrays; event: parser tiers; review-footer: the Markdown)
 * read {@link Decoded.reply}, because candidates are JSON objects only.
 *
 * Where the reply sits, per route, is written in that route's decoder (src/routes/<cli>/decoder.ts).
 */
import { findKeys, STRUCTURED_FIELD_NAMES } from './keys.ts';
import type { Reply } from './types.ts';

/** String fields of a terminal object that hold the answer text, in order of preference. */
export const REPLY_TEXT_FIELDS = ['result', 'text', 'response'] as const;

/**
 * Options of {@link objectReply}.
 * - `structuredKeys`: names of the structured field, spelling-insensitive @default STRUCTURED_FIELD_NAMES;
 * - `textFields`: string fields that hold the answer text, in order of preference @default REPLY_TEXT_FIELDS;
 * - `usage`: the usage to report @default the object's own `usage` field.
 */
export interface ObjectReplyOptions {
  structuredKeys?: readonly string[];
  textFields?: readonly string[];
  usage?: unknown;
}

/**
 * The reply held by a terminal object a decoder already parsed (Claude Code's `type: "result"`
 * object, Gemini CLI's json document, ...): its structured field (first spelling found, raw value),
 * its first string field among `textFields` (in the order of `textFields`, any key spelling) and its
 * usage. `{}` (plus `usage` when given) without an object. Never throws.
 *
 * @example
 * objectReply({ type: 'result', result: 'null', structured_output: null })
 * // { structured: { key: 'structured_output', value: null }, text: { origin: 'result', value: 'null' } }
 */
export function objectReply(terminal: Record<string, unknown> | undefined, options: ObjectReplyOptions = {}): Reply {
  const usage = 'usage' in options ? options.usage : terminal?.usage;
  const reply: Reply = {};
  if (terminal) {
    const [key] = findKeys(terminal, options.structuredKeys ?? STRUCTURED_FIELD_NAMES);
    if (key !== undefined) reply.structured = { key, value: terminal[key] };
    for (const name of options.textFields ?? REPLY_TEXT_FIELDS) {
      const field = findKeys(terminal, [name]).find((k) => typeof terminal[k] === 'string');
      if (field !== undefined) {
        reply.text = { origin: field, value: terminal[field] as string };
        break;
      }
    }
  }
  if (usage !== undefined) reply.usage = usage;
  return reply;
}

/**
 * The reply of a route whose answer is text (an assistant message, a side file): `text` with its
 * `origin` when it is a string, and `usage` when defined.
 *
 * @example
 * textReply('{"a":1}', 'assistant-text', { output: 5 }) // { text: { origin: 'assistant-text', value: '{"a":1}' }, usage: { output: 5 } }
 */
export function textReply(text: string | undefined, origin: string, usage?: unknown): Reply {
  const reply: Reply = {};
  if (typeof text === 'string') reply.text = { origin, value: text };
  if (usage !== undefined) reply.usage = usage;
  return reply;
}

/** The last of `texts` that is not blank, or `undefined`. */
export function lastNonBlank(texts: readonly string[]): string | undefined {
  for (let i = texts.length - 1; i >= 0; i -= 1) if (texts[i]!.trim() !== '') return texts[i];
  return undefined;
}
