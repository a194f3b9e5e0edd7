/**
 * The profile manifest: a `profiles.json` beside schema files, saying which provider profiles each
 * schema is sent to. Schemas carry no custom keyword for this (Claude Code would reject it), so the
 * mapping lives next to them. `routecert lint` uses it when no `--profile` is given.
 *
 * Shape (see schemas/contracts/profiles.json):
 * ```json
 * { "description": "...",
 *   "schemas": { "pov.schema.json": { "profiles": ["claude-code", "qwen-code"], "note": "why" } } }
 * ```
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PROFILE_NAMES } from '#src/schema/profiles.ts';
import { describeJsonSyntaxError } from './jsonError.ts';

/** The manifest file name looked up in a schema's folder. */
export const MANIFEST_FILE = 'profiles.json';

/**
 * One manifest entry: `profiles` the schema is sent to (each must lint clean for it) and a `note`
 * saying why, and why not the others.
 */
export interface ManifestEntry {
  profiles: string[];
  note?: string;
}

/** A loaded manifest: entries by schema file name (relative to the manifest's folder). */
export interface ProfileManifest {
  file: string;
  schemas: ReadonlyMap<string, ManifestEntry>;
}

/**
 * Thrown when a manifest exists but is malformed; `code` is `ROUTECERT_BAD_MANIFEST`.
 */
export class ManifestError extends Error {
  readonly code = 'ROUTECERT_BAD_MANIFEST';
  readonly file: string;
  constructor(file: string, problem: string) {
    super(`[routecert] ${file}: ${problem}`);
    this.name = 'ManifestError';
    this.file = file;
  }
}

/**
 * Checks a parsed manifest value.
 *
 * @throws {ManifestError} when `schemas` is missing, an entry has no `profiles` array, or a
 *   profile name is unknown (the message lists the valid ones).
 */
export function parseManifest(file: string, value: unknown): ProfileManifest {
  const schemas = typeof value === 'object' && value !== null ? (value as { schemas?: unknown }).schemas : undefined;
  if (typeof schemas !== 'object' || schemas === null || Array.isArray(schemas)) {
    throw new ManifestError(file, 'expected an object with a "schemas" object');
  }
  const out = new Map<string, ManifestEntry>();
  for (const [name, entry] of Object.entries(schemas)) {
    const profiles = typeof entry === 'object' && entry !== null ? (entry as { profiles?: unknown }).profiles : undefined;
    if (!Array.isArray(profiles) || !profiles.every((p): p is string => typeof p === 'string')) {
      throw new ManifestError(file, `"schemas.${name}.profiles" must be an array of profile names`);
    }
    const unknown = profiles.filter((p) => !PROFILE_NAMES.includes(p));
    if (unknown.length > 0) {
      throw new ManifestError(file, `"schemas.${name}" names unknown profile(s) ${unknown.join(', ')}. Valid profiles: ${PROFILE_NAMES.join(', ')}`);
    }
    const note = (entry as { note?: unknown }).note;
    out.set(name, typeof note === 'string' ? { profiles, note } : { profiles });
  }
  return { file, schemas: out };
}

/**
 * Loads `profiles.json` from a folder.
 *
 * @returns the manifest, or `undefined` when the folder has none.
 * @throws {ManifestError} when the file exists but is not valid JSON or not a valid manifest.
 */
export async function loadProfileManifest(dir: string): Promise<ProfileManifest | undefined> {
  const file = join(dir, MANIFEST_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ManifestError(file, `cannot be read: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ManifestError(file, `is not valid JSON: ${describeJsonSyntaxError(text, error)}`);
  }
  return parseManifest(file, value);
}
