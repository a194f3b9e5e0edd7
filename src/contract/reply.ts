/**
 * The model's reply in an envelope, as a consumer reads it before any contract rule: the raw value of
 * the structured field (whatever its JSON type, `null` included) and the answer text. Contracts whose
 * rules are about the reply's shape (role-output: prose, scalars, arrays; event: parser tiers;
 * review-footer: the Markdown) read it here, because route decoders only keep JSON objects as
 * candidates.
 *
 * Where the reply sits (shared/research/ce-plugin.md 1.3, research/cli-envelopes.md):
 * - the terminal object is the last stdout JSON object with `type: "result"` (Claude Code, cursor-agent
 *   stream-json), else the last JSON object of stdout (grok `--json-schema`, one-document CLIs);
 * - the structured field is its `structured_output` / `structured_result` in any key spelling
 *   (`structuredOutput`: grok 1.0.4, PR #1325);
 * - the text is its first string field among `result`, `text`, `response` (in that order);
 * - with no JSON document in stdout, the text is stdout itself (a CLI that prints the answer);
 * - a side file `last-message` (codex `-o`) is the text when the terminal object has none.
 */
import { readJsonDocuments } from '#src/envelope/jsonl.ts';
import { findKeys, isPlainObject } from '#src/envelope/keys.ts';
import { STRUCTURED_FIELD_NAMES } from '#src/routes/claude/decoder.ts';
import type { Envelope } from '#src/envelope/types.ts';

/** String fields of the terminal object that hold the answer text, in order of preference. */
export const REPLY_TEXT_FIELDS = ['result', 'text', 'response'] as const;

/**
 * The reply of one envelope.
 * - `structured`: the structured field, present when the terminal object has one: `key` as spelled,
 *   `value` as decoded (object, array, string, number, boolean or `null`);
 * - `text`: the answer text and its origin (`result`, `text`, `response`, `last-message`, `stdout`);
 * - `usage`: the terminal object's `usage`, as the CLI spells it.
 * Both `structured` and `text` are absent when the envelope holds no reply (empty stdout).
 */
export interface Reply {
  structured?: { key: string; value: unknown };
  text?: { origin: string; value: string };
  usage?: unknown;
}

/**
 * Read the reply of `envelope`. Never throws.
 *
 * @example
 * readReply({ stdout: '{"type":"result","result":"null","structured_output":null}', stderr: '', exitCode: 0, elapsedMs: 1 })
 * // { structured: { key: 'structured_output', value: null }, text: { origin: 'result', value: 'null' } }
 */
export function readReply(envelope: Envelope): Reply {
  const docs = readJsonDocuments(envelope.stdout);
  let terminal: Record<string, unknown> | undefined;
  let typed: Record<string, unknown> | undefined;
  for (const doc of docs.documents) {
    if (!isPlainObject(doc.value)) continue;
    terminal = doc.value;
    if (doc.value.type === 'result') typed = doc.value;
  }
  terminal = typed ?? terminal;
  const reply: Reply = {};
  if (terminal) {
    const [key] = findKeys(terminal, STRUCTURED_FIELD_NAMES);
    if (key !== undefined) reply.structured = { key, value: terminal[key] };
    for (const field of findKeys(terminal, REPLY_TEXT_FIELDS).sort((a, b) => rank(a) - rank(b))) {
      const value = terminal[field];
      if (typeof value === 'string') {
        reply.text = { origin: field, value };
        break;
      }
    }
    if (terminal.usage !== undefined) reply.usage = terminal.usage;
  } else if (docs.documents.length === 0 && envelope.stdout.trim() !== '') {
    reply.text = { origin: 'stdout', value: envelope.stdout };
  }
  const lastMessage = envelope.files?.['last-message'];
  if (!reply.text && typeof lastMessage === 'string') reply.text = { origin: 'last-message', value: lastMessage };
  return reply;
}

function rank(field: string): number {
  const folded = field.toLowerCase();
  const i = REPLY_TEXT_FIELDS.findIndex((f) => f === folded);
  return i === -1 ? REPLY_TEXT_FIELDS.length : i;
}
