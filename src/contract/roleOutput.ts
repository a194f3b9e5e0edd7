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
 * Sessions: attempt 0 starts a new session (a fresh ledger), unless {@link RoleOutputContract.resume}
 * was called with a saved {@link RoleOutputSessionState}: then the turns up to the saved cursor are
 * judged again but their usage is not counted again.
 */
import { clipText, type ClipPolicy } from '#src/diagnostics/evidence.ts';
import { isPlainObject } from '#src/envelope/keys.ts';
import type { Decoded, Envelope } from '#src/envelope/types.ts';
import { UsageLedger, type UsageLedgerState } from '#src/policy/usage.ts';
import { scanJson } from '#src/scan/index.ts';
import { failureEvidence, noAnswer, runFailure } from './outcome.ts';
import { readReply } from './reply.ts';
import type { Contract, Verdict } from './types.ts';
import { compileValidator } from './validator.ts';

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

/**
 * Policy of the role-output contract.
 * - `maxCorrections`: correction messages per session at most (default 2);
 * - `hardWindowS`: the session's time window, reported as `remainingMs` on a correction (default 600 s).
 */
export interface RoleOutputPolicy {
  maxCorrections: number;
  hardWindowS: number;
}

/** Defaults of {@link RoleOutputPolicy}. */
export const DEFAULT_ROLE_OUTPUT_POLICY: RoleOutputPolicy = { maxCorrections: 2, hardWindowS: 600 };

/**
 * A check on a schema-valid value that the schema cannot express. Returns the problems (`[]` = passes).
 * A failing check is never corrected.
 */
export type ValueCheck = (value: Record<string, unknown>) => string[];

/** What a session keeps between turns: the usage ledger and the shape of each turn's reply. */
export interface RoleOutputSessionState {
  ledger: UsageLedgerState;
  shapes: string[];
}

/**
 * Options of {@link roleOutputContract}.
 * - `policy`: see {@link RoleOutputPolicy};
 * - `checks`: checks run on a schema-valid value (e.g. {@link commitsResolve});
 * - `clip`: evidence clipping; @default `'head-tail'`.
 */
export interface RoleOutputOptions {
  policy?: Partial<RoleOutputPolicy>;
  checks?: ValueCheck[];
  clip?: ClipPolicy;
}

/** A compiled role-output contract. Build with {@link roleOutputContract}. */
export interface RoleOutputContract extends Contract {
  name: 'role-output';
  policy: RoleOutputPolicy;
  /** How a turn's reply reads. Never throws. */
  read(envelope: Envelope): ReplyReading;
  /** The correction message for a wrong reply: what was wrong, then the schema restated. */
  correction(reading: Exclude<ReplyReading, { shape: 'valid' }>): string;
  /** The current session as plain data (ledger cursor and totals, shapes). */
  save(): RoleOutputSessionState;
  /** Continue a saved session: the next attempt 0 does not start a new one, and counted turns are not counted again. */
  resume(state: RoleOutputSessionState): void;
}

/** Keys that only a JSON Schema document has: an object bearing one echoes the schema instead of filling it. */
const SCHEMA_KEYWORDS = ['$schema', '$id', '$defs', 'definitions', 'additionalProperties'];

/**
 * A check that every commit a value names resolves: each `commit <sha>` / `committed as <sha>` /
 * `sha <sha>` mention (7 to 40 hex digits) in any string of the value must be a prefix of a known commit,
 * as `git rev-parse` resolves an abbreviated id.
 *
 * @param known the full ids of the commits that exist in the workspace.
 */
export function commitsResolve(known: readonly string[]): ValueCheck {
  const lower = known.map((k) => k.toLowerCase());
  return (value) => {
    const problems: string[] = [];
    const visit = (v: unknown): void => {
      if (typeof v === 'string') {
        for (const m of v.matchAll(/\b(?:commit(?:ted)?(?: as)?|sha)\s+([0-9a-f]{7,40})\b/gi)) {
          const sha = m[1]!.toLowerCase();
          if (!lower.some((k) => k.startsWith(sha))) problems.push(`commit ${m[1]} does not resolve`);
        }
      } else if (Array.isArray(v)) v.forEach(visit);
      else if (isPlainObject(v)) Object.values(v).forEach(visit);
    };
    visit(value);
    return problems;
  };
}

/**
 * Compile the role-output contract from its production schema (draft-07).
 *
 * @throws Error when the schema does not compile with ajv.
 */
