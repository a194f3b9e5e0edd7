/**
 * Contracts as data (issue 10 part 1): `defineContract({...})` builds every contract, the bundled
 * presets (pov, findings-code, findings-doc, role-output, event, review-footer, critique-footer,
 * schemas/contracts/<name>.contract.json) and a team's own. No contract is special in the code: a
 * verdict follows from the definition's fields alone.
 *
 * How one attempt is judged, in this order (the rules each field turns on are named):
 * 1. the run's own failure first (./outcome.ts): `timeout` (output discarded), `startup-rejected`;
 * 2. the reply is read: by `selection` over the decoder's candidates (`score`: 2 = schema-valid and
 *    final, 1 = schema-valid but not final, 0 = bears the anchor only, the structured field wins early
 *    at 2, ties go to the later candidate; `last-shaped`: findings' rules, ./select.ts), or by the
 *    reply codec of `extensions.codec` (a JSON object with named wrong shapes, event tiers, a
 *    Markdown footer, ./codecs.ts). `textFallback` says whether an answer found only in free text
 *    (candidates of origin `stdout` / `stderr`: no envelope recognised) may be used;
 * 3. an answer: `extensions.publishDefaults` fill missing members, then the schema (finality aside)
 *    must hold and `extensions.checks` pass (a failing check is never corrected). With
 *    `finality: { key }`, the answer is final only when the key is `true`; missing or non-boolean is
 *    non-final (fail closed). A non-final answer earns the one `retry` on the same route with
 *    `retry.paragraph` appended when at least `retry.retryMinMs` of `retry.hardWindowMs` remain,
 *    else it is `dropped-nonfinal`. With `finality: 'none'`, schema-valid is settled: `accepted`;
 * 4. no answer: a provider error or a crash is that verdict; a wrong reply earns a correction
 *    (`corrections`: at most `budget`, then `invalid_structured_output`, or `extensions.exhausted`);
 *    else `dropped-unusable`. An empty-but-present anchor array is an answer only with `emptyIsAnswer`.
 * Every evidence line is clipped by `clip` (src/diagnostics/evidence.ts).
 *
 * Sources: the pov rules are ce-pov's (EveryInc/compound-engineering-plugin PR #1402/#1403,
 * shared/research/ce-plugin.md 1.4, 1.8, 1.9); findings' are `parse_structured` /
 * `recover_findings_json` (ce-plugin.md 1.5); role-output, event and footer are DESIGN.md
 * "Contracts in the mission" items 3-5.
 */
import { readFileSync } from 'node:fs';
import { inlineSchemaSizeProblem, schemaSizeProblem } from '#src/schema/limit.ts';
import path from 'node:path';
import { pushAll } from '#src/arrays.ts';
import { didYouMean, didYouMeanTail, unknownFieldProblems } from '#src/diagnostics/didYouMean.ts';
import { boundLine, type ClipPolicy } from '#src/diagnostics/evidence.ts';
import { isPlainObject, isStructuredOrigin } from '#src/envelope/keys.ts';
import type { Candidate, Decoded, DecodeOptions } from '#src/envelope/types.ts';
import { UsageLedger } from '#src/policy/usage.ts';
import { formatPointer, joinPointer, parsePointer } from '#src/pointer.ts';
import { buildCodec, type Codec } from './codecs.ts';
import { failureEvidence, noAnswer, runFailure, runSaysFailed } from './outcome.ts';
import { selectLastShaped, type LastShapedRule } from './select.ts';
import type { ContractDefinition, DefinedContract, NormalizedContractDefinition, Reading, Verdict } from './types.ts';

export type { ContractDefinition, ContractExtensions, DefinedContract, NormalizedContractDefinition } from './types.ts';
import { compileValidator, type Validator } from './validator.ts';
import { describeJsonSyntaxError } from '#src/schema/jsonError.ts';

/** A normalized definition back in the shape {@link defineContract} takes (to derive a variant). */
export function definitionOf(n: NormalizedContractDefinition): ContractDefinition {
  const def: ContractDefinition = {
    name: n.name,
    schema: n.schema,
    anchor: n.anchor,
    finality: n.finality,
    selection: n.selection,
    emptyIsAnswer: n.emptyIsAnswer,
    textFallback: n.textFallback,
    clip: { ...n.clip },
    extensions: { ...n.extensions },
  };
  if (n.description !== '') def.description = n.description;
  if (n.clis) def.clis = [...n.clis];
  if (n.retry) def.retry = { ...n.retry };
  if (n.corrections) def.corrections = { budget: n.corrections.budget, ...(n.corrections.message !== null ? { message: n.corrections.message } : {}) };
  return def;
}

