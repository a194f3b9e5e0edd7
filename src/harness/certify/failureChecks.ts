/**
 * The checks that replay what the contract does NOT accept, and the selection rules, derived from
 * the route's well-formed final case so they run on any corpus (issue 19 points 1, 2 and 8):
 *
 * - `failed-run`: the final answer from a run that says it failed (`is_error: true`, Codex's
 *   `turn.failed`, exit code 1): nothing published (compound-engineering-plugin #1519 rejects a
 *   failed terminal envelope before publishing);
 * - `wrong-shape`: the answer replaced by an object without the contract's anchor, and by one whose
 *   anchor has the wrong type: nothing published;
 * - `schema-invalid`: the answer without a required member the contract does not fill in, with an
 *   enum value it does not list: nothing published (the contract's `finality` plays no part:
 *   `finality: 'none'` contracts get it too); with a member the schema forbids
 *   (`additionalProperties: false`): nothing published, or the answer without that member;
 * - `recorded-refusals`: each refusal a project recorded for the route (its own `cases`, not the
 *   bundled corpus), replayed as recorded: nothing published;
 * - `last-shaped-wins`: two shaped answers in sequence (an earlier draft inserted before the answer):
 *   the later one is published (`selection: 'last-shaped'`);
 * - `populated-beats-stub`: one answer text holding a populated answer, then an empty stub of it
 *   (grok's `text`): the populated one is published where the contract says so (an array anchor).
 *
 * Every derived envelope is first judged by routecert's own contract: it is replayed only when the
 * contract refuses it (or, for the selection checks, picks the answer the check expects), so a
 * check never asks a worker for more than the contract itself does.
 */
import { canonicalJson } from '#src/envelope/candidates.ts';
import { isPlainObject } from '#src/envelope/keys.ts';
import { clipText } from '#src/diagnostics/evidence.ts';
import type { ShimAttempt } from '#src/harness/shim/plan.ts';
import { caseLabel, findCases, replayOf } from './cases.ts';
import type { CheckDefinition, CheckEnv, CheckJudgement, JudgedRun, PlannedRun } from './checkTypes.ts';
import { anchorPopulated, anchorVariant } from './generated.ts';
import type { RunObservation } from './execute.ts';
import { describeDifferences, meaningDifferences } from './meaning.ts';
import type { LoadedCase } from '#src/record/corpus.ts';
import type { VerdictName } from '#src/contract/types.ts';

const flat = (text: string) => text.replace(/\r\n|\r|\n/g, ' ');

/** Problems every run must be free of (as checks.ts `runProblems`): could not start, killed, left processes behind. */
function runProblems(o: RunObservation): string[] {
  const problems: string[] = [];
  if (o.fault) problems.push(`${o.label}: ${o.fault}`);
  if (o.killedAtOuterDeadline) problems.push(`${o.label}: the worker was still running at routecert's outer deadline; routecert killed its process group`);
  if (o.leftovers.length > 0) problems.push(`${o.label}: still running after the worker ended: ${o.leftovers.map((l) => l.what).join(', ')}`);
  return problems;
}

function published(o: RunObservation, why: string): string[] {
  return o.artifact.exists ? [`${o.label}: published ${o.artifact.path.split(/[\\/]/).slice(-2).join('/')} although ${why}: ${clipText(flat(o.artifact.text ?? ''), 160)}`] : [];
}

function verdict(problems: string[], passEvidence: string[]): CheckJudgement {
  return problems.length > 0 ? { pass: false, evidence: problems } : { pass: true, evidence: passEvidence };
}

// ---------------------------------------------------------------------------------------------
// Deriving envelopes

/** `value` with every object deep-equal to `from` (and every string holding it as JSON) replaced by `to`; `changed` counts them. */
function swap(value: unknown, from: string, to: unknown, count: { n: number }): unknown {
  if (isPlainObject(value) || Array.isArray(value)) {
    if (canonicalJson(value) === from) {
      count.n += 1;
      return to;
    }
    if (Array.isArray(value)) return value.map((v) => swap(v, from, to, count));
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, swap(v, from, to, count)]));
  }
  if (typeof value === 'string' && value.trimStart().startsWith('{')) {
    try {
      if (canonicalJson(JSON.parse(value)) === from) {
        count.n += 1;
        return JSON.stringify(to);
      }
    } catch {
      // not a JSON string
    }
  }
  return value;
}

