/**
 * Schema portability: draft vocabularies derived from ajv's meta-schemas, a recursive walker, provider
 * profiles as data, the lint that reports each offending keyword by JSON Pointer, the ajv factory,
 * and the `routecert lint` command module.
 */

// Vocabularies
export {
  DEFAULT_DRAFT,
  DRAFT04_FROM_DRAFT06,
  DRAFTS,
  SCHEMA_URIS,
  draftFromSchemaUri,
  getVocabulary,
  isDraftId,
} from '#src/schema/vocabularies.ts';

// JSON Pointer
export { escapePointerToken, joinPointer, localRefToPointer, parsePointer, unescapePointerToken } from '#src/schema/pointer.ts';

// Walker and $ref analysis
export { declaredDraft, isSchemaValue, lenientPositions, walkSchema } from '#src/schema/walk.ts';
export { findRecursiveRefs, indexSchema, unreferencedNodes } from '#src/schema/refs.ts';

// Profiles and lint
export { PROFILES, PROFILE_NAMES, UnknownProfileError, getProfile } from '#src/schema/profiles.ts';
export { ALL_PROFILES, SCHEMA_FILE_SUFFIX, keywordPointer, lintFiles, lintJsonText, lintSchema } from '#src/schema/lint.ts';
export { MANIFEST_FILE, ManifestError, loadProfileManifest, parseManifest } from '#src/schema/manifest.ts';
export { findJsonSyntaxError, lineColumn, locateJsonError } from '#src/schema/jsonError.ts';

// Ajv
export { UnsupportedDraftError, ajvKnownKeywords, compileSchema, createAjv } from '#src/schema/ajv.ts';

// Command
export { LINT_FORMATS, formatText, runLint } from '#src/schema/lintCommand.ts';

// Types: vocabularies and walker
export type { DraftId, DraftVocabulary, KeywordInfo, KeywordKind, SubschemaShape } from '#src/schema/vocabularies.ts';
export type { SchemaNode, SchemaValue, WalkOptions } from '#src/schema/walk.ts';
export type { SchemaIndex } from '#src/schema/refs.ts';

// Types: lint and profiles
export type { LintContext, LintFinding, Profile, ProfileRule, RuleHit, Severity } from '#src/schema/types.ts';
export type { FileLintResult, LintFilesOptions, LintOptions } from '#src/schema/lint.ts';
export type { ManifestEntry, ProfileManifest } from '#src/schema/manifest.ts';
export type { JsonErrorLocation } from '#src/schema/jsonError.ts';
export type { AnyAjv } from '#src/schema/ajv.ts';
export type { LintArgv, LintIo } from '#src/schema/lintCommand.ts';