/** The default clip: the bundled 147 + 147 (ce-pov's bounded_failure_evidence). */
export const DEFAULT_CLIP = { head: 147, tail: 147 } as const;

/** The hard window a correction's `remainingMs` is counted in when the definition names none (600 s, ce-pov). */
export const DEFAULT_HARD_WINDOW_MS = 600_000;

/** Raised for a definition that cannot be used; the message names the contract and the field. */
export class ContractDefinitionError extends Error {
  readonly code = 'ROUTECERT_CONTRACT_DEFINITION';
  constructor(message: string) {
    super(`[routecert] ${message}`);
    this.name = 'ContractDefinitionError';
  }
}

/** What to write for a required field a definition leaves out (JSON syntax, which a .ts config takes too). */
const MISSING = {
  anchor: '`anchor` is missing: add "anchor": "<the key every answer bears>" (e.g. "position"), or a JSON Pointer ("/result/findings")',
  finality:
    '`finality` is missing: add "finality": "none" (a schema-valid answer is settled) or "finality": { "key": "<boolean member>" } (only that member === true is final; missing or not a boolean fails closed)',
  selection:
    '`selection` is missing: add "selection": "score" (the best candidate wins: schema-valid and final > schema-valid > anchor only; ties to the later) or "selection": "last-shaped" (a populated answer beats an empty stub; the last shaped one wins)',
} as const;

/** The problems of `value` as a {@link ContractDefinition}, one sentence each naming the field; `[]` when usable. */
export function definitionProblems(value: unknown): string[] {
  if (!isPlainObject(value)) return ['a contract must be an object (defineContract({...}))'];
  const p: string[] = [];
  const d = value;
  if (typeof d.name !== 'string' || d.name === '') p.push('`name` must be a non-empty string');
  if (!(typeof d.schema === 'string' && d.schema !== '') && !isPlainObject(d.schema)) p.push('`schema` must be a path to a JSON Schema file or a schema object');
  // A required field left out says what to write; a wrong value says what it must be.
  if (d.anchor === undefined) p.push(MISSING.anchor);
  else if (typeof d.anchor !== 'string' || d.anchor === '' || d.anchor === '/') p.push('`anchor` must be a key ("position") or a JSON Pointer ("/result/findings")');
  if (d.finality === undefined) p.push(MISSING.finality);
  else if (!(d.finality === 'none' || (isPlainObject(d.finality) && typeof d.finality.key === 'string' && d.finality.key !== ''))) {
    p.push(`\`finality\` must be { key: "<boolean member>" } or "none"${didYouMeanTail(d.finality, ['none'])}`);
  }
  if (d.selection === undefined) p.push(MISSING.selection);
  else if (d.selection !== 'score' && d.selection !== 'last-shaped') p.push(`\`selection\` must be "score" or "last-shaped"${didYouMeanTail(d.selection, ['score', 'last-shaped'])}`);
  if (d.emptyIsAnswer !== undefined && typeof d.emptyIsAnswer !== 'boolean') p.push('`emptyIsAnswer` must be a boolean');
  if (d.retry !== undefined) {
    const r = d.retry;
    if (!isPlainObject(r) || !nonNegative(r.hardWindowMs) || !nonNegative(r.retryMinMs) || typeof r.paragraph !== 'string' || r.paragraph === '') {
      p.push('`retry` must be { hardWindowMs, retryMinMs (ms, numbers >= 0), paragraph (non-empty string) }');
    } else if (d.finality === 'none') p.push('`retry` needs a finality key: with finality "none" no answer is ever non-final');
  }
  if (d.corrections !== undefined) {
    const c = d.corrections;
    if (!isPlainObject(c) || !(Number.isInteger(c.budget) && (c.budget as number) >= 0) || (c.message !== undefined && typeof c.message !== 'string')) {
      p.push('`corrections` must be { budget (integer >= 0), message? (string) }');
    }
  }
  if (d.textFallback !== undefined && !['any', 'fenced', 'off'].includes(d.textFallback as string)) p.push(`\`textFallback\` must be "any", "fenced" or "off"${didYouMeanTail(d.textFallback, ['any', 'fenced', 'off'])}`);
  if (d.clip !== undefined) {
    const c = d.clip;
    if (!isPlainObject(c) || !(Number.isInteger(c.head) && (c.head as number) >= 0) || !(Number.isInteger(c.tail) && (c.tail as number) >= 0) || (c.head as number) + (c.tail as number) === 0) {
      p.push('`clip` must be { head, tail } (integers >= 0, not both 0)');
    }
  }
  if (d.extensions !== undefined && !isPlainObject(d.extensions)) p.push('`extensions` must be an object');
  if (d.clis !== undefined && !(Array.isArray(d.clis) && d.clis.every((c) => typeof c === 'string' && c !== ''))) p.push('`clis` must be an array of CLI names ("claude", "codex", ...)');
  pushAll(p, unknownFieldProblems(d, ['name', 'schema', 'anchor', 'finality', 'selection', 'emptyIsAnswer', 'retry', 'corrections', 'textFallback', 'clip', 'extensions', 'clis', 'description']));
  return p;
}