/** One stdout line (a JSON document) with `from` replaced by `to`, or `null` when it holds no copy. */
function swapLine(line: string, from: string, to: unknown): string | null {
  let doc: unknown;
  try {
    doc = JSON.parse(line);
  } catch {
    return null;
  }
  const count = { n: 0 };
  const out = swap(doc, from, to, count);
  return count.n > 0 ? JSON.stringify(out) : null;
}

/**
 * `attempt` with its answer `value` replaced by `to` wherever it stands: as an object (the structured
 * field, a tool input) or as a JSON string (Claude's `result`, grok's `text`, Codex's agent message),
 * on every stdout line and in every side file. `forms`: other spellings of the same answer tried
 * first (the answer as the CLI printed it, before the contract filled in its publish defaults).
 * `null` when no copy was found.
 */
function replaceAnswer(attempt: ShimAttempt, value: unknown, to: unknown, forms: readonly unknown[] = []): ShimAttempt | null {
  for (const form of forms) {
    const found = replaceAnswer(attempt, form, to);
    if (found !== null) return found;
  }
  const from = canonicalJson(value);
  let n = 0;
  const lines = attempt.stdout.split('\n').map((line) => {
    const swapped = swapLine(line, from, to);
    if (swapped === null) return line;
    n += 1;
    return swapped;
  });
  const files: Record<string, string> = {};
  for (const [role, text] of Object.entries(attempt.files ?? {})) {
    let same: boolean;
    try {
      same = canonicalJson(JSON.parse(text)) === from;
    } catch {
      same = false;
    }
    files[role] = same ? JSON.stringify(to) : text;
    if (same) n += 1;
  }
  if (n === 0) return null;
  const { chunks: _c, ...rest } = attempt;
  return { ...rest, stdout: lines.join('\n'), ...(attempt.files ? { files } : {}) };
}

/**
 * An answer that differs from `value` in its anchor (`earlier`) and is valid for `schema`: a string
 * anchor with a suffix, a populated array less its last member (or, with one member, that member's
 * first string field with a suffix), when the schema accepts it; else another enum value or an
 * answer generated from the schema ({@link anchorVariant}); `null` when none is valid.
 */
function variantOf(value: unknown, anchor: string, schema: Record<string, unknown>, generated: readonly Record<string, unknown>[] = []): Record<string, unknown> | null {
  if (!isPlainObject(value)) return null;
  const a = value[anchor];
  const tries: Record<string, unknown>[] = [];
  if (typeof a === 'string') tries.push({ ...value, [anchor]: `${a} (an earlier draft)` });
  if (Array.isArray(a) && a.length > 1) tries.push({ ...value, [anchor]: a.slice(0, -1) });
  if (Array.isArray(a) && a.length === 1 && isPlainObject(a[0])) {
    const item = a[0];
    const key = Object.keys(item).find((k) => typeof item[k] === 'string');
    if (key) tries.push({ ...value, [anchor]: [{ ...item, [key]: `${String(item[key])} (an earlier draft)` }] });
  }
  // Only a variation the schema accepts is a shaped draft (anchorVariant: an enum takes another value).
  return anchorVariant(value, anchor, schema, { tries, generated });
}

/**
 * `attempt` with `earlier` placed before its answer `value`: on a stream (several lines), a copy of
 * the first line holding the answer, with `earlier` in its place, inserted before that line; on one
 * JSON document, its answer string (`text`, `result`) becomes `earlier` then `value`, and its
 * structured fields are removed (so only the sequence decides). `null` when neither applies.
 */
