/**
 * Conformance: every bundled production schema (schemas/contracts/*.schema.json) compiles with Ajv
 * for its declared draft without strict-mode complaints, and lints clean (no finding at all) for
 * every profile schemas/contracts/profiles.json says it is sent to.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createAjv } from '#src/schema/ajv.ts';
import { lintFiles, lintSchema } from '#src/schema/lint.ts';
import { loadProfileManifest } from '#src/schema/manifest.ts';
import { PROFILE_NAMES } from '#src/schema/profiles.ts';
import { DEFAULT_DRAFT, draftFromSchemaUri } from '#src/schema/vocabularies.ts';

const DIR = fileURLToPath(new URL('../schemas/contracts/', import.meta.url));
const files = (await readdir(DIR)).filter((name) => name.endsWith('.schema.json')).sort();
const manifest = await loadProfileManifest(DIR);
const schemas = new Map<string, Record<string, unknown>>();
for (const name of files) schemas.set(name, JSON.parse(await readFile(join(DIR, name), 'utf8')) as Record<string, unknown>);

/** One valid instance per bundled schema (the schemas must not be unsatisfiable). */
const VALID: Record<string, unknown> = {
  'pov.schema.json': {
    voice: 'peer',
    position: 'Choose A',
    reasoning: 'Because.',
    evidence: ['src/a.ts:1'],
    external_check: 'ran',
    mode: 'independent',
    movement: 'initial',
    final: true,
  },
  'pov.openai-strict.schema.json': {
    voice: 'peer',
    position: 'Choose A',
    reasoning: 'Because.',
    evidence: ['src/a.ts:1'],
    external_check: 'ran',
    mode: 'independent',
    movement: 'initial',
    final: true,
  },
  'code-review-findings.schema.json': {
    reviewer: 'adversarial-claude',
    findings: [
      {
        title: 'Off by one',
        severity: 'P1',
        file: 'src/a.ts',
        line: 3,
        why_it_matters: 'Drops the last item.',
        autofix_class: 'manual',
        owner: 'human',
        requires_verification: true,
        confidence: 75,
        evidence: ['src/a.ts:3'],
        pre_existing: false,
        suggested_fix: null,
      },
    ],
    residual_risks: [],
    testing_gaps: [],
  },
  'doc-review-findings.schema.json': {
    reviewer: 'coherence-codex',
    findings: [],
    residual_risks: [],
    deferred_questions: ['Who owns the rollout?'],
  },
  'implementation-result.schema.json': {
    terminal_status: 'scope_expansion',
    summary: 'Needs the config loader.',
    changed_files: ['src/a.ts'],
    evidence: ['npm test: 12 passed'],
    scope_expansion: { requested_paths: ['src/config.ts'], reason: 'The loader owns the default.' },
  },
  'event.schema.json': { kind: 'finding', text: 'The cache is never invalidated.', ref: 'src/cache.ts:40' },
  'role-output.schema.json': {
    role: 'implementer',
    status: 'done',
    summary: 'Added the retry window.',
    artifacts: [{ path: 'src/policy/retry.ts', note: null }],
    question: null,
  },
};

describe('bundled schemas: manifest', () => {
  it('exists and lists exactly the *.schema.json files of the folder', () => {
    expect(manifest).toBeDefined();
    expect([...(manifest?.schemas.keys() ?? [])].sort()).toEqual(files);
    expect(files).toEqual(
      ['code-review-findings', 'doc-review-findings', 'event', 'implementation-result', 'pov', 'pov.openai-strict', 'role-output'].map((n) => `${n}.schema.json`).sort(),
    );
  });

  it('gives every schema at least one known profile and a note', () => {
    for (const [name, entry] of manifest?.schemas ?? []) {
      expect(entry.profiles.length, name).toBeGreaterThan(0);
      for (const profile of entry.profiles) expect(PROFILE_NAMES).toContain(profile);
      expect(entry.note?.length ?? 0, name).toBeGreaterThan(20);
    }
  });

  it('maps pov.schema.json only to profiles it satisfies: not codex or openai-strict (optional receipt properties)', () => {
    expect(manifest?.schemas.get('pov.schema.json')?.profiles).toEqual(['claude-code', 'qwen-code']);
    const pov = schemas.get('pov.schema.json');
    for (const profile of ['codex', 'openai-strict']) {
      expect(lintSchema(pov, { profiles: [profile] }).map((f) => f.rule)).toContain('required-all');
    }
  });
});

describe.each(files)('bundled schema %s', (name) => {
  const schema = schemas.get(name) as Record<string, unknown>;
  const draft = draftFromSchemaUri(schema.$schema) ?? DEFAULT_DRAFT;

  it('uses no custom keyword to carry its profiles', () => {
    expect(JSON.stringify(schema)).not.toMatch(/"x-routecert|"_meta"|"x-meta"/);
  });

  it('compiles with Ajv for its declared draft, with no strict-mode warning', () => {
    const warnings: unknown[] = [];
    const logger = { log: () => {}, warn: (...args: unknown[]) => warnings.push(args), error: (...args: unknown[]) => warnings.push(args) };
    const validate = createAjv(draft, { logger, allErrors: true }).compile(schema);
    expect(warnings).toEqual([]);
    expect(validate(VALID[name]), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ $schema: 'http://json-schema.org/draft-07/schema#' })).toBe(false);
  });

  it('lints clean for every profile in the manifest', async () => {
    const [result] = await lintFiles([join(DIR, name)]);
    expect(result?.profiles).toEqual(manifest?.schemas.get(name)?.profiles);
    expect(result?.findings).toEqual([]);
  });
});

it('declares the drafts the brief asks for', () => {
  const declared = Object.fromEntries([...schemas].map(([name, schema]) => [name, draftFromSchemaUri(schema.$schema)]));
  expect(declared).toEqual({
    'code-review-findings.schema.json': 'draft-07',
    'doc-review-findings.schema.json': 'draft-07',
    'event.schema.json': 'draft-07',
    'implementation-result.schema.json': '2020-12',
    'pov.schema.json': 'draft-07',
    'pov.openai-strict.schema.json': 'draft-07',
    'role-output.schema.json': 'draft-07',
  });
  expect(schemas.get('implementation-result.schema.json')?.$id).toBeTypeOf('string');
});
