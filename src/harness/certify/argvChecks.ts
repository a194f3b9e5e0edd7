/**
 * The argv checks of a certificate: what every recorded call of the route's CLI was given, judged
 * against the route definition (src/routes/<cli>/route.ts) and the contract's schema. They plan no
 * run of their own (`records` stage) and read the fake CLI records of every other run.
 *
 * - `output-format`: every call asks for the route's output format (`--output-format stream-json`,
 *   Codex `--json`), as the route definition spells it;
 * - `schema-sent`: every call carries the contract's schema, as the route takes it: one JSON argv
 *   token after the flag (`--json-schema`), or a file named after the flag (`--output-schema`)
 *   whose content the fake CLI recorded when it was called, compared by {@link schemaShape}; a
 *   consumer that drops the flag, sends another schema or an SDK option that never reaches the CLI fails;
 *   a worker that declares the route's schema channel `prompt` (`worker.schemaChannel`, the
 *   compound-engineering review workers on Codex) must instead have the schema's JSON in every
 *   call's prompt (stdin, or the prompt file), found as a JSON object of the same shape: a worker
 *   that drops the schema from the prompt too fails;
 * - `schema-one-token`: the JSON-token form only: the schema is ONE argv token (research/ce-plugin.md 1.2);
 * - `forbidden-flags`: no call carries a flag that lifts the CLI's permission checks: the flags
 *   every route must never emit (research/ce-plugin.md 1.2, {@link FORBIDDEN_FLAGS}) and the CLI's
 *   own, each with its source (`forbiddenFlags` of its route definition).
 */
import { canonicalJson } from '#src/envelope/candidates.ts';
import { isPlainObject } from '#src/envelope/keys.ts';
import { clipText } from '#src/diagnostics/evidence.ts';
import { promptOf, type ShimCallRecord } from '#src/harness/shim/plan.ts';
import { findJsonObjects } from '#src/scan/index.ts';
import type { ForbiddenFlag } from '#src/routes/define.ts';
import { ROUTE_DEFINITIONS } from '#src/routes/index.ts';
import type { CheckDefinition, CheckJudgement, JudgedRun } from './checkTypes.ts';
import type { RunObservation } from './execute.ts';

const SOURCE = 'research/ce-plugin.md 1.2 (never-emit flags, asserted on every route)';

/** Flags no route may ever emit, whatever the CLI (research/ce-plugin.md 1.2). */
export const FORBIDDEN_FLAGS: readonly string[] = ['--dangerously-skip-permissions', '--yolo', '--force', '-f', '--always-approve'];

/** A string never allowed inside any argv token (Claude Code's permission mode that skips every check). */
export const FORBIDDEN_SUBSTRINGS: readonly string[] = ['bypassPermissions'];

const clip = (text: string, max = 160) => clipText(text.replace(/\r\n|\r|\n/g, ' '), max);

function verdict(problems: string[], pass: string[]): CheckJudgement {
  return problems.length > 0 ? { pass: false, evidence: [...new Set(problems)].slice(0, 10) } : { pass: true, evidence: pass };
}

/** Every call of `cli` over `all` runs, with its run. */
function callsOf(all: readonly JudgedRun[], cli: string): { o: RunObservation; c: ShimCallRecord }[] {
  return all.flatMap(({ observed: o }) => o.calls.filter((c) => c.cli === cli).map((c) => ({ o, c })));
}

/** The values `argv` gives `flag` (`flag v` or `flag=v`). */
function valuesOf(argv: readonly string[], flags: readonly string[]): string[] {
  return argv.flatMap((t, i) => flags.flatMap((f) => (t === f ? [argv[i + 1] ?? ''] : t.startsWith(`${f}=`) ? [t.slice(f.length + 1)] : [])));
}