function withEarlier(attempt: ShimAttempt, value: unknown, earlier: unknown): ShimAttempt | null {
  const from = canonicalJson(value);
  const lines = attempt.stdout.split('\n');
  const nonEmpty = lines.filter((l) => l.trim() !== '');
  const { chunks: _c, ...rest } = attempt;
  if (nonEmpty.length > 1) {
    const i = lines.findIndex((l) => swapLine(l, from, earlier) !== null);
    if (i < 0) return null;
    const copy = swapLine(lines[i]!, from, earlier)!;
    return { ...rest, stdout: [...lines.slice(0, i), copy, ...lines.slice(i)].join('\n') };
  }
  let doc: unknown;
  try {
    doc = JSON.parse(attempt.stdout);
  } catch {
    return null;
  }
  if (!isPlainObject(doc)) return null;
  const field = ['text', 'result'].find((k) => typeof doc[k] === 'string');
  if (!field) return null;
  const { structuredOutput: _a, structured_output: _b, ...kept } = doc;
  return { ...rest, stdout: `${JSON.stringify({ ...kept, [field]: `${JSON.stringify(earlier)}${JSON.stringify(value)}` })}\n` };
}

/**
 * The base of the selection checks: the route's final case when its anchor is populated, else an
 * accepted single-attempt case whose is, else (issue 19 point 8) the final case with its answer
 * replaced by one generated from the schema whose anchor is populated; `undefined` when none.
 */
function populatedBase(env: CheckEnv): LoadedCase | undefined {
  const populated = (c: LoadedCase) => anchorPopulated(c.case.expect.value, env.anchor);
  if (env.smoke.final && populated(env.smoke.final)) return env.smoke.final;
  const found = findCases(env.cases, env.route.route, { verdict: 'accepted', attempts: 1, where: (c) => populated(c) && c.case.attempts[0]!.exitCode === 0 })[0];
  if (found) return found;
  const generated = env.generated.find((g) => anchorPopulated(g, env.anchor));
  for (const c of derivationBases(env)) {
    if (!generated) break;
    const attempt = replaceAnswer(replayOf(c, 0), c.case.expect.value, generated);
    if (!attempt) continue;
    if (canonicalJson(env.acceptedValue(attempt)) !== canonicalJson(generated)) continue;
    const [first, ...rest] = c.case.attempts;
    return { ...c, case: { ...c.case, attempts: [{ ...first!, stdout: attempt.stdout, stderr: attempt.stderr }, ...rest], expect: { ...c.case.expect, value: generated } } };
  }
  return undefined;
}

/** One run of a derived attempt; `data.expect` is what must be published (absent: nothing). */
function derivedRun(c: LoadedCase, what: string, attempt: ShimAttempt, data: Record<string, unknown> = {}): PlannedRun {
  return { label: `case ${caseLabel(c)} ${what}`, attempts: [{ ...attempt, source: `derived from case ${caseLabel(c)} attempt 0: ${what}` }], cases: [c], data };
}

const noFinal = (env: CheckEnv) => ({ skip: `the corpus has no well-formed final case for ${env.route.route} to derive from` });

/**
 * The cases a negative variant may be derived from: the route's final case first, then every other
 * accepted single-attempt case with a value and exit code 0 (a variant is taken from the first one
 * that yields it, so an envelope holding its answer twice over does not stop the check).
 */
function derivationBases(env: CheckEnv): LoadedCase[] {
  const rest = findCases(env.cases, env.route.route, { verdict: 'accepted', attempts: 1, where: (c) => isPlainObject(c.case.expect.value) && c.case.attempts[0]!.exitCode === 0 });
  return [...new Set([...(env.smoke.final ? [env.smoke.final] : []), ...rest])];
}

/** A variant: its name and how to derive it from a case's first attempt and expected value (`null`: not from this case). */
interface Variant {
  what: string;
  /** Where the member the schema forbids that the variant adds sits (keys, array indexes as strings): the worker may publish the answer without it. */
  forbidden?: string[];
  derive(base: ShimAttempt, value: Record<string, unknown>, forms: readonly unknown[]): ShimAttempt | null;
}

/**
 * How the CLI may have printed `value` before the contract filled in its publish defaults: without
 * all of them, and without each one (longest first); the CLI's own spelling is what is replaced.
 */
function printedForms(value: Record<string, unknown>, env: CheckEnv): Record<string, unknown>[] {
  const filled = env.rules.publishDefaults.filter((k) => Object.hasOwn(value, k));
  if (filled.length === 0) return [];
  const without = (keys: readonly string[]) => Object.fromEntries(Object.entries(value).filter(([k]) => !keys.includes(k)));
  return [without(filled), ...filled.map((k) => without([k]))];
}

