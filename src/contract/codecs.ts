/**
 * Reply codecs: how a contract reads the decoder's reply when its answer is not a candidate to select
 * (`extensions.codec` of a contract definition, ./define.ts). Each is data a team may use too:
 * - `json-object`: one JSON object; prose, a scalar or array, a schema echo, a missing required
 *   field, a schema-invalid object are named wrong shapes (./roleOutput.ts);
 * - `event`: the tolerant parser tiers strict-json, embedded-block, raw-fallback, with the agent's
 *   allowed kinds (./event.ts);
 * - `markdown-footer`: the last line of a Markdown review is `## Result: <WORD>` (./reviewFooter.ts).
 */
import type { Reply } from '#src/envelope/types.ts';
import type { Reading, ReplyCodec } from './types.ts';
import { eventCodec } from './event.ts';
import { footerCodec } from './reviewFooter.ts';
import { jsonObjectCodec } from './roleOutput.ts';
import type { Validator } from './validator.ts';

/** The names of {@link ReplyCodec} kinds. */
export const CODEC_KINDS = ['json-object', 'event', 'markdown-footer'] as const;

/** A built codec: `read` a reply; `api` holds members the contract exposes (the event codec's `evaluate`, `reask`). */
export interface Codec {
  read(reply: Reply): Reading;
  api: Record<string, unknown>;
}

/**
 * Build the codec a definition names.
 *
 * @throws Error for an unknown codec kind or unusable codec options.
 */
export function buildCodec(spec: ReplyCodec, context: { schema: Record<string, unknown>; validate: Validator; anchor: string }): Codec {
  switch (spec.kind) {
    case 'json-object': {
      const codec = jsonObjectCodec(context.validate, context.anchor);
      return { read: codec.read, api: { readReply: codec.readReply } };
    }
    case 'event': {
      const codec = eventCodec(context.validate, spec);
      return { read: codec.read, api: { ...codec.api } };
    }
    case 'markdown-footer': {
      if (spec.review !== 'verdict' && spec.review !== 'critique') throw new Error('[routecert] extensions.codec.review must be "verdict" or "critique"');
      const codec = footerCodec(spec.review);
      return { read: codec.read, api: { addendum: codec.addendum } };
    }
    default:
      throw new Error(`[routecert] unknown extensions.codec.kind ${JSON.stringify((spec as { kind?: unknown }).kind)}. Known kinds: ${CODEC_KINDS.join(', ')}`);
  }
}
