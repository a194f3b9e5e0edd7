/**
 * The event contract (validated event payloads), DESIGN.md "Contracts in the mission" item 4.
 * An agent reports `{kind, text, ref}` events (schemas/contracts/event.schema.json); `kind` must also
 * be one of the agent's allowed kinds, listed in schemas/contracts/event.contract.json (`allowedKinds`),
 * which may be narrower than the schema's enum.
 *
 * The reply is read by a tolerant parser with three tiers, and the tier is recorded on the verdict:
 * 1. `strict-json`: the structured field is an object, or the whole reply text is one JSON object;
 * 2. `embedded-block`: a JSON object inside prose or a Markdown code fence (the last one that has a
 *    `kind` member, else the last object);
 * 3. `raw-fallback`: no JSON object at all; the raw text is wrapped as
 *    `{kind: <fallbackKind>, text: <reply>, ref: null}` so a consumer can still show it.
 *
 * A raw-fallback reply is flagged and never certifies: its verdict is `dropped-unusable` with
 * `tier: "raw-fallback"` (not `accepted`: the route did not produce a validated event, whatever a
 * lenient consumer shows; shared/research/anchors.md A6, A9, A13 item 6 "leniency never certifies").
 * Strict and embedded values are `accepted` when schema-valid with an allowed kind, else
 * `dropped-unusable` with the named problems. Judging a CLI envelope never re-asks; re-asking, bounded
 * by the codec's `maxRetries`, belongs to the structured HTTP client (src/harness/httpStructured.ts),
 * which uses {@link EventCodecApi.evaluate} and {@link EventCodecApi.reask}.
 *
 * This module is the `event` reply codec (`extensions.codec: { kind: 'event', allowedKinds, ... }`);
 * the event preset is schemas/contracts/event.contract.json, built by defineContract (./define.ts).
 */
import { isPlainObject } from '#src/envelope/keys.ts';
import type { Reply } from '#src/envelope/types.ts';
import { scanJson } from '#src/scan/index.ts';
import type { DefinedContract, ParseTier, Reading } from './types.ts';
import type { Validator } from './validator.ts';
import { pushAll } from '#src/arrays.ts';

/**
 * One reply read by the tolerant parser and checked:
 * - `tier`: see {@link ParseTier};
 * - `value`: the event (for `raw-fallback`, the wrapped raw text);
 * - `origin`: where the reply text came from (`structured_output`, `result`, `text`, `content`, ...);
 * - `fenced`: the object sat in a Markdown code fence;
 * - `problems`: why it does not certify (`[]` = a conforming event); a raw fallback always has one.
 */
export interface EventReading {
  tier: ParseTier;
  value: Record<string, unknown>;
  origin: string;
  fenced: boolean;
  problems: string[];
}

/**
 * Options of the event codec (`extensions.codec` with `kind: 'event'`).
 * - `allowedKinds`: the kinds this agent may emit (required, at least one);
 * - `fallbackKind`: the kind a raw fallback is wrapped as; @default `'progress'`;
 * - `maxRetries`: re-asks a structured HTTP call may make; @default 2.
 */
export interface EventOptions {
  allowedKinds: readonly string[];
  fallbackKind?: string;
  maxRetries?: number;
}

/** What the event codec adds to its contract, for the structured HTTP client. */
export interface EventCodecApi {
  allowedKinds: readonly string[];
  /** Re-asks allowed to a structured HTTP call (instructor's `max_retries`). */
  maxRetries: number;
  /** Parse a reply text through the three tiers and check it. Never throws. */
  evaluate(text: string, origin: string): EventReading;
  /** Check an event value: schema problems and a kind outside the allowed ones. `[]` = conforming. */
  check(value: unknown): string[];
  /** The message that re-asks after a reading with problems: the problems, then the allowed kinds. */
  reask(reading: EventReading): string;
}

/** A contract built with the event codec (the event preset). */
export type EventContract = DefinedContract & EventCodecApi;

/**
 * The event codec.
 *
 * @throws Error when `allowedKinds` is empty.
 */
