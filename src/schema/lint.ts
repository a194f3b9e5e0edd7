/**
 * The schema portability lint: walks every subschema of a schema and runs each requested provider
 * profile's rules, reporting each offending keyword by the JSON Pointer of the schema object that
 * holds it. `lintFiles` reads files and folders and never throws on bad input: unreadable files,
 * invalid JSON (with line and column) and non-schema documents are findings.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { schemaSizeProblem } from './limit.ts';
import { basename, dirname, join } from 'node:path';
import { locateJsonError } from '#src/schema/jsonError.ts';
import { loadProfileManifest, ManifestError, type ProfileManifest } from '#src/schema/manifest.ts';
import { joinPointer } from '#src/pointer.ts';
import { getProfile } from '#src/schema/profiles.ts';
import { findRecursiveRefs, indexSchema, unreferencedNodes } from '#src/schema/refs.ts';
import type { LintContext, LintFinding, Profile, RuleHit, Severity } from '#src/schema/types.ts';
import { draftFromSchemaUri, type DraftId } from '#src/schema/vocabularies.ts';
import { declaredDraft, isSchemaValue, lenientPositions, walkSchema, type SchemaNode } from '#src/schema/walk.ts';
import { pushAll } from '#src/arrays.ts';
import { createAjv } from '#src/schema/ajv.ts';
import type { AnySchema } from 'ajv';

/**
 * Options of {@link lintSchema}.
 *
 * - `profiles`: profile names to check against (see `PROFILE_NAMES`); at least one.
 * - `file`: copied into each finding.
 */
export interface LintOptions {
  profiles: readonly string[];
  file?: string;
}

/** The profile name of findings that concern every profile. */
export const ALL_PROFILES = '*';

/** Where a finding about keyword `keyword` of the schema at `pointer` points: `pointer/keyword`. */
export function keywordPointer(pointer: string, keyword: string): string {
  if (keyword === '') return pointer === '' ? '(root)' : pointer;
  return joinPointer(pointer, keyword);
}

