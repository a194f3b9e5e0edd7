/**
 * Loading the corpus: every `*.json` case under a folder, validated against schemas/case.schema.json.
 * A bad file never stops the others: it becomes a {@link CaseLoadError} naming the file and the
 * JSON Pointer (schema problems) or the line and column (JSON syntax).
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { compileValidator } from '#src/contract/validator.ts';
import { caseId } from './caseId.ts';
import type { CaseFile } from './caseTypes.ts';
import { projectPath } from '#src/paths.ts';
import { pushAll } from '#src/arrays.ts';

/** A case read from disk, with its path relative to the project. */
export interface LoadedCase {
  file: string;
  case: CaseFile;
  /** Problems that do not stop the case from running (e.g. an id that no longer matches its content). */
  warnings: string[];
}

/** A case file that could not be used; `where` is `line L, column C` or a JSON Pointer. */
export interface CaseLoadError {
  file: string;
  where: string;
  message: string;
}

let validateCase: ((value: unknown) => string[]) | undefined;

async function caseValidator(): Promise<(value: unknown) => string[]> {
  if (!validateCase) {
    const schema = JSON.parse(await readFile(projectPath('schemas/case.schema.json'), 'utf8')) as Record<string, unknown>;
    validateCase = compileValidator(schema);
  }
  return validateCase;
}

/** Every `*.json` file under `dir`, sorted, relative paths joined to `dir`. Missing dir: `[]`. */
export async function listCaseFiles(dir: string): Promise<string[]> {
  let entries: string[];
  try {
    entries = await readdir(dir, { recursive: true });
  } catch {
    return [];
  }
  return entries.filter((e) => e.endsWith('.json')).sort().map((e) => path.join(dir, e));
}

/**
 * Parse and validate one case file. Returns the case or the errors; never throws.
 */
export async function loadCaseFile(file: string, displayName = file): Promise<{ loaded?: LoadedCase; errors: CaseLoadError[] }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return { errors: [{ file: displayName, where: '', message: `cannot read: ${(error as Error).message}` }] };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { errors: [{ file: displayName, where: jsonErrorWhere(text, error as Error), message: `not valid JSON: ${(error as Error).message}` }] };
  }
  const problems = (await caseValidator())(value);
  if (problems.length > 0) {
    return {
      errors: problems.map((p) => {
        const space = p.indexOf(' ');
        return { file: displayName, where: p.slice(0, space), message: `does not match schemas/case.schema.json: ${p.slice(space + 1)}` };
      }),
    };
  }
  const c = value as CaseFile;
  const warnings: string[] = [];
  const expectedId = caseId(c);
  if (c.id !== expectedId) warnings.push(`id ${c.id} does not match its content (expected ${expectedId}); re-save the case with \`routecert record --fix-ids\``);
  return { loaded: { file: displayName, case: c, warnings }, errors: [] };
}

/**
 * Load every case under `dir` (recursively).
 *
 * @returns the cases that loaded and one error per problem of the others, each naming its file.
 */
export async function loadCorpus(dir: string): Promise<{ cases: LoadedCase[]; errors: CaseLoadError[] }> {
  const cases: LoadedCase[] = [];
  const errors: CaseLoadError[] = [];
  for (const file of await listCaseFiles(dir)) {
    const result = await loadCaseFile(file, path.relative(process.cwd(), file) || file);
    if (result.loaded) cases.push(result.loaded);
    pushAll(errors, result.errors);
  }
  return { cases, errors };
}

/** `line L, column C` (1-based) of a JSON.parse error, from its `position N` when Node gives one. */
export function jsonErrorWhere(text: string, error: Error): string {
  const match = /position (\d+)/.exec(error.message);
  if (!match) {
    const lc = /line (\d+) column (\d+)/.exec(error.message);
    return lc ? `line ${lc[1]}, column ${lc[2]}` : '';
  }
  const pos = Number(match[1]);
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  const column = pos - before.lastIndexOf('\n');
  return `line ${line}, column ${column}`;
}
