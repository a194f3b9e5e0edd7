/**
 * Loading the corpus: every `*.json` case under a folder, validated against schemas/case.schema.json.
 * A bad file never stops the others: it becomes a {@link CaseLoadError} naming the file and the
 * JSON Pointer (schema problems) or the line and column (JSON syntax).
 */
import { readFile, readdir, realpath, stat } from 'node:fs/promises';
import { readFileSync, type Dirent } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { constants as bufferConstants } from 'node:buffer';
import path from 'node:path';
import { compileValidator } from '#src/contract/validator.ts';
import { caseId } from './caseId.ts';
import { firstDuplicateKey } from './duplicateKeys.ts';
import type { CaseFile } from '#src/envelope/caseTypes.ts';
import { isPlainObject } from '#src/envelope/keys.ts';
import { projectPath } from '#src/paths.ts';
import { pushAll } from '#src/arrays.ts';
import { releaseMemory } from '#src/memory.ts';
import { jsonSyntaxReason, locateJsonError } from '#src/schema/jsonError.ts';

/** A case read from disk, with its path relative to the project. */
export interface LoadedCase {
  file: string;
  case: CaseFile;
  /** Problems that do not stop the case from running (e.g. an id that no longer matches its content). */
  warnings: string[];
  /**
   * Set when the case file had {@link LoadCaseOptions.releaseAbove} bytes or more: it was read, checked
   * and its id computed, then its attempts were let go (`case.attempts` is empty) so that large cases
   * never sit in memory side by side; {@link withAttempts} reads them again when the case is judged.
   */
  released?: { path: string; bytes: number; stamp: string };
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

/** A file or folder discovery passed over on purpose (a loop, a second link to one folder, a named pipe), with why. */
export interface SkippedEntry {
  file: string;
  message: string;
}

/**
 * Walk `dir` for case files (issue 23 point 4), totally and honestly:
 * - every folder is visited once, by its real path: a symlinked folder reached twice (`ln -s . dot`,
 *   two links to one folder, a loop) is named in `skipped` the second time;
 * - a `*.json` that is not a regular file (a named pipe, a socket, a device) is named in `skipped`
 *   and never opened; a file reached twice through links is read once;
 * - an entry that cannot be read (a folder without permission, a dangling link) is an error: it
 *   becomes a run fault, so a folder is never dropped silently.
 * Iterative; `files` sorted. A missing `dir` gives nothing.
 */
export async function discoverCaseFiles(dir: string): Promise<{ files: string[]; errors: CaseLoadError[]; skipped: SkippedEntry[] }> {
  const files: string[] = [];
  const errors: CaseLoadError[] = [];
  const skipped: SkippedEntry[] = [];
  const shown = (p: string): string => path.relative(process.cwd(), p) || p;
  let rootReal: string;
  try {
    rootReal = await realpath(dir);
  } catch {
    return { files, errors, skipped };
  }
  const seenDirs = new Map<string, string>([[rootReal, dir]]);
  const seenFiles = new Map<string, string>();
  const queue: string[] = [dir];
  while (queue.length > 0) {
    const folder = queue.shift()!;
    let entries: Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch (error) {
      errors.push({ file: shown(folder), where: '', message: `cannot read this folder, so its cases cannot be judged: ${(error as Error).message}` });
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = path.join(folder, entry.name);
      let kind: 'dir' | 'file' | 'other' = entry.isDirectory() ? 'dir' : entry.isFile() ? 'file' : 'other';
      let real = full;
      if (entry.isSymbolicLink()) {
        try {
          const target = await stat(full);
          real = await realpath(full);
          kind = target.isDirectory() ? 'dir' : target.isFile() ? 'file' : 'other';
        } catch (error) {
          if (entry.name.endsWith('.json') || (error as NodeJS.ErrnoException).code !== 'ENOENT') {
            errors.push({ file: shown(full), where: '', message: `a link that cannot be followed: ${(error as Error).message}` });
          } else skipped.push({ file: shown(full), message: 'a dangling link (skipped)' });
          continue;
        }
      } else if (kind === 'dir') {
        try {
          real = await realpath(full);
        } catch (error) {
          errors.push({ file: shown(full), where: '', message: `cannot read this folder: ${(error as Error).message}` });
          continue;
        }
      }
      if (kind === 'dir') {
        const first = seenDirs.get(real);
        if (first !== undefined) {
          const loop = real === rootReal || rootReal.startsWith(`${real}${path.sep}`) || full.startsWith(`${first}${path.sep}`);
          skipped.push({ file: shown(full), message: `${loop ? 'a link back into a folder it is in (a loop)' : 'the same folder as'} ${shown(first)}: visited once, skipped here` });
          continue;
        }
        seenDirs.set(real, full);
        queue.push(full);
        continue;
      }
      if (!entry.name.endsWith('.json')) continue;
      if (kind === 'other') {
        skipped.push({ file: shown(full), message: 'not a regular file (a named pipe, socket or device): never opened, skipped' });
        continue;
      }
      const first = seenFiles.get(real);
      if (first !== undefined) {
        skipped.push({ file: shown(full), message: `the same file as ${shown(first)} (a link): read once, skipped here` });
        continue;
      }
      seenFiles.set(real, full);
      files.push(full);
    }
  }
  files.sort();
  return { files, errors, skipped };
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
  /**
   * {@link loadCorpus} only: a case file of this many bytes or more keeps its metadata but lets go of its
   * attempts once checked ({@link LoadedCase.released}); {@link withAttempts} reads them again. Off
   * by default (every case whole); `routecert run` uses {@link RELEASE_CASE_BYTES}.
   */
  releaseAbove?: number;
}

/**
 * `routecert run` holds case files of this size (16 MiB) or more one at a time (issue 23: three
 * 200 MiB cases loaded side by side peaked at 3.4 GB): listed and checked up front like every case,
 * their attempts let go ({@link LoadCaseOptions.releaseAbove}) and read again when judged.
 */
export const RELEASE_CASE_BYTES = 16 * 2 ** 20;

/**
 * A case file of this size (1 MiB) or more has its text collected as soon as it is parsed, and its
 * parsed attempts once they are let go (src/memory.ts): each is as large as the envelope it holds,
 * and left to V8's schedule they were still resident when the decoder parsed the envelope (issue
 * 24: 6x the envelope). No bundled case comes near this size: ordinary corpora never pay for it.
 */
const COLLECT_CASE_BYTES = 2 ** 20;

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
  // The file's text is garbage now: let it go before anything else is built.
  if (parsed.bytes >= COLLECT_CASE_BYTES) releaseMemory();
  const value = parsed.value;
  const problems = (await caseValidator())(value);
  if (problems.length > 0) {
    return {
      errors: problems.map((p) => {
        const space = p.indexOf(' ');
        const problem = p.slice(space + 1);
        // A hand-written case has no id yet: it is computed from the content, by the command named here.
        const next = problem === "must have required property 'id'" ? ' (the id is the content hash: `routecert record --fix-ids --out <its cases folder>` writes it)' : '';
        return { file: displayName, where: p.slice(0, space), message: `does not match schemas/case.schema.json: ${problem}${next}` };
      }),
    };
  }
  const c = value as CaseFile;
  const warnings: string[] = [];
  const expectedId = caseId(c);
  if (c.id !== expectedId) warnings.push(`id ${c.id} does not match its content (expected ${expectedId}); re-save it with \`npx routecert record --fix-ids\` (the config's cases folder; another folder: \`--out <its cases folder>\`)`);
  const loaded: LoadedCase = { file: displayName, case: c, warnings };
  if (options.releaseAbove !== undefined && parsed.bytes >= options.releaseAbove) {
    c.attempts = [];
    loaded.released = { path: file, bytes: parsed.bytes, stamp: parsed.stamp };
    releaseMemory();
  }
  return { loaded, errors: [] };
}

