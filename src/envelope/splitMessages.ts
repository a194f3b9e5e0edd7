/**
 * Assistant messages streamed as several events: Claude Code stream-json (and its clones) may emit
 * one `assistant` event per content block or chunk, each carrying the same `message.id`, so the
 * answer's text is only whole once the text blocks of every event of that id are joined
 * (anthropics/claude-code#78686: "the model's final answer is emitted as multiple assistant events
 * that share one `message.id`", and `result` then holds only the first fragment).
 */
import { isPlainObject } from './keys.ts';

/**
 * One message whose text spans more than one event: the joined text (blocks in stream order, no
 * separator), the index (into the list given) of its first and last event with text, and how many
 * text blocks were joined.
 */
export interface SplitMessageText {
  id: string;
  text: string;
  first: number;
  last: number;
  pieces: number;
}

/**
 * The messages of `events` (each `{ type: "assistant", message: { id, content: [...] } }`; others
 * are skipped) whose `text` blocks are spread over two or more events of the same `message.id`,
 * keyed by the index of the last such event, so a decoder reads the joined text when it reaches
 * that event. A message in one event, or without an id, is not listed (its blocks are read as they
 * are). Never throws.
 *
 * @example
 * const a = { type: 'assistant', message: { id: 'm1', content: [{ type: 'text', text: '{"a":' }] } };
 * const b = { type: 'assistant', message: { id: 'm1', content: [{ type: 'text', text: '1}' }] } };
 * splitMessageTexts([a, b]).get(1) // { id: 'm1', text: '{"a":1}', first: 0, last: 1, pieces: 2 }
 */
export function splitMessageTexts(events: readonly unknown[]): Map<number, SplitMessageText> {
  const byId = new Map<string, { texts: string[]; events: Set<number>; first: number; last: number }>();
  events.forEach((event, index) => {
    if (!isPlainObject(event) || event.type !== 'assistant' || !isPlainObject(event.message)) return;
    const { id, content } = event.message;
    if (typeof id !== 'string' || id === '' || !Array.isArray(content)) return;
    for (const block of content) {
      if (!isPlainObject(block) || block.type !== 'text' || typeof block.text !== 'string') continue;
      const entry = byId.get(id) ?? { texts: [], events: new Set<number>(), first: index, last: index };
      entry.texts.push(block.text);
      entry.events.add(index);
      entry.last = index;
      byId.set(id, entry);
    }
  });
  const out = new Map<number, SplitMessageText>();
  for (const [id, entry] of byId) {
    if (entry.events.size < 2) continue;
    out.set(entry.last, { id, text: entry.texts.join(''), first: entry.first, last: entry.last, pieces: entry.texts.length });
  }
  return out;
}

/**
 * The `parent_tool_use_id` of an event a sub-agent emitted, or `null` for the run's own agent.
 * Claude Code stream-json (and the Agent SDK) streams a sub-agent's messages (the `Agent`/`Task`
 * tool) into the same stdout, each event carrying the id of the tool call that spawned it; the run's
 * own events carry `parent_tool_use_id: null` (real 2.1.263-2.1.268 captures, lezli01/vincent
 * internal/agent/claude/testdata/stream_subagent_*.jsonl). A sub-agent's text and tool calls are
 * what it hands its parent, never the run's answer: a schema-shaped draft there was accepted when
 * the run itself answered in prose.
 */
export function subagentParent(event: unknown): string | null {
  if (!isPlainObject(event)) return null;
  const parent = event.parent_tool_use_id;
  return typeof parent === 'string' && parent !== '' ? parent : null;
}