/**
 * One run per variant, each derived from the first base case that yields it and that routecert's own
 * contract refuses; a skip naming why when no variant is left.
 */
function refusedRuns(env: CheckEnv, variants: readonly Variant[], none: string): { runs: PlannedRun[] } | { skip: string } {
  const bases = derivationBases(env);
  if (bases.length === 0) return noFinal(env);
  const runs: PlannedRun[] = [];
  for (const v of variants) {
    for (const c of bases) {
      const attempt = v.derive(replayOf(c, 0), c.case.expect.value as Record<string, unknown>, printedForms(c.case.expect.value as Record<string, unknown>, env));
      if (attempt !== null && env.acceptedValue(attempt) === undefined) {
        runs.push(derivedRun(c, v.what, attempt, v.forbidden === undefined ? { refused: v.what } : { refused: v.what, forbidden: v.forbidden }));
        break;
      }
    }
  }
  return runs.length > 0 ? { runs } : { skip: none };
}

function nothingPublished(runs: JudgedRun[]): CheckJudgement {
  const problems = runs.flatMap(({ planned, observed }) => [...runProblems(observed), ...published(observed, `routecert's contract refuses it (${String(planned.data?.refused)})`)]);
  return verdict(problems, runs.map(({ observed }) => `${observed.label}: nothing published`));
}

/** Every JSON document of `stdout` that `edit` changes, re-serialized; `null` when none changed. */
function editLines(stdout: string, edit: (doc: Record<string, unknown>) => Record<string, unknown> | null): string | null {
  let changed = false;
  const lines = stdout.split('\n').map((line) => {
    let doc: unknown;
    try {
      doc = JSON.parse(line);
    } catch {
      return line;
    }
    if (!isPlainObject(doc)) return line;
    const out = edit(doc);
    if (out === null) return line;
    changed = true;
    return JSON.stringify(out);
  });
  return changed ? lines.join('\n') : null;
}

// ---------------------------------------------------------------------------------------------
// The checks

const failedRun: CheckDefinition = {
  id: 'failed-run',
  title: 'a final answer from a run that says it failed (is_error: true, turn.failed, exit code 1) is never published',
  stage: 'check',
  covers: ['fail-closed', 'run-status'],
  expectedVerdict: 'provider-error',
  plan: (env) =>
    refusedRuns(
      env,
      [
        {
          what: 'with "is_error": true',
          derive: (base) => {
            const stdout = editLines(base.stdout, (d) => (d.is_error === false ? { ...d, is_error: true, subtype: 'error_during_execution' } : null));
            return stdout === null ? null : { ...base, stdout };
          },
        },
        {
          what: 'with turn.completed replaced by turn.failed',
          derive: (base) => {
            const stdout = editLines(base.stdout, (d) => (d.type === 'turn.completed' ? { type: 'turn.failed', error: { message: 'stream disconnected before completion' } } : null));
            return stdout === null ? null : { ...base, stdout };
          },
        },
        { what: 'with exit code 1 and a short stderr', derive: (base) => ({ ...base, exitCode: 1, stderr: 'Error: connection reset by peer\n' }) },
      ],
      `routecert's own contract accepts every failed-run variant on ${env.route.route}`,
    ),
  judge: (runs) => nothingPublished(runs),
};

const wrongShape: CheckDefinition = {
  id: 'wrong-shape',
  title: "an object without the contract's anchor, or with an anchor of the wrong type, is never published",
  stage: 'check',
  covers: ['fail-closed', 'shape'],
  expectedVerdict: 'dropped-unusable',
  plan: (env) =>
    refusedRuns(
      env,
      [
        { what: `with its answer replaced by an object without "${env.anchor}"`, derive: (base, value, forms) => replaceAnswer(base, value, { status: 'incomplete', note: 'The review could not be finished.' }, forms) },
        {
          what: `with "${env.anchor}" of the wrong type`,
          derive: (base, value, forms) => {
            const a = value[env.anchor];
            return replaceAnswer(base, value, { ...value, [env.anchor]: Array.isArray(a) ? 'none found' : typeof a === 'string' ? [a] : String(a) }, forms);
          },
        },
      ],
      `no wrong-shape variant could be derived on ${env.route.route} that routecert's own contract refuses`,
    ),
  judge: (runs) => nothingPublished(runs),
};

