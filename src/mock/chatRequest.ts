/**
 * What a Chat Completions request body says, read without msw (src/mock/openaiChat.ts serves the
 * requests; a probe driver asks {@link isTitleRequest} for each request as it arrives, before any
 * mock module is needed to answer it).
 */

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The text of a chat message's `content`: a string, or the `text` of its text parts. */
export function chatContentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((p) => (isObject(p) && typeof p.text === 'string' ? p.text : '')).join('');
  }
  return '';
}

/** The object messages of a Chat Completions body (`[]` when it has none). */
export function messagesOf(body: unknown): Json[] {
  return isObject(body) && Array.isArray(body.messages) ? body.messages.filter(isObject) : [];
}

/**
 * True when a Chat Completions request body asks for a conversation title rather than a turn of
 * the conversation: a `system` (or `developer`) message that asks to generate a title (e.g.
 * "You are a title generator. You output ONLY a thread title."). Never throws.
 */
export function isTitleRequest(body: unknown): boolean {
  return messagesOf(body).some((m) => {
    if (m.role !== 'system' && m.role !== 'developer') return false;
    const text = chatContentText(m.content);
    return /\btitle generator\b/i.test(text) || /\bgenerate (?:a |the )?(?:short |brief |concise )?title\b/i.test(text);
  });
}