function finding(
  base: { file?: string | undefined; profile: string; rule: string; severity: Severity; hint: string },
  pointer: string,
  keyword: string,
  message: string,
): LintFinding {
  const out: LintFinding = {
    pointer,
    keyword,
    profile: base.profile,
    rule: base.rule,
    message: `${keywordPointer(pointer, keyword)}: ${message}`,
    hint: base.hint,
    severity: base.severity,
  };
  if (base.file !== undefined) out.file = base.file;
  return out;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** A finding with its sort keys: document order of its node, then profile order, then rule order. */
interface OrderedFinding {
  finding: LintFinding;
  order: number;
  profile: number;
  rule: number;
}

/** What every rule sees besides its node (see {@link LintContext}); the costly parts are computed once, on demand. */
function lintContext(schema: unknown, draft: DraftId, schemaUri: string | undefined, nodes: readonly SchemaNode[]): LintContext {
  const index = indexSchema(nodes);
  let recursive: readonly SchemaNode[] | undefined;
  let unreferenced: ReadonlySet<SchemaNode> | undefined;
  return {
    root: schema,
    draft,
    schemaUri,
    index,
    recursiveRefs: () => (recursive ??= findRecursiveRefs(index)),
    unreferenced: () => (unreferenced ??= unreferencedNodes(index)),
  };
}

/** Runs every rule of every profile: document rules once on the root, node rules on every node. */
function ruleFindings(profiles: readonly Profile[], nodes: readonly SchemaNode[], context: LintContext, file: string | undefined): OrderedFinding[] {
  const out: OrderedFinding[] = [];
  const root = nodes[0] as SchemaNode;
  profiles.forEach((profile, p) => {
    profile.rules.forEach((rule, r) => {
      const base = { file, profile: profile.name, rule: rule.id, severity: rule.severity, hint: rule.hint };
      const emit = (node: SchemaNode, hit: RuleHit): void => {
        const pointer = hit.pointer ?? node.pointer;
        const at = hit.pointer === undefined ? node : (context.index.byPointer(hit.pointer) ?? node);
        out.push({
          finding: finding({ ...base, severity: hit.severity ?? rule.severity, hint: hit.hint ?? rule.hint }, pointer, hit.keyword, hit.message),
          order: at.index,
          profile: p,
          rule: r,
        });
      };
      if (rule.scope === 'document') {
        for (const hit of rule.check(root, context)) emit(root, hit);
      } else {
        for (const node of nodes) for (const hit of rule.check(node, context)) emit(node, hit);
      }
    });
  });
  return out;
}

/**
 * Lints one in-memory schema against the named profiles.
 *
 * The declared `$schema` is pinned: it picks the vocabulary (draft-07 when absent or unrecognised)
 * and each profile's `schema-uri` rule flags a draft it does not take. Every subschema position of
 * that draft is walked (plus positions other drafts define, so nothing hides under a foreign
 * keyword). Findings come in document order, then profile order, then rule order.
 *
 * @returns the findings; `[]` when the schema is clean for every profile.
 * @throws {UnknownProfileError} when a profile name is unknown (the message lists the valid ones).
 * @example
 * lintSchema({ type: 'object', properties: { a: { _meta: 1 } } }, { profiles: ['claude-code'] });
 * // [{ pointer: '/properties/a', keyword: '_meta', profile: 'claude-code', rule: 'unknown-keyword', ... }]
 */
export function lintSchema(schema: unknown, options: LintOptions): LintFinding[] {
  const profiles: Profile[] = options.profiles.map((name) => getProfile(name));
  const file = options.file;
  const general = (rule: string, severity: Severity, hint: string) => ({ file, profile: ALL_PROFILES, rule, severity, hint });

  if (!isSchemaValue(schema)) {
    return [
      finding(general('not-a-schema', 'error', 'A JSON Schema is an object (or a boolean).'), '', '', `the document is ${describe(schema)}, not a JSON Schema`),
    ];
  }

  const out: OrderedFinding[] = [];
  const schemaUri = typeof schema === 'object' && typeof schema.$schema === 'string' ? schema.$schema : undefined;
  if (typeof schema === 'object' && Object.hasOwn(schema, '$schema') && draftFromSchemaUri(schema.$schema) === undefined) {
    out.push({
      finding: finding(
        general('unknown-schema-uri', 'warning', 'Use the $schema URI of draft-07, 2019-09 or 2020-12, or drop $schema.'),
        '',
        '$schema',
        `${JSON.stringify(schema.$schema)} names no JSON Schema draft routecert knows; keywords are checked against draft-07`,
      ),
      order: 0,
      profile: -1,
      rule: 0,
    });
  }

  const draft = declaredDraft(schema);
  const cycles: string[] = [];
  const nodes = [...walkSchema(schema, { positions: lenientPositions(draft), onCycle: (pointer) => cycles.push(pointer) })];
  for (const pointer of cycles) {
    out.push({
      finding: finding(
        general('cyclic-object', 'warning', 'Build the schema as a tree (JSON cannot be cyclic); use $ref for recursion.'),
        pointer,
        '',
        'this object already appears on its own path (a cyclic object graph, not JSON); it was not walked again',
      ),
      order: 0,
      profile: -1,
      rule: 1,
    });
  }

  // A schema its own draft's meta-schema refuses (`"type": "strng"`) compiles nowhere: every CLI
  // that validates with Ajv refuses it at startup (init refused it; lint said "ok").
  // Only for JSON Schema consumers: Gemini's legacy Schema message is OpenAPI ("type": "OBJECT").
  const jsonSchemaProfiles = profiles.some((p) => p.dialect === undefined);
  for (const problem of jsonSchemaProfiles ? metaSchemaProblems(schema, draft) : []) {
    out.push({
      finding: finding(
        general('invalid-schema', 'error', `Fix the schema: the ${draft} meta-schema refuses it, so no validator compiles it (Claude Code and Qwen Code refuse it at startup).`),
        problem.pointer,
        problem.keyword,
        `${problem.message} (the ${draft} meta-schema)`,
      ),
      order: 0,
      profile: -1,
      rule: 2,
    });
  }

  const context = lintContext(schema, draft, schemaUri, nodes);
  pushAll(out, ruleFindings(profiles, nodes, context, file));

  out.sort((a, b) => a.order - b.order || a.profile - b.profile || a.rule - b.rule);
  return out.map((entry) => entry.finding);
}

/**
 * Where `schema` breaks its draft's meta-schema (Ajv's `validateSchema`, every error): each with
 * the JSON Pointer of the offending member's parent, its key (the keyword) and Ajv's
 * words; at most 20. `[]` for a valid schema, or a draft Ajv does not take (draft-04: the
 * `schema-uri` rule of each profile says so).
 */
function metaSchemaProblems(schema: unknown, draft: DraftId): { pointer: string; keyword: string; message: string }[] {
  let errors: { instancePath: string; message?: string; params?: Record<string, unknown> }[] | null | undefined;
  try {
    const ajv = createAjv(draft, { strict: false, allErrors: true });
    errors = ajv.validateSchema(schema as AnySchema) === true ? [] : ajv.errors;
  } catch {
    return [];
  }
  // The 2019-09 and 2020-12 meta-schemas let `"enum": []` through, which no value satisfies and
  // Ajv refuses to compile ("enum must have non-empty array").
  for (const node of walkSchema(schema, { positions: lenientPositions(draft) })) {
    if (typeof node.schema === 'object' && node.schema !== null && Array.isArray((node.schema as { enum?: unknown }).enum) && (node.schema as { enum: unknown[] }).enum.length === 0) {
      errors = [...(errors ?? []), { instancePath: `${node.pointer}/enum`, message: 'must NOT have fewer than 1 items (no value satisfies an empty enum)' }];
    }
  }
  if ((errors ?? []).length === 0) return [];
  const out = new Map<string, { pointer: string; keyword: string; message: string }>();
  for (const e of errors ?? []) {
    // The member's parent and its key: the finding prints them joined, as the profiles' do.
    const cut = e.instancePath.lastIndexOf('/');
    const pointer = cut < 0 ? '' : e.instancePath.slice(0, cut);
    const keyword = cut < 0 ? '' : e.instancePath.slice(cut + 1).replace(/~1/g, '/').replace(/~0/g, '~');
    const allowed = Array.isArray(e.params?.allowedValues) ? `: ${e.params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}` : '';
    const message = `${e.message ?? 'is invalid'}${allowed}`;
    // anyOf branches repeat one fault several ways: the first words for each place.
    if (!out.has(e.instancePath)) out.set(e.instancePath, { pointer, keyword, message });
  }
  return [...out.values()].slice(0, 20);
}

/**
 * Parses JSON text and lints it. Invalid JSON is one `*`/`invalid-json` finding with the line and
 * column of the first error; a leading byte-order mark is ignored.
 *
 * @throws {UnknownProfileError} when a profile name is unknown.
 */
export function lintJsonText(text: string, options: LintOptions): LintFinding[] {
  options.profiles.forEach((name) => getProfile(name));
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    const at = locateJsonError(body) ?? { offset: body.length, line: 1, column: 1 };
    const out: LintFinding = {
      pointer: '',
      keyword: '',
      profile: ALL_PROFILES,
      rule: 'invalid-json',
      message: `invalid JSON at line ${at.line}, column ${at.column}: ${(error as Error).message}`,
      hint: 'Fix the JSON syntax first; nothing else was checked.',
      severity: 'error',
      line: at.line,
      column: at.column,
    };
    if (options.file !== undefined) out.file = options.file;
    return [out];
  }
  return lintSchema(value, options);
}