/**
 * `loaded` with its attempts: itself, or for a {@link LoadedCase.released} case the file read again
 * (with the same checks; a file that no longer loads, or whose case changed since it was listed,
 * gives the errors). The caller holds the attempts only while it judges the case.
 */
export async function withAttempts(loaded: LoadedCase, options: Pick<LoadCaseOptions, 'maxBytes'> = {}): Promise<{ loaded?: LoadedCase; errors: CaseLoadError[] }> {
  if (!loaded.released) return { loaded, errors: [] };
  const { path: file, bytes, stamp } = loaded.released;
  const maxBytes = Math.max(options.maxBytes ?? DEFAULT_MAX_CASE_BYTES, bytes);
  const parsed = await readCaseJson(file, loaded.file, maxBytes);
  if ('error' in parsed) return { errors: [parsed.error] };
  const attempts = parsed.stamp === stamp && isPlainObject(parsed.value) ? parsed.value.attempts : undefined;
  if (Array.isArray(attempts)) {
    // The same file (inode, size, modification time) as when it was checked: only its attempts are new.
    releaseMemory();
    return { loaded: { file: loaded.file, case: { ...loaded.case, attempts: attempts as CaseFile['attempts'] }, warnings: loaded.warnings }, errors: [] };
  }
  return { errors: [{ file: loaded.file, where: '', message: 'the case file changed while routecert ran (it is not the file checked at the start): run again' }] };
}

/**
 * The parsed JSON of a case file and its size, or the error. The file's bytes are let go once they
 * are text, before the text is parsed, and the text once it is parsed (issue 24: bytes, text and
 * parsed case side by side peaked at 6x the envelope).
 */
