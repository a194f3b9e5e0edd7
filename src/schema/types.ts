/**
 * Types of the schema portability lint: findings, provider profiles and their rules.
 * A profile is data: a list of rules, each with its id, description, source and fix hint.
 */
import type { SchemaIndex } from '#src/schema/refs.ts';
import type { DraftId } from '#src/schema/vocabularies.ts';
import type { SchemaNode } from '#src/schema/walk.ts';

/** `error`: the provider refuses the schema (or is documented/measured to); `warning`: risky, ignored or unverified. */
export type Severity = 'error' | 'warning';

/**
 * One problem found in a schema, for one profile.
 *
 * - `file`: the file it came from, as given (relative paths stay relative); absent for in-memory schemas.
 * - `pointer`: RFC 6901 JSON Pointer of the schema object holding the keyword (`''` = root).
 * - `keyword`: the offending keyword (a key of that schema object); `''` when the finding is about the
 *   file or the document as a whole (bad JSON, a non-schema root).
 * - `profile`: the profile that objects, or `*` for findings that concern every profile (unreadable
 *   file, invalid JSON, non-schema root, unrecognised `$schema`).
 * - `rule`: the rule id inside that profile (see {@link ProfileRule.id}).
 * - `message`: one sentence naming `pointer + "/" + keyword` and what the provider does about it.
 * - `hint`: how to fix it.
 * - `line`/`column`: 1-based, for invalid JSON.
 */
export interface LintFinding {
  file?: string;
  pointer: string;
  keyword: string;
  profile: string;
  rule: string;
  message: string;
  hint: string;
  severity: Severity;
  line?: number;
  column?: number;
}

/**
 * What a rule reports; the linter adds file, profile, rule, severity and the default hint.
 *
 * - `pointer`: defaults to the checked node's pointer.
 * - `message`: the rule's words; the linter prefixes it with the full keyword pointer.
 */
export interface RuleHit {
  keyword: string;
  message: string;
  pointer?: string;
  hint?: string;
  severity?: Severity;
}

/**
 * What a rule sees besides the node.
 *
 * - `root`: the whole document.
 * - `draft`: the declared draft (root `$schema`), or draft-07 when none or unrecognised.
 * - `schemaUri`: the root `$schema` value when it is a string.
 * - `index`: lookups over every walked node (children, pointers, `$ref` targets).
 * - `recursiveRefs()`: the `$ref` nodes that close a cycle (cached).
 * - `unreferenced()`: nodes only reachable through an unreferenced definition (cached).
 */
export interface LintContext {
  root: unknown;
  draft: DraftId;
  schemaUri: string | undefined;
  index: SchemaIndex;
  recursiveRefs(): readonly SchemaNode[];
  unreferenced(): ReadonlySet<SchemaNode>;
}

/**
 * One rule of a provider profile: data plus a check.
 *
 * - `id`: stable, kebab-case, unique inside its profile (printed as `profile/id`).
 * - `description`: what the provider does, in one sentence.
 * - `source`: where that is known from: a URL, a doc, a CLI version, or a section of
 *   research/schema-vocabularies.md. Rules not directly sourced say `inferred` in it.
 * - `severity`: default severity of its hits.
 * - `hint`: default fix hint.
 * - `scope`: `node` rules are called for every walked subschema; `document` rules once, with the root.
 * - `check`: returns the hits for that node (or document); never throws on odd schemas.
 */
export interface ProfileRule {
  id: string;
  description: string;
  source: string;
  severity: Severity;
  hint: string;
  scope: 'node' | 'document';
  check(node: SchemaNode, context: LintContext): RuleHit[];
}

/**
 * A provider profile: the rules a schema must pass to be sent that way.
 *
 * - `name`: the profile id (`claude-code`, `codex`, `openai-strict`, ...).
 * - `title`: what it models, with the version the evidence is from.
 * - `source`: the main source for the profile as a whole.
 */
export interface Profile {
  name: string;
  title: string;
  source: string;
  /** Set when the consumer reads another schema language than JSON Schema (`openapi-3.0`); JSON Schema when absent. */
  dialect?: 'openapi-3.0';
  rules: readonly ProfileRule[];
}