export function eventCodec(validate: Validator, options: EventOptions): { read(reply: Reply): Reading; api: EventCodecApi } {
  if (options.allowedKinds.length === 0) throw new Error('[routecert] the event codec needs at least one allowed kind (extensions.codec.allowedKinds)');
  const allowedKinds = [...options.allowedKinds];
  const fallbackKind = options.fallbackKind ?? 'progress';

  const check = (value: unknown): string[] => {
    const problems: string[] = [];
    const kind = isPlainObject(value) ? value.kind : undefined;
    if (typeof kind === 'string' && !allowedKinds.includes(kind)) {
      problems.push(`kind "${kind}" is not one of this agent's allowed kinds (${allowedKinds.join(', ')})`);
    }
    pushAll(problems, validate(value));
    return problems;
  };

  const fromObject = (value: Record<string, unknown>, tier: ParseTier, origin: string, fenced: boolean): EventReading => ({
    tier,
    value,
    origin,
    fenced,
    problems: check(value),
  });

  const evaluate = (text: string, origin: string): EventReading => {
    const trimmed = text.trim();
    try {
      const whole: unknown = JSON.parse(trimmed);
      if (isPlainObject(whole)) return fromObject(whole, 'strict-json', origin, false);
    } catch {
      // not one JSON document: try the embedded tier
    }
    const objects = scanJson(text, { kinds: ['object'] });
    const embedded = objects.filter((h) => Object.hasOwn(h.value as object, 'kind')).at(-1) ?? objects.at(-1);
    if (embedded) return fromObject(embedded.value as Record<string, unknown>, 'embedded-block', origin, embedded.fenced);
    return {
      tier: 'raw-fallback',
      value: { kind: fallbackKind, text: trimmed, ref: null },
      origin,
      fenced: false,
      problems: ['the reply held no JSON object (raw-fallback tier): flagged, never certifies'],
    };
  };

  const reask = (reading: EventReading): string =>
    `Your previous reply was not a valid event: ${reading.problems.slice(0, 3).join('; ')}. ` +
    `Reply with exactly one JSON object with the members "kind", "text" and "ref" and nothing else, where "kind" is one of ${allowedKinds
      .map((k) => `"${k}"`)
      .join(', ')}, "text" is a string and "ref" is a string or null.`;

  const read = (reply: Reply): Reading => {
    let reading: EventReading | undefined;
    if (reply.structured && isPlainObject(reply.structured.value)) {
      reading = fromObject(reply.structured.value, 'strict-json', reply.structured.key, false);
    } else if (reply.structured && typeof reply.structured.value === 'string') {
      reading = evaluate(reply.structured.value, reply.structured.key);
    } else if (reply.text && reply.text.value.trim() !== '') {
      reading = evaluate(reply.text.value, reply.text.origin);
    }
    if (!reading) return { kind: 'miss', shape: 'empty', detail: 'it was empty', why: ['produced no reply to read as an event'], problems: [], correctable: false };
    const where = `${reading.origin}${reading.fenced ? ' (fenced)' : ''}, tier ${reading.tier}`;
    if (reading.problems.length === 0) {
      return {
        kind: 'answer',
        value: reading.value,
        origin: reading.origin,
        fenced: reading.fenced,
        fromText: false,
        final: null,
        score: reading.tier === 'strict-json' ? 2 : 1,
        tier: reading.tier,
        accepted: [`accepted ${String(reading.value.kind)} event from ${where}`],
      };
    }
    const head =
      reading.tier === 'raw-fallback'
        ? `raw-fallback tier from ${reading.origin}: wrapped as a "${fallbackKind}" event; flagged, never certifies`
        : `event from ${where} is not valid: ${reading.problems.slice(0, 3).join('; ')}`;
    return {
      kind: 'miss',
      shape: reading.tier === 'raw-fallback' ? 'raw-fallback' : 'schema-invalid',
      detail: reading.problems.slice(0, 3).join('; '),
      why: [head],
      problems: reading.problems,
      tier: reading.tier,
      addendum: reask(reading),
    };
  };

  return { read, api: { allowedKinds, maxRetries: options.maxRetries ?? 2, evaluate, check, reask } };
}