/**
 * Why `tokens` (a JSON Pointer's reference tokens) can name no member of an instance of `schema`,
 * or `null` when it can or when the schema does not say: a level whose schema lists `properties`
 * without the token, and has no `patternProperties`, `$ref`, `allOf`, `anyOf`, `oneOf`, `if` or
 * `dependentSchemas` that could add it, is a typo (`positon` for `position`). An array level
 * (`items`) is crossed by any token. With `type`, the last member's declared `type` must include it.
 */
function undeclared(schema: unknown, tokens: readonly string[], type?: string): string | null {
  let node: unknown = schema;
  let at = '';
  for (const token of tokens) {
    if (!isPlainObject(node)) return null;
    if (isPlainObject(node.items) && !isPlainObject(node.properties)) {
      node = node.items;
      at += '/items';
      continue;
    }
    const props = node.properties;
    if (!isPlainObject(props)) return null;
    if (!(token in props)) {
      const open = ['patternProperties', '$ref', '$dynamicRef', 'allOf', 'anyOf', 'oneOf', 'if', 'dependentSchemas'].some((k) => node !== null && typeof node === 'object' && k in node);
      if (open) return null;
      const names = Object.keys(props);
      const close = didYouMean(token, names);
      return `the schema at ${at}/properties lists ${names.length ? names.map((n) => `"${n}"`).join(', ') : 'no property'}${close.length > 0 ? `; did you mean ${close.map((n) => `"${n}"`).join(' or ')}?` : ''}`;
    }
    node = props[token];
    at = joinPointer(at, 'properties', token);
  }
  if (type !== undefined && isPlainObject(node) && node.type !== undefined) {
    const types = Array.isArray(node.type) ? node.type : [node.type];
    if (!types.includes(type)) return `${at} has type ${JSON.stringify(node.type)}`;
  }
  return null;
}

function nonNegative(v: unknown): boolean {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0;
}

/**
 * The schema of `def`: a path read relative to `baseDir`, or the inline object; `problem` when the
 * file is missing, too large or not a JSON object, or the inline schema is too large; `{}` (neither)
 * when `def.schema` is neither (definitionProblems says so).
 */
function readSchema(def: ContractDefinition, baseDir: string): { schema: Record<string, unknown>; schemaFile: string | null } | { problem: string } | Record<string, never> {
  const given: unknown = (def as { schema?: unknown }).schema;
  if (isPlainObject(given)) {
    const tooLarge = inlineSchemaSizeProblem(given, 'its inline schema');
    return tooLarge ? { problem: tooLarge } : { schema: given, schemaFile: null };
  }
  if (typeof given !== 'string' || given === '') return {};
  const schemaFile = path.resolve(baseDir, given);
  const tooLarge = schemaSizeProblem(schemaFile);
  if (tooLarge) return { problem: tooLarge };
  let text: string;
  try {
    text = readFileSync(schemaFile, 'utf8');
  } catch {
    return { problem: `schema file ${given} not found (looked at ${schemaFile})` };
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    return { problem: `schema file ${path.relative(process.cwd(), schemaFile) || schemaFile} is not JSON: ${describeJsonSyntaxError(text, error)}` };
  }
  if (!isPlainObject(schema)) return { problem: `schema file ${given} must hold a JSON object` };
  return { schema, schemaFile };
}

/**
 * Fill the defaults of `def` and resolve its schema: a path is read relative to `baseDir`
 * (@default the working folder).
 *
 * @throws {ContractDefinitionError} for an unusable definition, a schema file that is missing or not
 *   JSON, or a schema that does not compile.
 */
