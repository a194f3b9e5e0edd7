/**
 * Loading the corpus: every `*.json` case under a folder, validated against schemas/case.schema.json.
 * A bad file never stops the others: it becomes a {@link CaseLoadError} naming the file and the
 * JSON Pointer (schema problems) or the line and column (JSON syntax).
 */
import { readFile, readdir, stat } from 'node:fs/promises';
import { constants as bufferConstants } from 'node:buffer';
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

/** Default largest case file `routecert run` loads: 256 MiB (`run --max-case-mb <MiB>` raises it). */
export const DEFAULT_MAX_CASE_BYTES = 256 * 2 ** 20;

/**
 * The longest string this Node can build (`buffer.constants.MAX_STRING_LENGTH`, 2^29 - 24 code
 * units on 64-bit V8): a case file longer than that cannot be read as text at all.
 */
export const MAX_READABLE_CASE_BYTES = bufferConstants.MAX_STRING_LENGTH;

/** Options of {@link loadCaseFile} and {@link loadCorpus}. */
export interface LoadCaseOptions {
  /** Largest case file to load, in bytes; a larger one is a {@link CaseLoadError} naming the limit. @default {@link DEFAULT_MAX_CASE_BYTES} */
  maxBytes?: number;
}

const MIB = 2 ** 20;
const mib = (bytes: number): string => (bytes < MIB ? `${Math.ceil(bytes / 1024)} KiB` : `${(bytes / MIB).toFixed(bytes < 10 * MIB ? 1 : 0)} MiB`);

/**
 * Parse and validate one case file. Returns the case or the errors; never throws.
 *
 * Memory (issue 15): the file is refused before it is read when it is larger than `maxBytes`
 * (the error names the limit and `--max-case-mb`, the option that raises it) or than the longest
 * string Node can hold; the file's text is dropped as soon as it is parsed, so validating and
 * hashing (a piecewise hash, see {@link caseId}) hold only the parsed case, never a second copy.
 */
export async function loadCaseFile(file: string, displayName = file, options: LoadCaseOptions = {}): Promise<{ loaded?: LoadedCase; errors: CaseLoadError[] }> {
  const parsed = await readCaseJson(file, displayName, options.maxBytes ?? DEFAULT_MAX_CASE_BYTES);
  if ('error' in parsed) return { errors: [parsed.error] };
  const value = parsed.value;
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
  if (c.id !== expectedId) warnings.push(`id ${c.id} does not match its content (expected ${expectedId}); re-save it with \`routecert record --fix-ids --out <its cases folder>\``);
  return { loaded: { file: displayName, case: c, warnings }, errors: [] };
}

/** The parsed JSON of a case file, or the error; the text lives only inside this call. */
async function readCaseJson(file: string, displayName: string, maxBytes: number): Promise<{ value: unknown } | { error: CaseLoadError }> {
  const refuse = (message: string) => ({ error: { file: displayName, where: '', message } });
  let bytes: number;
  try {
    bytes = (await stat(file)).size;
  } catch (error) {
    return refuse(`cannot read: ${(error as Error).message}`);
  }
  if (bytes > MAX_READABLE_CASE_BYTES) {
    return refuse(
      `case file is ${mib(bytes)}, over ${mib(MAX_READABLE_CASE_BYTES)}, the longest string Node can hold, so it cannot be replayed whole ` +
        `(the --max-case-mb limit, ${mib(maxBytes)} here, goes no higher)`,
    );
  }
  if (bytes > maxBytes) {
    return refuse(`case file is ${mib(bytes)}, over the ${mib(maxBytes)} limit; raise it with --max-case-mb ${Math.ceil(bytes / MIB)} (default ${mib(DEFAULT_MAX_CASE_BYTES)})`);
  }
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return refuse(`cannot read: ${(error as Error).message}`);
  }
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { error: { file: displayName, where: jsonErrorWhere(text, error as Error), message: `not valid JSON: ${(error as Error).message}` } };
  }
}

/**
 * Load every case under `dir` (recursively).
 *
 * @returns the cases that loaded and one error per problem of the others, each naming its file.
 */
export async function loadCorpus(dir: string, options: LoadCaseOptions = {}): Promise<{ cases: LoadedCase[]; errors: CaseLoadError[] }> {
  const cases: LoadedCase[] = [];
  const errors: CaseLoadError[] = [];
  for (const file of await listCaseFiles(dir)) {
    const result = await loadCaseFile(file, path.relative(process.cwd(), file) || file, options);
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