/** At most this many required members are removed one at a time by schema-invalid (each is one worker run). */
const MAX_REMOVED_MEMBERS = 4;

const schemaInvalid: CheckDefinition = {
  id: 'schema-invalid',
  title: 'an answer the schema refuses (a required member missing, at the top or inside an item; a value outside its enum) is never published; one with a member the schema forbids, never with that member',
  stage: 'check',
  covers: ['fail-closed', 'schema'],
  expectedVerdict: 'dropped-unusable',
  plan: (env) => {
    const required = Array.isArray(env.schema.required) ? env.schema.required.filter((k): k is string => typeof k === 'string') : [];
    const removable = required.filter((k) => k !== env.anchor && k !== env.rules.finalityKey && !env.rules.publishDefaults.includes(k));
    const properties = isPlainObject(env.schema.properties) ? env.schema.properties : {};
    const variants: Variant[] = [];
    // Each required member on its own (a worker that defaults a missing `items` to [] publishes "no
    // findings" the model never gave: a trial's worker checked only the first), up to a few.
    for (const field of removable.slice(0, MAX_REMOVED_MEMBERS)) {
      variants.push({
        what: `with required "${field}" removed`,
        derive: (base, value, forms) => {
          if (!Object.hasOwn(value, field)) return null;
          const { [field]: _gone, ...missing } = value;
          return replaceAnswer(base, value, missing, forms);
        },
      });
    }
    // A required member of the objects inside an array member (`items[0].line`): a worker that
    // checks only the top level published it.
    const nested = Object.keys(properties).flatMap((k) => {
      const p = properties[k];
      const item = isPlainObject(p) && isPlainObject(p.items) ? p.items : undefined;
      const inner = item && Array.isArray(item.required) ? item.required.filter((r): r is string => typeof r === 'string') : [];
      return inner.length > 0 ? [{ key: k, member: inner[inner.length - 1]! }] : [];
    })[0];
    if (nested !== undefined) {
      variants.push({
        what: `with required "${nested.member}" removed from its first "${nested.key}" item`,
        derive: (base, value, forms) => {
          const list = value[nested.key];
          if (!Array.isArray(list) || !isPlainObject(list[0]) || !Object.hasOwn(list[0], nested.member)) return null;
          const { [nested.member]: _gone, ...item } = list[0];
          return replaceAnswer(base, value, { ...value, [nested.key]: [item, ...list.slice(1)] }, forms);
        },
      });
    }
    // A member whose schema lists its values (`enum` of strings), given one it does not list, and
    // its own value in other letters (`HIGH` for `high`): a worker that checks only the required
    // members, or matches the enum without case, published it (new-user trials).
    const enumKey = Object.keys(properties).find((k) => {
      const p = properties[k];
      return k !== env.rules.finalityKey && isPlainObject(p) && Array.isArray(p.enum) && p.enum.length > 0 && p.enum.every((v) => typeof v === 'string');
    });
    if (enumKey !== undefined) {
      const listed = (properties[enumKey] as { enum: string[] }).enum;
      let outside = 'unlisted';
      while (listed.includes(outside)) outside += '-value';
      variants.push({
        what: `with "${enumKey}": "${outside}" (not one of its enum values)`,
        derive: (base, value, forms) => (Object.hasOwn(value, enumKey) ? replaceAnswer(base, value, { ...value, [enumKey]: outside }, forms) : null),
      });
      variants.push({
        what: `with "${enumKey}" in other letters (its value upper-cased: not one of its enum values)`,
        derive: (base, value, forms) => {
          const own = value[enumKey];
          if (typeof own !== 'string' || own.toUpperCase() === own || listed.includes(own.toUpperCase())) return null;
          return replaceAnswer(base, value, { ...value, [enumKey]: own.toUpperCase() }, forms);
        },
      });
    }
    // A member the schema forbids (`additionalProperties: false`), at the top and in the first item of
    // an array member: a worker that copies the answer through (or rebuilds the top level and copies
    // its items whole) publishes an artifact its own schema refuses (the example worker did, and was
    // certified). The answer may be dropped, or published without that member (ce-pov rebuilds its
    // artifact from the members it knows): the judgement below allows both.
    const extra = forbiddenMember(env.schema);
    if (extra !== undefined) {
      variants.push({
        what: `with "${extra}", a member the schema forbids (additionalProperties: false)`,
        forbidden: [extra],
        derive: (base, value, forms) => replaceAnswer(base, value, { ...value, [extra]: EXTRA_VALUE }, forms),
      });
    }
    const itemExtra = Object.keys(properties).flatMap((k) => {
      const p = properties[k];
      const member = isPlainObject(p) && isPlainObject(p.items) ? forbiddenMember(p.items) : undefined;
      return member === undefined ? [] : [{ key: k, member }];
    })[0];
    if (itemExtra !== undefined) {
      variants.push({
        what: `with "${itemExtra.member}" in its first "${itemExtra.key}" item, a member the item's schema forbids (additionalProperties: false)`,
        forbidden: [itemExtra.key, '0', itemExtra.member],
        derive: (base, value, forms) => {
          const list = value[itemExtra.key];
          if (!Array.isArray(list) || !isPlainObject(list[0])) return null;
          return replaceAnswer(base, value, { ...value, [itemExtra.key]: [{ ...list[0], [itemExtra.member]: EXTRA_VALUE }, ...list.slice(1)] }, forms);
        },
      });
    }
    if (variants.length === 0) return { skip: `not applicable: every required member of contract ${env.rules.contract} is its anchor, its finality key or filled in by its publish defaults, no member lists its values and the schema allows any other member` };
    return refusedRuns(env, variants, `routecert's own contract accepts every such answer of ${env.route.route} (${variants.map((v) => v.what).join('; ')})`);
  },
  judge: (runs) => {
    const problems: string[] = [];
    const passes: string[] = [];
    for (const run of runs) {
      const forbidden = run.planned.data?.forbidden;
      const o = run.observed;
      pushProblems(problems, runProblems(o));
      if (!Array.isArray(forbidden) || !o.artifact.exists || o.artifact.parseError !== null) {
        pushProblems(problems, published(o, `routecert's contract refuses it (${String(run.planned.data?.refused)})`));
        if (!o.artifact.exists) passes.push(`${o.label}: nothing published`);
        continue;
      }
      const where = forbidden.length > 1 ? `"${String(forbidden.at(-1))}" in its first "${String(forbidden[0])}" item` : `"${String(forbidden[0])}"`;
      if (holds(o.artifact.value, forbidden as string[])) {
        problems.push(`${o.label}: published ${where}, a member the schema forbids (additionalProperties: false): the artifact fails its own schema; drop the answer or publish only the schema's members`);
      } else passes.push(`${o.label}: published without ${where} (the member the schema forbids was left out)`);
    }
    return verdict(problems, passes);
  },
};

