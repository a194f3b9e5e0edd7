/**
 * The role-output contract (in-session correction), DESIGN.md "Contracts in the mission" item 3.
 * A role in a multi-role session ends its turn with one JSON object (schemas/contracts/role-output.schema.json).
 * Each attempt of a case is one turn of the same session.
 *
 * - A reply of the wrong shape earns a correction message that restates the schema, sent as the next
 *   turn: prose without JSON (`prose`), a JSON scalar or array such as `null`, `[]`, `"text"`
 *   (`scalar-or-array`), an object that echoes the schema's metadata (`$schema`, `properties`, ...:
 *   `schema-echo`), an object missing a required field (`missing-required`), or any other
 *   schema-invalid object (`schema-invalid`, e.g. a status outside its enum).
 * - At most `maxCorrections` corrections (default 2); a wrong shape after the last one is the verdict
 *   `invalid_structured_output` (a new verdict arm, src/contract/types.ts). A correction is the
 *   `retry` arm with `reason: "correction: <shape>"` and the correction message as `addendum`: it is
 *   "one more attempt with text sent to the model", which is what `retry` means.
 * - A schema-valid reply that fails a check the schema cannot express (a commit it names does not
 *   resolve) is **not** corrected: it is `dropped-unusable` with the check's problem. Correcting it
 *   would ask the model to change a fact, not a format.
 * - Token usage of every turn is summed (src/policy/usage.ts: every numeric field, deep, any provider
 *   shape) and carried on every verdict as `usage`, including after exhausted corrections and on
 *   provider errors. Sources: instructor `total_usage` and its accumulator bugs (#341, #715, #2391,
 *   #2493), shared/research/anchors.md A5, A7, A8, A13.
 *
 * Sessions: attempt 0 starts a new session (a fresh ledger), unless `resume` was called with a
 * saved session state: then the turns up to the saved cursor are judged again but their usage is
 * not counted again.
 *
 * This module is the `json-object` reply codec (`extensions.codec: { kind: 'json-object' }`); the
 * budget, the ledger and the verdicts are the contract's rules (./define.ts), the role-output preset
 * is schemas/contracts/role-output.contract.json.
 */
import { clipText } from '#src/diagnostics/evidence.ts';
import { isPlainObject } from '#src/envelope/keys.ts';
import type { Reply } from '#src/envelope/types.ts';
import { scanJson } from '#src/scan/index.ts';
import type { Reading } from './types.ts';
import type { Validator } from './validator.ts';

/** The shapes of a reply that earn a correction (see the module doc). */
export const REPLY_SHAPES = ['prose', 'scalar-or-array', 'schema-echo', 'missing-required', 'schema-invalid'] as const;

/** One of {@link REPLY_SHAPES}. */
export type ReplyShape = (typeof REPLY_SHAPES)[number];

/**
 * How one turn's reply reads:
 * - `valid`: a schema-valid object, with where it came from;
 * - otherwise its shape and what is wrong (`detail`, one sentence; `problems`, the validator's lines).
 */
export type ReplyReading =
  | { shape: 'valid'; value: Record<string, unknown>; origin: string; fenced: boolean }
  | { shape: ReplyShape; detail: string; problems: string[] };

/** Keys that only a JSON Schema document has: an object bearing one echoes the schema instead of filling it. */
const SCHEMA_KEYWORDS = ['$schema', '$id', '$defs', 'definitions', 'additionalProperties'];

/**
 * The `json-object` codec: reads a reply as one JSON object and names a wrong shape.
 *
 * @param validate the contract's validator (finality aside); @param anchor the member quoted on acceptance.
 */