export function normalizeDefinition(def: ContractDefinition, baseDir: string = process.cwd()): NormalizedContractDefinition {
  const problems = definitionProblems(def);
  const label = typeof (def as { name?: unknown }).name === 'string' ? `contract "${def.name}"` : 'a contract';
  // The schema is read and the anchor and finality key checked against it even when other fields
  // are wrong, so that every problem of the contract comes in one round (they came one per round).
  const found = readSchema(def, baseDir);
  const schemaProblems = 'problem' in found ? [found.problem] : [];
  if ('schema' in found) {
    const against = typeof def.schema === 'string' ? def.schema : 'its inline schema';
    const anchor: unknown = (def as { anchor?: unknown }).anchor;
    if (typeof anchor === 'string' && anchor !== '' && anchor !== '/') {
      const anchorProblem = undeclared(found.schema, parsePointer(anchor.startsWith('/') ? anchor : formatPointer([anchor])));
      if (anchorProblem) schemaProblems.push(`\`anchor\` "${anchor}" names no property of ${against}: ${anchorProblem}`);
    }
    const finality: unknown = (def as { finality?: unknown }).finality;
    if (isPlainObject(finality) && typeof finality.key === 'string' && finality.key !== '') {
      const finalProblem = undeclared(found.schema, [finality.key], 'boolean');
      if (finalProblem) schemaProblems.push(`\`finality.key\` "${finality.key}" must be a boolean property of ${against}: ${finalProblem}`);
    }
  }
  if (problems.length === 0 && schemaProblems.length === 1) throw new ContractDefinitionError(`${label}: ${schemaProblems[0]}`);
  if (problems.length + schemaProblems.length > 0) throw new ContractDefinitionError(`${label} is not usable:\n  - ${[...problems, ...schemaProblems].join('\n  - ')}`);
  const { schema, schemaFile } = found as { schema: Record<string, unknown>; schemaFile: string | null };
  const anchorPointer = def.anchor.startsWith('/') ? def.anchor : formatPointer([def.anchor]);
  return {
    name: def.name,
    schema,
    schemaFile,
    anchor: def.anchor,
    anchorPointer,
    finality: def.finality === 'none' ? 'none' : { key: def.finality.key },
    selection: def.selection,
    emptyIsAnswer: def.emptyIsAnswer ?? false,
    retry: def.retry ? { ...def.retry } : null,
    corrections: def.corrections ? { budget: def.corrections.budget, message: def.corrections.message ?? null } : null,
    textFallback: def.textFallback ?? 'any',
    clip: def.clip ? { ...def.clip } : { ...DEFAULT_CLIP },
    extensions: { ...def.extensions },
    clis: def.clis ? [...def.clis] : null,
    description: def.description ?? '',
  };
}

/** The value at JSON Pointer `pointer` in `value`, or `undefined`. */
export function valueAt(value: unknown, pointer: string): unknown {
  let v = value;
  for (const token of parsePointer(pointer)) {
    if (Array.isArray(v) && /^(0|[1-9]\d*)$/.test(token)) v = v[Number(token)];
    else if (isPlainObject(v) && Object.hasOwn(v, token)) v = v[token];
    else return undefined;
  }
  return v;
}

/** The JSON Schema of the member at `pointer` (through `properties`), when the schema says. */
function schemaAt(schema: Record<string, unknown>, pointer: string): Record<string, unknown> | undefined {
  let s: unknown = schema;
  for (const token of parsePointer(pointer)) {
    if (!isPlainObject(s) || !isPlainObject(s.properties)) return undefined;
    s = s.properties[token];
  }
  return isPlainObject(s) ? s : undefined;
}

/** A clip policy of src/diagnostics/evidence.ts for `{ head, tail }`. */
export function clipOf(clip: { head: number; tail: number }): ClipPolicy {
  return { head: clip.head, tail: clip.tail };
}

/** How many config files are being imported right now (shared by every copy of this module). */
const LOADING_CONFIG = Symbol.for('routecert.loadingConfigFile');

function loadingConfigFile(): boolean {
  return ((globalThis as Record<symbol, number | undefined>)[LOADING_CONFIG] ?? 0) > 0;
}

/**
 * Run `load` (the import of a config file) with defineContract deferring every check to the
 * contract's first use: the config loader then checks each definition (its `source`) against the
 * config's folder and names all their problems in one round.
 */
export async function whileLoadingConfigFile<T>(load: () => Promise<T>): Promise<T> {
  const slot = globalThis as Record<symbol, number | undefined>;
  slot[LOADING_CONFIG] = (slot[LOADING_CONFIG] ?? 0) + 1;
  try {
    return await load();
  } finally {
    slot[LOADING_CONFIG] = (slot[LOADING_CONFIG] ?? 1) - 1;
  }
}

/**
 * Build a contract from its definition. The definition is checked and its schema read and compiled
 * now, so a bad one fails at load time, not on the first case.
 *
 * @param baseDir the folder a relative `schema` path is read from; @default the working folder
 *   (the config loader passes the config file's folder).
 * @throws {ContractDefinitionError} for an unusable definition or schema.
 * @example
 * const answer = defineContract({ name: 'answer', schema: 'schemas/answer.json', anchor: 'answer', finality: 'none', selection: 'score' });
 * answer.judge(decoderFor('claude-code/json').decode(envelope, answer.decodeOptions), { attempt: 0, elapsedMs: 0 }).verdict
 */