/** Whether `value` has the member at `path` (object keys and array indexes as strings). */
function holds(value: unknown, path: readonly string[]): boolean {
  let at: unknown = value;
  for (const [k, key] of path.entries()) {
    if (Array.isArray(at) && Number(key) < at.length) at = at[Number(key)];
    else if (isPlainObject(at) && Object.hasOwn(at, key)) at = at[key];
    else return false;
    if (k === path.length - 1) return true;
  }
  return false;
}

/** The value of the forbidden member schema-invalid adds (what a model adds unasked). */
const EXTRA_VALUE = 0.8;

/**
 * A member name an object schema (the top level, an array member's `items`) forbids: `additionalProperties: false` without
 * `patternProperties`, and a name it does not list (`confidence`, a member models add unasked,
 * else a longer one); `undefined` when the schema allows other members.
 */
function forbiddenMember(schema: Record<string, unknown>): string | undefined {
  if (schema.additionalProperties !== false || schema.patternProperties !== undefined) return undefined;
  const listed = isPlainObject(schema.properties) ? schema.properties : {};
  let name = 'confidence';
  while (Object.hasOwn(listed, name)) name += '_extra';
  return name;
}

/** Judge a selection run: `data.value` must be published, `data.other` named when it is published instead. */
function judgeSelection(runs: JudgedRun[], env: CheckEnv, wrong: string): CheckJudgement {
  const problems: string[] = [];
  for (const { planned, observed: o } of runs) {
    pushProblems(problems, runProblems(o));
    const other = planned.data?.other;
    if (o.artifact.exists && o.artifact.parseError === null && meaningDifferences(other, o.artifact.value, env.schema, { ignore: env.ignore }).length === 0) {
      problems.push(`${o.label}: ${wrong}`);
      continue;
    }
    if (!o.artifact.exists) problems.push(`${o.label}: nothing published; the contract accepts the answer`);
    else if (o.artifact.parseError) problems.push(`${o.label}: the artifact is not usable (${o.artifact.parseError})`);
    else {
      const diffs = meaningDifferences(planned.data?.value, o.artifact.value, env.schema, { strict: env.strict, ignore: env.ignore });
      if (diffs.length > 0) problems.push(`${o.label}: the artifact does not carry the expected answer: ${describeDifferences(diffs).slice(0, 4).join('; ')}`);
    }
  }
  return verdict(problems, runs.map(({ observed }) => `${observed.label}: published the answer the contract selects`));
}