/**
 * Options of {@link lintFiles}.
 *
 * - `profiles`: check every file against these. When absent, each file gets the profiles its
 *   folder's `profiles.json` manifest lists for it, or `portable` when it is not listed.
 */
export interface LintFilesOptions {
  profiles?: readonly string[];
}

/**
 * The result for one file: the profiles it was checked against and its findings.
 * `manifest` names the manifest the profiles came from, when one did.
 */
export interface FileLintResult {
  file: string;
  profiles: string[];
  manifest?: string;
  findings: LintFinding[];
}

/** The file-name suffix `lintFiles` looks for inside folders. */
export const SCHEMA_FILE_SUFFIX = '.schema.json';

const DEFAULT_PROFILE = 'portable';

/** No schema files from `path`, with the finding that says why (a whole-file finding of every profile). */
function pathProblem(path: string, rule: string, message: string, hint: string, severity: LintFinding['severity']): { files: string[]; problem: LintFinding } {
  return { files: [], problem: { file: path, pointer: '', keyword: '', profile: ALL_PROFILES, rule, message, hint, severity } };
}

/** The error code of a failed file-system call (`ENOENT`), else its message. */
function fsReason(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}

async function expand(path: string): Promise<{ files: string[]; problem?: LintFinding }> {
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    return pathProblem(path, 'unreadable', `cannot read ${path}: ${fsReason(error)}`, 'Check the path.', 'error');
  }
  if (!info.isDirectory()) return { files: [path] };
  // Node's own recursive readdir: no glob library is a declared dependency of routecert.
  let entries: string[];
  try {
    entries = await readdir(path, { recursive: true });
  } catch (error) {
    return pathProblem(path, 'unreadable', `cannot list ${path}: ${fsReason(error)}`, 'Check the folder and its permissions.', 'error');
  }
  const files = entries
    .filter((rel) => rel.endsWith(SCHEMA_FILE_SUFFIX) && !rel.split(/[\\/]/).includes('node_modules'))
    .sort()
    .map((rel) => join(path, rel));
  if (files.length > 0) return { files };
  return pathProblem(path, 'no-schema-files', `no *${SCHEMA_FILE_SUFFIX} file under ${path}`, `Name schema files *${SCHEMA_FILE_SUFFIX}, or pass the file itself.`, 'warning');
}

