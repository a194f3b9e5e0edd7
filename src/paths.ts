/**
 * Paths of the project's own folders (schemas/, fixtures/, probes/), resolved from this file, so the
 * command works from any working directory of a checkout.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root (the folder with package.json). */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** A path inside the project. */
export function projectPath(...parts: string[]): string {
  return path.join(PROJECT_ROOT, ...parts);
}

/** routecert's version (package.json `version`), as `routecert --version` prints it. */
export const PACKAGE_VERSION: string = (createRequire(import.meta.url)('../package.json') as { version: string }).version;