function pushProblems(to: string[], more: string[]): void {
  for (const p of more) to.push(p);
}

const lastShapedWins: CheckDefinition = {
  id: 'last-shaped-wins',
  title: 'of two shaped answers in sequence, the later one is published (last shaped wins)',
  stage: 'check',
  covers: ['selection', 'last-shaped'],
  expectedVerdict: 'accepted',
  requires: (r) => (r.scores ? `not applicable: contract ${r.contract} selects by score (tie-to-later covers its order)` : null),
  plan: (env) => {
    const c = populatedBase(env);
    if (!c) return { skip: `the corpus has no accepted case with a populated "${env.anchor}" for ${env.route.route} to derive from` };
    const later = c.case.expect.value;
    const earlier = variantOf(later, env.anchor, env.schema, env.generated);
    const attempt = earlier ? withEarlier(replayOf(c, 0), later, earlier) : null;
    if (!attempt) return { skip: `not applicable: no earlier answer can be placed before the answer of ${caseLabel(c)} on ${env.route.route}` };
    const accepted = env.acceptedValue(attempt);
    if (accepted === undefined || canonicalJson(accepted) !== canonicalJson(later)) return { skip: `not applicable: routecert's own contract does not pick the later of two shaped answers on ${env.route.route}` };
    return { runs: [derivedRun(c, 'with an earlier shaped draft before its answer', attempt, { value: later, other: earlier })] };
  },
  judge: (runs, env) => judgeSelection(runs, env, 'published the EARLIER of two shaped answers (the last shaped one wins)'),
};

const populatedBeatsStub: CheckDefinition = {
  id: 'populated-beats-stub',
  title: 'a populated answer followed by an empty stub of it: the populated one is published',
  stage: 'check',
  covers: ['selection', 'populated'],
  expectedVerdict: 'accepted',
  plan: (env) => {
    const c = populatedBase(env);
    const value = c?.case.expect.value;
    if (!c || !isPlainObject(value) || !Array.isArray(value[env.anchor])) return { skip: `not applicable: the anchor "${env.anchor}" of contract ${env.rules.contract} is not a populated array on ${env.route.route}` };
    const stub = { ...value, [env.anchor]: [] };
    const base = replayOf(c, 0);
    // The rule holds inside one answer text (grok's `text` with an empty stub beside the review,
    // research/ce-plugin.md 3.4); in a stream of messages the last shaped one wins (last-shaped-wins).
    if (base.stdout.split('\n').filter((l) => l.trim() !== '').length > 1) return { skip: `not applicable: ${env.route.route} is a stream of messages, where the last shaped one wins (last-shaped-wins covers it)` };
    // The stub where the answer was, the populated answer before it.
    const swapped = replaceAnswer(base, value, stub);
    const attempt = swapped ? withEarlier(swapped, stub, value) : null;
    if (!attempt) return { skip: `not applicable: no stub can be placed after the answer of ${caseLabel(c)} on ${env.route.route}` };
    const accepted = env.acceptedValue(attempt);
    if (accepted === undefined || canonicalJson(accepted) !== canonicalJson(value)) return { skip: `not applicable: on ${env.route.route} routecert's own contract takes the later stub (last shaped wins in a sequence of messages)` };
    return { runs: [derivedRun(c, 'with its answer followed by an empty stub', attempt, { value, other: stub })] };
  },
  judge: (runs, env) => judgeSelection(runs, env, 'published the empty stub, not the populated answer before it'),
};