export function defineContract(def: ContractDefinition, baseDir?: string): DefinedContract {
  // A config file being imported: nothing is refused yet, so the loader can say every problem of
  // every contract at once, labelled by its place in `contracts` (a .ts config said them one
  // contract per round: the first defineContract that threw ended the import).
  if (baseDir === undefined && loadingConfigFile()) return deferred(def, { refuseNow: false });
  if (baseDir === undefined && typeof def?.schema === 'string' && !path.isAbsolute(def.schema)) return deferred(def);
  return { ...build(def, baseDir), source: def };
}

/**
 * A contract whose relative schema path is resolved when it is first used (against the working
 * folder), so that a config file can call defineContract at import time whatever the folder it is
 * loaded from; the config loader rebuilds it from `source` against the config file's folder.
 * The definition's fields are checked now.
 */
function deferred(def: ContractDefinition, options: { refuseNow?: boolean } = {}): DefinedContract {
  const problems = definitionProblems(def);
  if (problems.length > 0 && (options.refuseNow !== false || !isPlainObject(def))) throw new ContractDefinitionError(`contract "${String(def.name)}" is not usable:\n  - ${problems.join('\n  - ')}`);
  let built: Omit<DefinedContract, 'source'> | undefined;
  const get = (): Omit<DefinedContract, 'source'> => (built ??= build(def, process.cwd()));
  return {
    source: def,
    name: def.name,
    get anchor() {
      return get().anchor;
    },
    get definition() {
      return get().definition;
    },
    get decodeOptions() {
      return get().decodeOptions;
    },
    read: (decoded, attempt) => get().read(decoded, attempt),
    judge: (decoded, context) => get().judge(decoded, context),
    save: () => get().save(),
    resume: (state) => get().resume(state),
  };
}

/**
 * Whether `candidate` was found in a free-text channel (issue 21 point 7): anything but the route's
 * structured field (`decoded.structured`, or an origin naming a structured field in any spelling) and
 * a tool call's input (origin `tool_use:<name>`). So `result`, `text`, `response`, `assistant-text`,
 * `last-message` (unless the decoder made it the structured candidate, as Codex's `-o` file is),
 * `stdout` and `stderr` are free text, whether the JSON is the whole string, fenced, or in prose.
 */
export function inFreeText(candidate: Candidate, decoded: Decoded): boolean {
  const s = decoded.structured;
  if (s && (candidate === s || (candidate.origin === s.origin && candidate.pointer === s.pointer && candidate.event === s.event))) return false;
  return !isStructuredOrigin(candidate.origin) && !candidate.origin.startsWith('tool_use:');
}