export function jsonObjectCodec(validate: Validator, anchor: string): { read(reply: Reply): Reading; readReply(reply: Reply): ReplyReading } {
  const readObject = (value: Record<string, unknown>, origin: string, fenced: boolean): ReplyReading => {
    const echoed = SCHEMA_KEYWORDS.filter((k) => Object.hasOwn(value, k));
    if (echoed.length > 0 || (isPlainObject(value.properties) && (value.type === 'object' || Array.isArray(value.required)))) {
      const keys = echoed.length > 0 ? echoed : ['type', 'properties'].filter((k) => Object.hasOwn(value, k));
      return { shape: 'schema-echo', detail: `it echoed the schema (${keys.map((k) => `"${k}"`).join(', ')}) instead of filling it in`, problems: [] };
    }
    const problems = validate(value);
    if (problems.length === 0) return { shape: 'valid', value, origin, fenced };
    const missing = problems.map((p) => /must have required property '([^']+)'/.exec(p)).filter((m): m is RegExpExecArray => m !== null);
    if (missing.length > 0) {
      return { shape: 'missing-required', detail: `it lacked required field(s) ${missing.map((m) => `"${m[1]}"`).join(', ')}`, problems };
    }
    return { shape: 'schema-invalid', detail: `it did not match the schema: ${problems.slice(0, 3).join('; ')}`, problems };
  };

  const typeName = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

  const readText = (text: string, origin: string): ReplyReading => {
    const trimmed = text.trim();
    if (trimmed !== '') {
      try {
        const whole: unknown = JSON.parse(trimmed);
        if (isPlainObject(whole)) return readObject(whole, origin, false);
        return { shape: 'scalar-or-array', detail: `it was a JSON ${typeName(whole)} (${clipFlat(trimmed, 40)}), not an object`, problems: [] };
      } catch {
        // not one JSON document: look for JSON inside the prose
      }
    }
    const hits = scanJson(text);
    const objects = hits.filter((h) => h.kind === 'object');
    const readings = objects.map((h) => readObject(h.value as Record<string, unknown>, origin, h.fenced));
    // A reply that echoes the schema earns a correction whatever else it holds: a `$schema` echo
    // followed by data is not an answer the role settled on (issue 21 point 8).
    const echo = readings.find((r) => r.shape === 'schema-echo');
    if (echo) return echo;
    const valid = readings.filter((r) => r.shape === 'valid');
    if (valid.length > 0) return valid.at(-1)!;
    if (readings.length > 0) return readings.at(-1)!;
    if (hits.length > 0) return { shape: 'scalar-or-array', detail: `it held a JSON array (${clipFlat(JSON.stringify(hits.at(-1)!.value), 40)}), not an object`, problems: [] };
    return { shape: 'prose', detail: trimmed === '' ? 'it was empty' : 'it was prose without a JSON object', problems: [] };
  };

  const readReply = (reply: Reply): ReplyReading => {
    if (reply.structured) {
      const { key, value } = reply.structured;
      if (isPlainObject(value)) return readObject(value, key, false);
      if (typeof value === 'string') return readText(value, key);
      return { shape: 'scalar-or-array', detail: `its ${key} was a JSON ${typeName(value)}, not an object`, problems: [] };
    }
    if (reply.text) return readText(reply.text.value, reply.text.origin);
    return { shape: 'prose', detail: 'it was empty', problems: [] };
  };

  const read = (reply: Reply): Reading => {
    const r = readReply(reply);
    if (r.shape === 'valid') {
      return {
        kind: 'answer',
        value: r.value,
        origin: r.origin,
        fenced: r.fenced,
        fromText: false,
        final: null,
        score: 2,
        accepted: [`accepted ${anchor} "${clipFlat(String(r.value[anchor]), 60)}" from ${r.origin}${r.fenced ? ' (fenced)' : ''}`],
      };
    }
    return { kind: 'miss', shape: r.shape, detail: r.detail, problems: r.problems, why: [`${r.shape}: ${r.detail}`] };
  };

  return { read, readReply };
}

function clipFlat(text: string, max: number): string {
  return clipText(text.replace(/\s+/g, ' '), max);
}
