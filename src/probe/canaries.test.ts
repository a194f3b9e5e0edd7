import { describe, expect, it } from 'vitest';
import { compileValidator } from '#src/contract/validator.ts';
import { CANARY_BASELINE, CANARY_GROUPS, CANARY_PAYLOAD, canaryById, canarySchemas } from '#src/probe/canaries.ts';
import { lintSchema } from '#src/schema/lint.ts';
import { PROFILE_NAMES } from '#src/schema/profiles.ts';
import { pushAll } from '#src/arrays.ts';

/** The pointer of every member of a schema's root and of each of its properties, sorted. */
function keywords(schema: Record<string, unknown>): string[] {
  const out = Object.keys(schema).map((k) => `/${k}`);
  for (const [name, sub] of Object.entries(schema.properties as Record<string, Record<string, unknown>>)) {
    pushAll(out, Object.keys(sub).map((k) => `/properties/${name}/${k}`));
  }
  return out.sort();
}

/** Deadline of a test that compiles many schemas (Ajv plus formats per schema; the machine may be busy). */
const SLOW_MS = 60_000;

describe('canaries', () => {
  it('the baseline lints clean for every profile of a schema flag, so any rejection of a canary is its keyword', () => {
    // Gemini's legacy responseSchema refuses the additionalProperties that OpenAI strict requires, so
    // no schema is clean for both; no CLI's schema flag sends a responseSchema.
    const profiles = PROFILE_NAMES.filter((name) => name !== 'gemini-response-schema');
    expect(lintSchema(CANARY_BASELINE, { profiles })).toEqual([]);
    expect(lintSchema(CANARY_BASELINE, { profiles: ['gemini-response-schema'] }).map((f) => f.rule)).toEqual(['unknown-field']);
  });

  it('each canary is the baseline plus exactly its one keyword, at its pointer', () => {
    const base = keywords(CANARY_BASELINE as Record<string, unknown>);
    for (const c of canarySchemas().filter((x) => x.group !== 'baseline')) {
      const added = keywords(c.schema).filter((k) => !base.includes(k));
      expect(added, c.id).toEqual([`${c.pointer}/${c.keyword}`]);
    }
  });

  it('covers x-meta and _meta at the root and nested, and the standard annotations, in separate groups', () => {
    const ids = (group: string) => canarySchemas().filter((c) => c.group === group).map((c) => c.id);
    expect(ids('custom-keyword')).toEqual(['x-meta@root', 'x-meta@/properties/answer', '_meta@root', '_meta@/properties/answer']);
    expect(canarySchemas().filter((c) => c.group === 'standard-annotation').map((c) => c.keyword)).toEqual([
      '$comment', '$comment', 'default', 'examples', 'minLength', 'maxLength', 'pattern', 'minimum', 'maximum', 'multipleOf',
    ]);
    expect(ids('draft-keyword')).toEqual([
      'prefixItems@/properties/tags', 'dependentRequired@root', '$anchor@/properties/answer', 'if@root', '$schema=2020-12@root', '$schema=draft-07@root',
    ]);
    expect(new Set(canarySchemas().map((c) => c.group))).toEqual(new Set(CANARY_GROUPS));
  });

  it('the payload is valid for every canary, so an accepted canary needs one model request', () => {
    for (const c of canarySchemas()) expect(compileValidator(c.schema)({ ...CANARY_PAYLOAD }), c.id).toEqual([]);
  }, SLOW_MS);

  it('hands out fresh schemas: changing one does not change the next call', () => {
    const first = canaryById('_meta@root')!;
    (first.schema.properties as Record<string, unknown>).answer = 'changed';
    expect((canaryById('_meta@root')!.schema.properties as Record<string, unknown>).answer).toEqual({ type: 'string', description: 'The answer in a few words.' });
    expect(canaryById('nope')).toBeUndefined();
  });
});
