/**
 * The ajv factory: one Ajv instance per draft, with ajv-formats, and `compileSchema` which picks the
 * class from the schema's `$schema` (draft-07 when absent).
 *
 * - draft-06: `Ajv` (the draft-07 class) plus the draft-06 meta-schema ajv ships;
 * - draft-07: `Ajv`;
 * - 2019-09: `Ajv2019`;
 * - 2020-12: `Ajv2020` (cannot be mixed with earlier drafts in one instance);
 * - draft-04: needs the separate `ajv-draft-04` package, which is not a dependency, so it throws
 *   {@link UnsupportedDraftError}.
 *
 * @see https://ajv.js.org/json-schema.html
 * @see research/schema-vocabularies.md §7.1 (project research notes)
 */
import { createRequire } from 'node:module';
import { Ajv, type AnySchema, type AnySchemaObject, type Options, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { DEFAULT_DRAFT, DRAFTS, draftFromSchemaUri, type DraftId } from '#src/schema/vocabularies.ts';

const require = createRequire(import.meta.url);

/** Any of the Ajv classes (they share the core API). */
export type AnyAjv = Ajv | Ajv2019 | Ajv2020;

/**
 * Thrown for a draft no installed Ajv class validates (draft-04 without `ajv-draft-04`).
 * `code` is `ROUTECERT_DRAFT_UNSUPPORTED`.
 */
export class UnsupportedDraftError extends Error {
  readonly code = 'ROUTECERT_DRAFT_UNSUPPORTED';
  readonly draft: string;
  constructor(draft: string) {
    super(
      `[routecert] no Ajv class for ${draft}: draft-04 needs the ajv-draft-04 package, which routecert does not install. ` +
        `Declare one of ${DRAFTS.filter((d) => d !== 'draft-04').join(', ')} in "$schema" instead.`,
    );
    this.name = 'UnsupportedDraftError';
    this.draft = draft;
  }
}

/** ajv-formats is CommonJS: `require` returns the plugin function itself. */
const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;

/**
 * A fresh Ajv instance for `draft`, with ajv-formats added. `options` go to the Ajv constructor
 * unchanged (Ajv's defaults: strict mode on, `strictTypes: "log"`).
 *
 * @throws {UnsupportedDraftError} for `draft-04`.
 * @example
 * const ajv = createAjv('2020-12');
 * ajv.compile({ type: 'array', prefixItems: [{ type: 'string' }] });
 */
export function createAjv(draft: DraftId, options: Options = {}): AnyAjv {
  let ajv: AnyAjv;
  switch (draft) {
    case 'draft-04':
      throw new UnsupportedDraftError(draft);
    case 'draft-06': {
      ajv = new Ajv(options);
      ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json') as AnySchemaObject);
      break;
    }
    case 'draft-07':
      ajv = new Ajv(options);
      break;
    case '2019-09':
      ajv = new Ajv2019(options);
      break;
    case '2020-12':
      ajv = new Ajv2020(options);
      break;
    default:
      throw new RangeError(`[routecert] unknown draft "${String(draft)}"; valid: ${DRAFTS.join(', ')}`);
  }
  addFormats(ajv);
  return ajv;
}

/**
 * Compiles a schema with a fresh instance of the Ajv class its `$schema` names (draft-07 when it
 * names none or an unrecognised URI, as Ajv's default class would).
 *
 * @throws {UnsupportedDraftError} when `$schema` names draft-04.
 * @throws {Error} Ajv's own error when the schema is invalid or breaks strict mode
 *   (e.g. `strict mode: unknown keyword: "_meta"`).
 * @example
 * const validate = compileSchema({ type: 'object', required: ['a'] });
 * validate({ a: 1 }); // true
 */
export function compileSchema(schema: unknown, options: Options = {}): ValidateFunction {
  const uri = typeof schema === 'object' && schema !== null ? (schema as { $schema?: unknown }).$schema : undefined;
  const draft = draftFromSchemaUri(uri) ?? DEFAULT_DRAFT;
  return createAjv(draft, options).compile(schema as AnySchema);
}

const knownCache = new Map<DraftId, ReadonlySet<string>>();

/**
 * The keywords an Ajv class knows in strict mode (its `RULES.keywords`), minus `id`, which Ajv
 * refuses with `NOT SUPPORTED: keyword "id", use "$id" for schema ID`. This is the oracle for
 * "unknown keyword" in the profiles of CLIs that validate with Ajv (Claude Code, Qwen Code).
 *
 * @throws {UnsupportedDraftError} for `draft-04`.
 */
export function ajvKnownKeywords(draft: DraftId): ReadonlySet<string> {
  let known = knownCache.get(draft);
  if (known === undefined) {
    const keywords = new Set(Object.keys(createAjv(draft).RULES.keywords));
    keywords.delete('id');
    known = keywords;
    knownCache.set(draft, known);
  }
  return known;
}