export function roleOutputContract(schema: Record<string, unknown>, options: RoleOutputOptions = {}): RoleOutputContract {
  const policy: RoleOutputPolicy = { ...DEFAULT_ROLE_OUTPUT_POLICY, ...options.policy };
  const clip = options.clip ?? 'head-tail';
  const checks = options.checks ?? [];
  const validate = compileValidator(schema);
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
  const anchor = required[0] ?? 'role';
  const schemaText = JSON.stringify(schema);
  const title = typeof schema.title === 'string' ? schema.title : 'role output';

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
    const valid = readings.filter((r) => r.shape === 'valid');
    if (valid.length > 0) return valid.at(-1)!;
    if (readings.length > 0) return readings.at(-1)!;
    if (hits.length > 0) return { shape: 'scalar-or-array', detail: `it held a JSON array (${clipFlat(JSON.stringify(hits.at(-1)!.value), 40)}), not an object`, problems: [] };
    return { shape: 'prose', detail: trimmed === '' ? 'it was empty' : 'it was prose without a JSON object', problems: [] };
  };

  const read = (envelope: Envelope): ReplyReading => {
    const reply = readReply(envelope);
    if (reply.structured) {
      const { key, value } = reply.structured;
      if (isPlainObject(value)) return readObject(value, key, false);
      if (typeof value === 'string') return readText(value, key);
      return { shape: 'scalar-or-array', detail: `its ${key} was a JSON ${typeName(value)}, not an object`, problems: [] };
    }
    if (reply.text) return readText(reply.text.value, reply.text.origin);
    return { shape: 'prose', detail: 'it was empty', problems: [] };
  };

  const correction = (reading: Exclude<ReplyReading, { shape: 'valid' }>): string =>
    `Your previous reply was not a valid ${title} object: ${reading.detail}. ` +
    'Reply again with exactly one JSON object that matches the JSON Schema below: no prose around it, no code fence, ' +
    `no "$schema" or other schema keywords, and every required field present (${required.join(', ')}).\n${schemaText}`;

  let ledger = new UsageLedger();
  let shapes: string[] = [];
  let resumed = false;

  const judge = (envelope: Envelope, decoded: Decoded, context: { attempt: number; elapsedMs: number }): Verdict => {
    const attempt = context.attempt;
    if (attempt === 0 && !resumed) {
      ledger = new UsageLedger();
      shapes = [];
    }
    resumed = false;
    ledger.add(attempt, decoded.usage ?? readReply(envelope).usage);
    const withUsage = (v: Verdict): Verdict => ({ ...v, usage: ledger.totals });

    const early = runFailure(envelope, decoded, attempt, clip);
    if (early) return withUsage(early);
    if (decoded.status.kind === 'provider-error' || decoded.status.kind === 'crashed') {
      return withUsage(noAnswer(envelope, decoded, attempt, clip, []));
    }
    const reading = read(envelope);
    shapes[attempt] = reading.shape;
    shapes.length = attempt + 1;
    if (reading.shape === 'valid') {
      const problems = checks.flatMap((check) => check(reading.value));
      if (problems.length > 0) {
        return withUsage(
          noAnswer(envelope, decoded, attempt, clip, [
            `schema-valid reply from ${reading.origin} failed a check the schema cannot express; not corrected: ${problems.join('; ')}`,
          ]),
        );
      }
      const after = attempt === 0 ? '' : ` after ${attempt} correction(s)`;
      return withUsage({
        verdict: 'accepted',
        attempt,
        origin: reading.origin,
        value: reading.value,
        score: 2,
        evidence: [`accepted ${anchor} "${clipFlat(String(reading.value[anchor]), 60)}" from ${reading.origin}${reading.fenced ? ' (fenced)' : ''}${after}`],
      });
    }
    if (attempt < policy.maxCorrections) {
      const remainingMs = Math.max(0, policy.hardWindowS * 1000 - context.elapsedMs);
      return withUsage({
        verdict: 'retry',
        attempt,
        reason: `correction: ${reading.shape}`,
        addendum: correction(reading),
        remainingMs,
        evidence: [`turn ${attempt + 1}: ${reading.shape}: ${reading.detail}; sending correction ${attempt + 1} of ${policy.maxCorrections}`],
      });
    }
    return withUsage({
      verdict: 'invalid_structured_output',
      attempt,
      corrections: attempt,
      shapes: [...shapes],
      evidence: [
        `invalid_structured_output: ${reading.shape} after ${attempt} correction(s) (${shapes.join(', ')}): ${reading.detail}`,
        ...failureEvidence(envelope, decoded, clip),
      ],
    });
  };

  return {
    name: 'role-output',
    anchor,
    policy,
    read,
    correction,
    judge,
    save: () => ({ ledger: ledger.save(), shapes: [...shapes] }),
    resume: (state) => {
      ledger = UsageLedger.restore(state.ledger);
      shapes = [...state.shapes];
      resumed = true;
    },
  };
}

function clipFlat(text: string, max: number): string {
  return clipText(text.replace(/\s+/g, ' '), max);
}