/** At most this many of a project's recorded refusals are replayed per route (each is one worker run), in file order. */
const MAX_RECORDED_REFUSALS = 12;

/**
 * The verdicts a recorded refusal is replayed for: every one under which nothing is published, but
 * `timeout` (its hang is timeout-discard's) and `retry` (an attempt's verdict, not a run's).
 */
const REPLAYED_REFUSALS: readonly VerdictName[] = ['dropped-unusable', 'dropped-nonfinal', 'provider-error', 'startup-rejected', 'crashed', 'invalid_structured_output'];

/**
 * A project's own recorded refusals, replayed as recorded: a team that captured a real failure (its
 * CLI's quota message, an answer outside its enum) expects the certificate to show its worker that
 * capture, not only the variants routecert derives (a new-user trial: its bad-enum and is_error
 * captures were never replayed, and a worker publishing them was certified).
 */
const recordedRefusals: CheckDefinition = {
  id: 'recorded-refusals',
  title: "every refusal the project recorded for the route (a case whose verdict publishes nothing) is replayed as recorded: nothing published",
  stage: 'check',
  covers: ['fail-closed', 'recorded'],
  expectedVerdict: null,
  plan: (env) => {
    if (env.recorded === undefined) return { skip: "not applicable: certified against routecert's bundled corpus (failed-run, wrong-shape and schema-invalid derive its refusals); a project's own cases (config `cases`) are replayed here" };
    const route = env.route.route;
    const refusals = [...env.recorded]
      .filter((c) => c.case.route === route && !c.case.skip && REPLAYED_REFUSALS.includes(c.case.expect.verdict))
      // A single non-final attempt is one the contract would retry: the recording has no answer for the retry.
      .filter((c) => c.case.expect.verdict !== 'dropped-nonfinal' || c.case.attempts.length > 1)
      .filter((c) => c.case.attempts.every((a) => !a.timedOut))
      .sort((a, b) => a.file.localeCompare(b.file));
    // As every derived envelope: replayed only when routecert's own contract refuses each attempt
    // (a case whose expectation the contract does not share is `routecert run`'s to flag, not a
    // worker's fault).
    const refused = refusals.filter((c) => c.case.attempts.every((_, k) => env.acceptedValue(replayOf(c, k)) === undefined));
    const disputed = refusals.filter((c) => !refused.includes(c)).map((c) => caseLabel(c));
    if (refused.length === 0) {
      if (disputed.length > 0) return { skip: `not applicable: routecert's contract accepts an attempt of every refusal recorded on ${route} (${disputed.slice(0, 3).join(', ')}): \`routecert run\` names the expectation it does not share` };
      return { skip: `not applicable: your cases hold no refusal recorded on ${route} (verdict ${REPLAYED_REFUSALS.join(', ')}); \`routecert record --from <capture>\` records one from a failed or unusable run` };
    }
    return {
      runs: refused.slice(0, MAX_RECORDED_REFUSALS).map((c) => ({
        label: `case ${caseLabel(c)} (recorded: ${c.case.expect.verdict})`,
        attempts: c.case.attempts.map((_, k) => replayOf(c, k)),
        cases: [c],
        data: { refused: `recorded as ${c.case.expect.verdict}` },
      })),
    };
  },
  judge: (runs) => nothingPublished(runs),
};

/** The checks of this file, in certificate order. */
export const FAILURE_CHECKS: readonly CheckDefinition[] = [failedRun, wrongShape, schemaInvalid, recordedRefusals];

/** The selection checks of this file, in certificate order. */
export const SELECTION_CHECKS: readonly CheckDefinition[] = [lastShapedWins, populatedBeatsStub];
