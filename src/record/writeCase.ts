/**
 * Writing a case file safely beside other runs (issue 23 point 5): the text goes to a temp file of
 * its own (created exclusively, `wx`) in the target folder, then takes the case's name in one step:
 * a hard link, which fails when the name exists (so two concurrent recordings of the same case
 * never both claim it), or, with `force`, a rename (which replaces a file or a symlink itself,
 * never what a symlink points at). The target must lie inside `root` (the `--out` folder) by its
 * real path, and no folder on the way may be a symlink that leads outside it.
 */
import { randomBytes } from 'node:crypto';
import { link, lstat, mkdir, open, realpath, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/** Raised when a case file would be written outside its root, or through a symlink. */
export class UnsafeCasePathError extends Error {
  readonly code = 'ROUTECERT_UNSAFE_CASE_PATH';
  constructor(message: string) {
    super(`[routecert] ${message}`);
    this.name = 'UnsafeCasePathError';
  }
}

function inside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Write `text` to `file` (inside `root`) without ever overwriting what another writer put there
 * (unless `force`), without following a symlink, and without a half-written file under the name.
 *
 * @returns `written` when the file now holds `text`; `exists` when the name was taken (nothing written).
 * @throws {UnsafeCasePathError} when `file` resolves outside `root` or is a symlink or not a file.
 */
export async function writeFileExclusive(root: string, file: string, text: string, force = false): Promise<'written' | 'exists'> {
  const absRoot = path.resolve(root);
  const target = path.resolve(file);
  if (!inside(absRoot, target)) throw new UnsafeCasePathError(`${file} is outside ${root}: not written`);
  await mkdir(path.dirname(target), { recursive: true });
  const realRoot = await realpath(absRoot);
  const realDir = await realpath(path.dirname(target));
  if (!inside(realRoot, realDir)) throw new UnsafeCasePathError(`${path.dirname(file)} leads outside ${root} (through a symlink): ${file} not written`);
  const existing = await lstat(target).catch(() => null);
  if (existing?.isSymbolicLink()) throw new UnsafeCasePathError(`${file} is a symlink: routecert never writes a case through one (remove it first)`);
  if (existing && !existing.isFile()) throw new UnsafeCasePathError(`${file} exists and is not a regular file: not written`);
  if (existing && !force) return 'exists';
  const temp = path.join(realDir, `.${path.basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', 0o644);
  try {
    await handle.writeFile(text, 'utf8');
  } finally {
    await handle.close();
  }
  const final = path.join(realDir, path.basename(target));
  try {
    if (force) {
      await rename(temp, final);
      return 'written';
    }
    try {
      await link(temp, final);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return 'exists';
      throw error;
    }
    return 'written';
  } finally {
    await rm(temp, { force: true });
  }
}