/**
 * Lints files and folders (folders are searched recursively for `*.schema.json`; `node_modules`
 * is skipped). Never throws for bad input: a missing path, an unreadable file, invalid JSON or a
 * malformed manifest is a finding (with line and column for JSON).
 *
 * @returns one result per file (or per path that yielded no file), in argument order, folders
 *   sorted by path.
 * @throws {UnknownProfileError} when `options.profiles` names an unknown profile (checked before
 *   any file is read).
 * @example
 * const results = await lintFiles(['schemas/contracts'], {});
 * const findings = results.flatMap((r) => r.findings);
 */
export async function lintFiles(paths: readonly string[], options: LintFilesOptions = {}): Promise<FileLintResult[]> {
  options.profiles?.forEach((name) => getProfile(name));
  const results: FileLintResult[] = [];
  const seen = new Set<string>();
  const manifests = new Map<string, Promise<ProfileManifest | undefined>>();

  for (const path of paths) {
    const { files, problem } = await expand(path);
    if (problem !== undefined) results.push({ file: path, profiles: [], findings: [problem] });
    for (const file of files) {
      if (seen.has(file)) continue;
      seen.add(file);
      const result: FileLintResult = { file, profiles: [], findings: [] };
      if (options.profiles !== undefined) {
        result.profiles = [...options.profiles];
      } else {
        const dir = dirname(file);
        if (!manifests.has(dir)) manifests.set(dir, loadProfileManifest(dir));
        try {
          const manifest = await (manifests.get(dir) as Promise<ProfileManifest | undefined>);
          const entry = manifest?.schemas.get(basename(file));
          if (manifest !== undefined && entry !== undefined) {
            result.profiles = [...entry.profiles];
            result.manifest = manifest.file;
          } else {
            result.profiles = [DEFAULT_PROFILE];
          }
        } catch (error) {
          result.profiles = [DEFAULT_PROFILE];
          result.findings.push({
            file: error instanceof ManifestError ? error.file : file,
            pointer: '',
            keyword: '',
            profile: ALL_PROFILES,
            rule: 'bad-manifest',
            message: (error as Error).message.replace(/^\[routecert\] /, ''),
            hint: `Fix the manifest; "${DEFAULT_PROFILE}" was used instead.`,
            severity: 'error',
          });
        }
      }
      let text: string;
      const tooLarge = schemaSizeProblem(file);
      if (tooLarge) {
        result.findings.push({ file, pointer: '', keyword: '', profile: ALL_PROFILES, rule: 'unreadable', message: tooLarge, hint: 'Lint the schema your CLIs are sent; a production schema is kilobytes.', severity: 'error' });
        results.push(result);
        continue;
      }
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        result.findings.push({
          file,
          pointer: '',
          keyword: '',
          profile: ALL_PROFILES,
          rule: 'unreadable',
          message: `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
          hint: 'Check the path and its permissions.',
          severity: 'error',
        });
        results.push(result);
        continue;
      }
      pushAll(result.findings, lintJsonText(text, { profiles: result.profiles, file }));
      results.push(result);
    }
  }
  return results;
}