/** The forbidden flags of the CLI `bin`: every route's own plus the never-emit ones. */
export function forbiddenFlagsOf(bin: string): ForbiddenFlag[] {
  const own = ROUTE_DEFINITIONS.filter((d) => d.bin === bin).flatMap((d) => d.forbiddenFlags);
  return [...FORBIDDEN_FLAGS.map((flag) => ({ flag, source: SOURCE })), ...own];
}

/**
 * The values `argv` gives `flag` as a command-line parser reads them: `flag v`, `flag=v`, and for a
 * one-letter flag also `-fv` (clap and getopt take an attached value: Codex's `-sdanger-full-access`).
 */
function flagValues(argv: readonly string[], flag: string): string[] {
  const short = /^-[A-Za-z]$/.test(flag);
  return argv.flatMap((t, i) => (t === flag ? [argv[i + 1] ?? ''] : t.startsWith(`${flag}=`) ? [t.slice(flag.length + 1)] : short && t.startsWith(flag) && t.length > 2 ? [t.slice(2)] : []));
}

/** A `key=value` configuration override split as the CLI reads it: spaces trimmed, one pair of TOML quotes removed from the value. */
function configPair(token: string): { key: string; value: string } | null {
  const eq = token.indexOf('=');
  if (eq < 0) return null;
  const raw = token.slice(eq + 1).trim();
  const value = /^(["']).*\1$/s.test(raw) && raw.length >= 2 ? raw.slice(1, -1) : raw;
  return { key: token.slice(0, eq).trim(), value };
}

/** Whether `argv` carries forbidden flag `f`. */
function carries(argv: readonly string[], f: ForbiddenFlag): boolean {
  if (f.config !== undefined) return flagValues(argv, f.flag).some((v) => { const p = configPair(v); return p !== null && p.key === f.config && p.value === f.value; });
  if (f.value === undefined) return argv.some((t) => t === f.flag || t.startsWith(`${f.flag}=`));
  return flagValues(argv, f.flag).includes(f.value);
}

/** What in `argv` is forbidden for `bin`, one line each with its source. */
export function forbiddenIn(bin: string, argv: readonly string[]): string[] {
  const found: string[] = [];
  for (const f of forbiddenFlagsOf(bin)) {
    if (carries(argv, f)) found.push(`${f.config !== undefined ? `${f.flag} ${f.config}=${f.value}` : f.value === undefined ? f.flag : `${f.flag} ${f.value}`} (${f.source})`);
  }
  for (const s of FORBIDDEN_SUBSTRINGS) if (argv.some((t) => t.includes(s))) found.push(`a token containing "${s}" (${SOURCE})`);
  return [...new Set(found)];
}

export const outputFormat: CheckDefinition = {
  id: 'output-format',
  title: "every call asks the CLI for the route's output format",
  stage: 'records',
  covers: ['argv', 'output-format'],
  expectedVerdict: null,
  plan: (env) => ('none' in env.route.outputFormat ? { skip: `${env.route.route} has no output-format flag: ${env.route.outputFormat.none}` } : { runs: [] }),
  judge: (_runs, env, all) => {
    const spec = env.route.outputFormat as { flags: readonly string[]; value: string | null };
    const want = `${spec.flags.join('|')}${spec.value === null ? '' : ` ${spec.value}`}`;
    const calls = callsOf(all, env.route.cli);
    if (calls.length === 0) return { pass: false, evidence: [`no call of \`${env.route.cli}\` was recorded`] };
    const problems: string[] = [];
    for (const { o, c } of calls) {
      if (spec.value === null) {
        if (!c.argv.some((t) => spec.flags.includes(t))) problems.push(`${o.label}: call ${c.attempt + 1} lacks ${want} (the CLI's default output); route ${env.route.route} is ${want}`);
        continue;
      }
      const given = valuesOf(c.argv, spec.flags);
      if (given.length !== 1 || given[0] !== spec.value) {
        problems.push(`${o.label}: call ${c.attempt + 1} asked for ${given.length === 0 ? `no ${spec.flags.join('|')} (the CLI's default)` : given.map((g) => `${spec.flags[0]} ${g}`).join(' and ')}; route ${env.route.route} is ${want}`);
      }
    }
    return verdict(problems, [`${calls.length} calls of \`${env.route.cli}\`: each had ${want}`]);
  },
};

/** The schema a call carried, parsed, or why there is none (missing flag, unreadable file, not JSON). */
function schemaOfCall(c: ShimCallRecord, flag: string, form: 'json' | 'file'): { schema: unknown } | { problem: string } {
  const values = valuesOf(c.argv, [flag]);
  if (values.length === 0) return { problem: `no ${flag} (the schema never reached the CLI)` };
  if (values.length > 1) return { problem: `${flag} given ${values.length} times` };
  let text: string;
  if (form === 'file') {
    const rec = c.argFiles?.find((f) => f.flag === flag);
    if (!rec || rec.content === null) return { problem: `${flag} ${clip(values[0]!, 80)}: the file could not be read when the CLI was called` };
    text = rec.content;
  } else text = values[0]!;
  try {
    return { schema: JSON.parse(text) };
  } catch {
    return { problem: `${flag}: ${form === 'file' ? 'the file' : 'the token'} is not JSON: ${clip(text, 80)}` };
  }
}

/**
 * The shape of a JSON Schema the schema-sent check compares: for each object schema, its property
 * names (each with its own shape) and its sorted required keys; for an array schema, its items'
 * shape. Keywords a consumer adapts to its provider (`$schema`, `title`, `format`,
 * `additionalProperties: false` for OpenAI's strict mode) do not change the shape; a dropped,
 * renamed or added property or required key does.
 */
export function schemaShape(schema: unknown): unknown {
  if (!isPlainObject(schema)) return null;
  const out: Record<string, unknown> = {};
  if (isPlainObject(schema.properties)) out.properties = Object.fromEntries(Object.keys(schema.properties).sort().map((k) => [k, schemaShape((schema.properties as Record<string, unknown>)[k])]));
  if (Array.isArray(schema.required)) out.required = [...schema.required].map(String).sort();
  if (schema.items !== undefined) out.items = schemaShape(schema.items);
  return out;
}

/**
 * The schema-sent judgement of a worker whose declared schema channel is `prompt`: each call's prompt
 * (its prompt file, else stdin) holds a JSON object whose {@link schemaShape} is the contract's.
 */
function schemaInPrompts(calls: { o: RunObservation; c: ShimCallRecord }[], want: string, cli: string): CheckJudgement {
  const problems: string[] = [];
  for (const { o, c } of calls) {
    const prompt = promptOf(c);
    const where = c.promptFile ? `its prompt file` : 'its stdin';
    const schemas = findJsonObjects(prompt, { anchor: 'properties', maxStringDepth: 0 }).map((f) => canonicalJson(schemaShape(f.value)));
    if (schemas.includes(want)) continue;
    problems.push(
      schemas.length === 0
        ? `${o.label}: call ${c.attempt + 1}: the worker declares the schema goes in the prompt, but ${where} (${prompt.length} chars) holds no JSON schema: ${clip(prompt, 120)}`
        : `${o.label}: call ${c.attempt + 1}: ${where} holds a JSON schema, but not the contract's (other properties or required keys): ${clip(schemas[0]!)}`,
    );
  }
  return verdict(problems, [`${calls.length} calls of \`${cli}\`: each had the contract's schema in its prompt (the worker's declared schema channel; no schema flag)`]);
}

export const schemaSent: CheckDefinition = {
  id: 'schema-sent',
  title: "every call carries the contract's schema, as the route takes it (JSON token or file)",
  stage: 'records',
  covers: ['argv', 'schema'],
  expectedVerdict: null,
  plan: (env) => (env.route.schema === null && env.schemaChannel !== 'prompt' ? { skip: `${env.route.route} takes no schema on the command line (it goes into the prompt)` } : { runs: [] }),
  judge: (_runs, env, all) => {
    const want = canonicalJson(schemaShape(env.schema));
    const calls = callsOf(all, env.route.cli);
    if (calls.length === 0) return { pass: false, evidence: [`no call of \`${env.route.cli}\` was recorded`] };
    if (env.schemaChannel === 'prompt') return schemaInPrompts(calls, want, env.route.cli);
    const { flag, value: form } = env.route.schema!;
    const problems: string[] = [];
    for (const { o, c } of calls) {
      const got = schemaOfCall(c, flag, form);
      if ('problem' in got) problems.push(`${o.label}: call ${c.attempt + 1}: ${got.problem}`);
      else if (!isPlainObject(got.schema) || canonicalJson(schemaShape(got.schema)) !== want) problems.push(`${o.label}: call ${c.attempt + 1}: ${flag} carries another schema than the contract's (other properties or required keys): ${clip(canonicalJson(schemaShape(got.schema)))}`);
    }
    return verdict(problems, [`${calls.length} calls of \`${env.route.cli}\`: each had the contract's schema after ${flag}${form === 'file' ? ' (in the file it names)' : ''}`]);
  },
};

export const schemaOneToken: CheckDefinition = {
  id: 'schema-one-token',
  title: 'the schema reaches the CLI as one argv token',
  stage: 'records',
  covers: ['argv'],
  expectedVerdict: null,
  plan: (env) => (env.route.schemaFlag === null ? { skip: `${env.route.route} passes no schema as a JSON token on the command line` } : { runs: [] }),
  judge: (_runs, env, all) => {
    const flag = env.route.schemaFlag!;
    const want = canonicalJson(env.schema);
    const calls = callsOf(all, env.route.cli);
    if (calls.length === 0) return { pass: false, evidence: [`no call of \`${env.route.cli}\` was recorded`] };
    const problems: string[] = [];
    for (const { o, c } of calls) {
      // `--json-schema <json>` or `--json-schema=<json>` (the Claude Agent SDK's form): one token either way.
      const values = valuesOf(c.argv, [flag]);
      if (values.length === 0) {
        problems.push(`${o.label}: call ${c.attempt + 1} has no ${flag} <schema>: ${clip(JSON.stringify(c.argv))}`);
        continue;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(values[0]!);
      } catch {
        problems.push(`${o.label}: call ${c.attempt + 1}: the token after ${flag} is not the schema's JSON (split into several tokens?): ${clip(values[0]!)}`);
        continue;
      }
      if (!isPlainObject(parsed) || canonicalJson(parsed) !== want) problems.push(`${o.label}: call ${c.attempt + 1}: the token after ${flag} is JSON but not the schema handed to the worker: ${clip(values[0]!)}`);
    }
    return verdict(problems, [`${calls.length} calls of \`${env.route.cli}\`: each had the whole schema as the one token after ${flag}`]);
  },
};

export const forbiddenFlags: CheckDefinition = {
  id: 'forbidden-flags',
  title: "no permission-lifting flag ever reaches a CLI (the never-emit flags and the CLI's own, each with its source)",
  stage: 'records',
  covers: ['argv', 'safety'],
  expectedVerdict: null,
  plan: () => ({ runs: [] }),
  judge: (_runs, _env, all) => {
    const calls = all.flatMap(({ observed: o }) => o.calls.map((c) => ({ o, c })));
    if (calls.length === 0) return { pass: false, evidence: ['no CLI call was recorded'] };
    const problems = calls.flatMap(({ o, c }) => forbiddenIn(c.cli, c.argv).map((f) => `${o.label}: \`${c.cli}\` got ${f}`));
    const clis = [...new Set(calls.map(({ c }) => c.cli))];
    return verdict(problems, [`${calls.length} calls checked against ${clis.map((b) => `${forbiddenFlagsOf(b).length} forbidden flags of \`${b}\``).join(', ')}; none carried one`]);
  },
};