function build(def: ContractDefinition, baseDir?: string): Omit<DefinedContract, 'source'> {
  const d = normalizeDefinition(def, baseDir);
  const clip = clipOf(d.clip);
  const finalityKey = d.finality === 'none' ? null : d.finality.key;
  let shaped: Validator;
  try {
    shaped = compileValidator(finalityKey ? withoutFinality(d.schema, finalityKey) : d.schema);
  } catch (error) {
    throw new ContractDefinitionError(`contract "${d.name}": its schema${d.schemaFile ? ` (${d.schemaFile})` : ''} does not compile: ${(error as Error).message}`);
  }
  const anchorTokens = parsePointer(d.anchorPointer);
  const anchorKey = anchorTokens[0]!;
  const anchorSchema = schemaAt(d.schema, d.anchorPointer);
  const anchorIsArray = anchorSchema?.type === 'array';
  const anchorLabel = anchorTokens.at(-1)!;
  const defaults = d.extensions.publishDefaults ?? {};
  const checks = d.extensions.checks?.commits ? [commitsResolve(d.extensions.checks.commits)] : [];
  const hardWindowMs = d.extensions.hardWindowMs ?? d.retry?.hardWindowMs ?? DEFAULT_HARD_WINDOW_MS;
  let codec: Codec | null = null;
  try {
    codec = d.extensions.codec ? buildCodec(d.extensions.codec, { schema: d.schema, validate: shaped, anchor: anchorKey }) : null;
  } catch (error) {
    throw new ContractDefinitionError(`contract "${d.name}": ${(error as Error).message.replace(/^\[routecert\] /, '')}`);
  }
  const decodeOptions: DecodeOptions = { anchor: anchorKey, ...(d.selection === 'last-shaped' && d.textFallback !== 'off' && !codec ? { freeText: true } : {}) };

  const anchorShaped = (c: Candidate): boolean => {
    // Read once: a lazy candidate builds its value on each read (src/envelope/candidates.ts).
    const value = c.value;
    if (!isPlainObject(value)) return false;
    const v = valueAt(value, d.anchorPointer);
    return v !== undefined && (!anchorIsArray || Array.isArray(v));
  };
  const fromText = (c: Candidate): boolean => c.origin === 'stdout' || c.origin === 'stderr';
  const allowed = (c: Candidate, decoded: Decoded): boolean => !inFreeText(c, decoded) || d.textFallback === 'any' || (d.textFallback === 'fenced' && c.fenced === true);
  const isFinal = (value: unknown): boolean | null => (finalityKey === null ? null : isPlainObject(value) && value[finalityKey] === true);
  const where = (c: Candidate, extra = ''): string => `${c.origin}${c.fenced ? ' (fenced)' : ''}${extra}`;

  const withDefaults = (value: Record<string, unknown>): { published: Record<string, unknown>; filled: string[] } => {
    const filled = Object.keys(defaults).filter((k) => !Object.hasOwn(value, k));
    const published: Record<string, unknown> = { ...value };
    for (const k of filled) published[k] = structuredClone(defaults[k]);
    return { published, filled };
  };

  const readScore = (decoded: Decoded): Reading => {
    type Scored = { candidate: Candidate; published: Record<string, unknown>; filled: string[]; problems: string[]; score: number };
    const scoreOf = (candidate: Candidate, value: Record<string, unknown>): Scored => {
      const { published, filled } = withDefaults(value);
      const anchorValue = valueAt(published, d.anchorPointer);
      const problems = Array.isArray(anchorValue) && anchorValue.length === 0 && !d.emptyIsAnswer ? [`"${d.anchor}" is empty (emptyIsAnswer is off)`] : shaped(published);
      const score = problems.length > 0 ? 0 : isFinal(published) === false ? 1 : 2;
      return { candidate, published, filled, problems, score };
    };
    // One pass, keeping only the best so far (issue 24: every candidate scored and kept was 500,000
    // published copies side by side). The structured field wins early at 2; else ties go to the later.
    let best: Scored | undefined;
    let structuredBest: Scored | undefined;
    for (const candidate of decoded.candidates) {
      if (!allowed(candidate, decoded)) continue;
      // A lazy candidate builds its value on each read (src/envelope/candidates.ts): read it once.
      const value = candidate.value;
      if (!isPlainObject(value) || valueAt(value, d.anchorPointer) === undefined) continue;
      const s = scoreOf(candidate, value);
      if (candidate === decoded.structured && s.score === 2 && structuredBest === undefined) structuredBest = s;
      if (best === undefined || s.score >= best.score) best = s;
    }
    if (structuredBest) best = structuredBest;
    if (!best || best.score === 0) {
      const why = ['produced no usable schema-shaped output; skipping fold-in'];
      if (best) why.push(`best candidate (${best.candidate.origin}) is not shaped: ${best.problems.slice(0, 3).join('; ')}`);
      return best
        ? { kind: 'miss', shape: 'schema-invalid', detail: `it did not match the schema: ${best.problems.slice(0, 3).join('; ')}`, why, problems: best.problems }
        : { kind: 'miss', shape: 'no-candidate', detail: `it held no JSON object with "${d.anchor}"`, why, problems: [] };
    }
    const c = best.candidate;
    const final = isFinal(best.published);
    const filledLine = best.filled.length > 0 ? [`filled missing ${best.filled.join(', ')} with publish defaults`] : [];
    return {
      kind: 'answer',
      value: best.published,
      origin: c.origin,
      fenced: c.fenced === true,
      fromText: fromText(c),
      final,
      score: best.score,
      accepted: [`accepted ${final === null ? '' : 'final '}${d.anchor} from ${where(c)}`, ...filledLine],
    };
  };

  const readLastShaped = (decoded: Decoded): Reading => {
    const candidates = decoded.candidates.filter((c) => allowed(c, decoded));
    const free = d.textFallback === 'off' ? [] : (decoded.freeText ?? []).filter((c) => anchorShaped(c) && allowed(c, decoded));
    const chosen = selectLastShaped(candidates, free, { shaped: anchorShaped, populated: (c) => populatedAnchor(valueAt(c.value, d.anchorPointer)) });
    if (!chosen) {
      return {
        kind: 'miss',
        shape: 'no-candidate',
        detail: `it held no JSON object with "${d.anchor}"`,
        why: [`produced no usable schema-shaped output (no object with a ${anchorLabel}${anchorIsArray ? ' array' : ''}); skipping fold-in`],
        problems: [],
      };
    }
    return answerOf(chosen.candidate, chosen.rule, chosen.populated);
  };

  const answerOf = (candidate: Candidate, rule: LastShapedRule, populated: boolean): Reading => {
    const { published, filled } = withDefaults(candidate.value as Record<string, unknown>);
    const at = where(candidate, `, rule ${rule}`);
    const problems = shaped(published);
    if (problems.length > 0) {
      return {
        kind: 'miss',
        shape: 'schema-invalid',
        detail: `it did not match the schema: ${problems.slice(0, 3).join('; ')}`,
        why: ['produced no usable schema-shaped output; skipping fold-in', `selected ${anchorLabel} (${at}) is not schema-valid: ${problems.slice(0, 3).join('; ')}`],
        problems,
      };
    }
    const anchorValue = valueAt(published, d.anchorPointer);
    if (!populated && !d.emptyIsAnswer) {
      return { kind: 'miss', shape: 'empty', detail: `its "${d.anchor}" was empty`, why: [`selected ${anchorLabel} (${at}) is empty, and an empty ${anchorLabel} is no answer here; skipping fold-in`], problems: [] };
    }
    const count = Array.isArray(anchorValue) ? anchorValue.length : 1;
    const singular = anchorLabel.endsWith('s') ? anchorLabel.slice(0, -1) : anchorLabel;
    const line = populated
      ? `accepted ${Array.isArray(anchorValue) ? `${count} ${singular}(s)` : anchorLabel} from ${at}`
      : `accepted an empty ${anchorLabel}${anchorIsArray ? ' array' : ''} from ${at}: found nothing`;
    return {
      kind: 'answer',
      value: published,
      origin: candidate.origin,
      fenced: candidate.fenced === true,
      fromText: fromText(candidate),
      final: isFinal(published),
      score: populated ? 2 : 1,
      accepted: filled.length > 0 ? [line, `filled missing ${filled.join(', ')} with publish defaults`] : [line],
    };
  };

  const read = (decoded: Decoded): Reading => {
    if (codec) {
      const r = codec.read(decoded.reply);
      if (r.kind === 'answer') {
        const { published } = withDefaults(r.value as Record<string, unknown>);
        return { ...r, value: isPlainObject(r.value) ? published : r.value, final: isFinal(r.value), fromText: false };
      }
      return r;
    }
    return d.selection === 'score' ? readScore(decoded) : readLastShaped(decoded);
  };

  const correctionMessage = (reading: Extract<Reading, { kind: 'miss' }>): string =>
    d.corrections?.message ??
    reading.addendum ??
    `Your previous reply was not a valid ${typeof d.schema.title === 'string' ? d.schema.title : d.name} object: ${reading.detail}. ` +
      'Reply again with exactly one JSON object that matches the JSON Schema below: no prose around it, no code fence, ' +
      `no "$schema" or other schema keywords, and every required field present (${requiredOf(d.schema).join(', ')}).\n${JSON.stringify(d.schema)}`;

  let ledger = new UsageLedger();
  let shapes: string[] = [];
  let resumed = false;

  const judge = (decoded: Decoded, context: { attempt: number; elapsedMs: number }): Verdict => {
    const attempt = context.attempt;
    if (attempt === 0 && !resumed) {
      ledger = new UsageLedger();
      shapes = [];
    }
    resumed = false;
    const withUsage = (v: Verdict): Verdict => (d.extensions.usageLedger ? { ...v, usage: ledger.totals } : v);
    if (d.extensions.usageLedger) ledger.add(attempt, decoded.usage ?? decoded.reply.usage);
    const bounded = (v: Verdict): Verdict => withUsage({ ...v, evidence: v.evidence.map((line) => boundLine(line, d.clip)) });

    const early = runFailure(decoded, attempt, clip);
    if (early) return bounded(early);
    const reading = read(decoded);
    shapes[attempt] = reading.kind === 'answer' ? 'valid' : reading.shape;
    shapes.length = attempt + 1;
    if (reading.kind === 'answer') {
      const problems = checks.flatMap((check) => check(reading.value as Record<string, unknown>));
      if (problems.length > 0) {
        return bounded(noAnswer(decoded, attempt, clip, [`schema-valid reply from ${reading.origin} failed a check the schema cannot express; not corrected: ${problems.join('; ')}`]));
      }
      if (reading.final === false) {
        const anchorValue = valueAt(reading.value, d.anchorPointer);
        const position = typeof anchorValue === 'string' ? anchorValue : JSON.stringify(anchorValue) ?? '';
        const quoted = position.slice(0, 120);
        const retry = d.retry;
        const remainingMs = (retry?.hardWindowMs ?? hardWindowMs) - context.elapsedMs;
        const last = retry === null || attempt >= 1;
        if (retry && !last && remainingMs >= retry.retryMinMs) {
          return bounded({
            verdict: 'retry',
            attempt,
            reason: 'non-final',
            addendum: retry.paragraph,
            remainingMs,
            evidence: [
              `peer returned a non-final ${d.anchor} ("${quoted}"); retrying once on the same route with a final-answer requirement (${Math.floor(remainingMs / 1000)}s left)`,
            ],
          });
        }
        const why = last
          ? `peer returned a non-final ${d.anchor} ("${quoted}") on its last attempt; not retrying`
          : `peer returned a non-final ${d.anchor} ("${quoted}") with ${Math.max(0, Math.floor(remainingMs / 1000))}s of the ${Math.floor(retry!.hardWindowMs / 1000)}s window left; not retrying`;
        return bounded({
          verdict: 'dropped-nonfinal',
          attempt,
          value: reading.value,
          evidence: [why, `peer skip evidence: non-final ${d.anchor}: ${position.replace(/\r\n|\r|\n/g, ' ').slice(0, 200)}`],
        });
      }
      // An incomplete stream (no terminal event, a cut last line) is never accepted (issue 11); a
      // non-final answer in it may still be retried (above). Nor is an answer from a run that says
      // it failed (issue 19 point 1).
      if (decoded.status.incomplete !== undefined) return bounded(noAnswer(decoded, attempt, clip, []));
      const failed = runSaysFailed(decoded);
      if (failed !== null) return bounded(noAnswer(decoded, attempt, clip, [`an answer was found but ${failed}: not accepted`]));
      const after = d.corrections && attempt > 0 ? ` after ${attempt} correction(s)` : '';
      const [line, ...more] = reading.accepted;
      return bounded({
        verdict: 'accepted',
        attempt,
        origin: reading.origin,
        value: reading.value,
        score: reading.score,
        ...(reading.tier ? { tier: reading.tier } : {}),
        ...(reading.fromText ? { fromText: true } : {}),
        evidence: [`${line}${after}`, ...more],
      });
    }
    if (decoded.status.kind === 'provider-error' || decoded.status.kind === 'crashed') return bounded(noAnswer(decoded, attempt, clip, []));
    const corrections = reading.correctable === false ? null : d.corrections;
    const named = reading.named ?? `${reading.shape}: ${reading.detail}`;
    if (corrections && attempt < corrections.budget) {
      return bounded({
        verdict: 'retry',
        attempt,
        reason: reading.reason ?? `correction: ${reading.shape}`,
        addendum: correctionMessage(reading),
        remainingMs: Math.max(0, hardWindowMs - context.elapsedMs),
        evidence: [`attempt ${attempt + 1} of ${corrections.budget + 1}: ${named}; sending correction ${attempt + 1} of ${corrections.budget}`],
      });
    }
    if (corrections && (d.extensions.exhausted ?? 'invalid_structured_output') === 'invalid_structured_output') {
      return bounded({
        verdict: 'invalid_structured_output',
        attempt,
        corrections: attempt,
        shapes: [...shapes],
        evidence: [`invalid_structured_output: ${reading.shape} after ${attempt} correction(s) (${shapes.join(', ')}): ${reading.detail}`, ...failureEvidence(decoded, clip)],
      });
    }
    const why = corrections ? [`attempt ${attempt + 1} of ${corrections.budget + 1}: ${named}; no attempts left`] : reading.why;
    const verdict = noAnswer(decoded, attempt, clip, why);
    return bounded(verdict.verdict === 'dropped-unusable' && reading.tier ? { ...verdict, tier: reading.tier } : verdict);
  };

  return {
    ...(codec?.api ?? {}),
    name: d.name,
    anchor: anchorKey,
    definition: d,
    decodeOptions,
    read,
    judge,
    save: () => ({ ledger: ledger.save(), shapes: [...shapes] }),
    resume: (state) => {
      ledger = UsageLedger.restore(state.ledger);
      shapes = [...state.shapes];
      resumed = true;
    },
  };
}

/** An anchor value that is an answer with content: a non-empty array, or any other present value. */
function populatedAnchor(v: unknown): boolean {
  return Array.isArray(v) ? v.length > 0 : v !== undefined && v !== null;
}

function requiredOf(schema: Record<string, unknown>): string[] {
  return Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
}

/**
 * The schema with the finality key made optional and untyped, so that "shaped" means valid in every
 * respect but finality; finality is then read as `value[key] === true` (fail closed).
 */
export function withoutFinality(schema: Record<string, unknown>, finality: string): Record<string, unknown> {
  const copy = structuredClone(schema);
  if (Array.isArray(copy.required)) copy.required = copy.required.filter((k) => k !== finality);
  if (isPlainObject(copy.properties)) copy.properties = { ...copy.properties, [finality]: true };
  return copy;
}

/**
 * A check that every commit a value names resolves: each `commit <sha>` / `committed as <sha>` /
 * `sha <sha>` mention (7 to 40 hex digits) in any string of the value must be a prefix of a known commit,
 * as `git rev-parse` resolves an abbreviated id.
 *
 * @param known the full ids of the commits that exist in the workspace.
 */
export function commitsResolve(known: readonly string[]): (value: Record<string, unknown>) => string[] {
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