async function readCaseJson(file: string, displayName: string, maxBytes: number): Promise<{ value: unknown; bytes: number; stamp: string } | { error: CaseLoadError }> {
  const refuse = (message: string) => ({ error: { file: displayName, where: '', message } });
  let bytes: number;
  let stamp: string;
  try {
    const info = await stat(file);
    // A named pipe called x.json would block the read for ever; a device never ends.
    if (!info.isFile()) return refuse('not a regular file (a named pipe, socket, device or folder): not read');
    bytes = info.size;
    stamp = `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}`;
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
  let text: string | CaseLoadError;
  try {
    text = await readCaseText(file, displayName);
  } catch (error) {
    return refuse(`cannot read: ${(error as Error).message}`);
  }
  if (typeof text !== 'string') return { error: text };
  const parsed = parseCaseText(text, displayName);
  return 'error' in parsed ? parsed : { value: parsed.value, bytes, stamp };
}

/**
 * The parsed JSON of a case file's text, or why it is refused: not JSON (with its line and
 * column), or a member name twice in one object (issue 23: `JSON.parse` keeps the last one without
 * a word, so a reviewer could read one `expect` and routecert judge another). Strings, envelopes
 * held as text included, are not looked into. Every reader of case files (`run`, `fuzz`, `record
 * --fix-ids`) goes through here. Never throws.
 */
export function parseCaseText(text: string, displayName: string): { value: unknown } | { error: CaseLoadError } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const where = locateJsonError(text);
    return { error: { file: displayName, where: where === undefined ? '' : `line ${where.line}, column ${where.column}`, message: `not valid JSON: ${jsonSyntaxReason(error)}` } };
  }
  const twice = firstDuplicateKey(text);
  if (twice) {
    const object = twice.pointer === '' ? 'the root object (JSON Pointer "")' : `the object at JSON Pointer ${JSON.stringify(twice.pointer)}`;
    return {
      error: {
        file: displayName,
        where: `line ${twice.line}, column ${twice.column}`,
        message: `key ${JSON.stringify(twice.key)} appears twice in ${object}; JSON keeps only the last one, so the case would be judged on a value a reader may not see: remove one`,
      },
    };
  }
  return { value };
}

/**
 * The text of a case file, or why it has none (a byte order mark, invalid UTF-8). Read straight to
 * text (Node's UTF-8 file reader frees the bytes as soon as the text is made), so the bytes never
 * wait for a collection beside the text. The reader replaces invalid bytes with U+FFFD: only a text
 * holding U+FFFD (in the file, or standing for invalid bytes) has its bytes read again to tell.
 */
export async function readCaseText(file: string, displayName: string): Promise<string | CaseLoadError> {
  const text = readFileSync(file, 'utf8');
  if (text.charCodeAt(0) === 0xfeff) {
    return { file: displayName, where: 'byte 0', message: 'starts with a UTF-8 byte order mark (bytes 0-2, EF BB BF); JSON text has none (RFC 8259 section 8.1): save the file without it' };
  }
  if (!text.includes('\uFFFD')) return text;
  const raw = await readFile(file);
  if (!isUtf8(raw)) {
    const at = firstInvalidUtf8(raw);
    return { file: displayName, where: `byte ${at}`, message: `not valid UTF-8 at byte offset ${at} (0x${raw[at]!.toString(16).padStart(2, '0')}); a case file is UTF-8 (RFC 8259 section 8.1)` };
  }
  return text;
}

/**
 * The byte offset of the first byte that is not part of a well-formed UTF-8 sequence (RFC 3629:
 * no overlong forms, no surrogates, nothing above U+10FFFF); `buffer.length` when there is none.
 */
export function firstInvalidUtf8(buffer: Uint8Array): number {
  let i = 0;
  while (i < buffer.length) {
    const b = buffer[i]!;
    if (b < 0x80) {
      i += 1;
      continue;
    }
    const need = b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (need < 0) return i;
    const lo = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
    const hi = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
    for (let k = 1; k <= need; k += 1) {
      const c = buffer[i + k];
      if (c === undefined) return i;
      if (k === 1 ? c < lo || c > hi : c < 0x80 || c > 0xbf) return i;
    }
    i += need + 1;
  }
  return buffer.length;
}

/**
 * Load every case under `dir` (recursively, see {@link discoverCaseFiles}).
 *
 * @returns the cases that loaded; one error per problem of the others, each naming its file (an
 *   unreadable folder, a file that does not load, an id that another file already has: both files
 *   named, the second not run); and `skipped`, what was passed over on purpose, each with why.
 */
export async function loadCorpus(dir: string, options: LoadCaseOptions = {}): Promise<{ cases: LoadedCase[]; errors: CaseLoadError[]; skipped: SkippedEntry[] }> {
  const cases: LoadedCase[] = [];
  const found = await discoverCaseFiles(dir);
  const errors: CaseLoadError[] = [...found.errors];
  const byId = new Map<string, string>();
  for (const file of found.files) {
    const result = await loadCaseFile(file, path.relative(process.cwd(), file) || file, options);
    pushAll(errors, result.errors);
    if (!result.loaded) continue;
    const first = byId.get(result.loaded.case.id);
    if (first !== undefined) {
      // Two files with one id would be merged by id in a diff and hide a regression: an error.
      errors.push({ file: result.loaded.file, where: '/id', message: `id ${result.loaded.case.id} is also the id of ${first}: every case needs an id of its own (a copied case? \`routecert record --fix-ids\` recomputes ids); this one is not run` });
      continue;
    }
    byId.set(result.loaded.case.id, result.loaded.file);
    cases.push(result.loaded);
  }
  return { cases, errors, skipped: found.skipped };
}

