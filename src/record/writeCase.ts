/**
 * Writing a case file safely beside other runs (issue 23 point 5): the text goes to a temp file of
 * its own (created exclusively, `wx`) in the target folder, then takes the case's name in one step:
 * a hard link, which fails when the name exists (so two concurrent recordings of the same case
 * never both claim it), or, with `force`, a rename (which replaces a file or a symlink itself,
 * never what a symlink points at). The target must lie inside `root` (the `--out` folder) by its
 * real path, `root` may not be a symlink nor reached through one inside the working folder, and no
 * folder on the way may be a symlink that leads outside it; folders are made one at a time below
 * `root`, so none is ever made outside it.
 */
import { randomBytes } from 'node:crypto';
import { link, lstat, mkdir, open, realpath, rename, rm, stat } from 'node:fs/promises';
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
 * Refuse a `--out` (`absRoot`) reached through a symlink inside the working folder: a folder of a
 * checkout (`fixtures` -> somewhere else, the probes' or a contract's folder linked out) would send
 * the recordings outside the folder the user named. Each folder from the working folder down to
 * `absRoot` is checked by `lstat` before anything is made; a folder not made yet ends the check
 * (what is missing is made as real folders). Links above the working folder (a system's `/tmp`, a
 * home reached through a link) are the user's own and followed.
 */
async function noLinkAbove(absRoot: string, shownRoot: string, shownFile: string): Promise<void> {
  const cwd = process.cwd();
  if (!inside(cwd, absRoot)) return;
  let at = cwd;
  for (const step of path.relative(cwd, path.dirname(absRoot)).split(path.sep).filter((s) => s !== '')) {
    at = path.join(at, step);
    const info = await lstat(at).catch(() => null);
    if (info === null) return;
    if (info.isSymbolicLink()) {
      const target = await realpath(at).catch(() => '(a link that cannot be followed)');
      throw new UnsafeCasePathError(`${path.relative(cwd, at)} is a symlink (to ${target}) on the way to ${shownRoot}: routecert never writes cases through one (name the folder it points to instead): ${shownFile} not written`);
    }
  }
}

/**
 * The folder `dir` (inside `absRoot`), made one step at a time below `absRoot` and never through a
 * symlink that leads outside it: each existing step is checked before the next is made, so nothing
 * (not even an empty folder) is created outside `--out`. `absRoot` itself must not be a symlink:
 * routecert writes cases into the folder it was named, not through a link to another one.
 *
 * @returns the real path of `dir`.
 */
async function safeFolder(absRoot: string, dir: string, shownRoot: string, shownFile: string): Promise<string> {
  await noLinkAbove(absRoot, shownRoot, shownFile);
  const rootInfo = await lstat(absRoot).catch(() => null);
  if (rootInfo?.isSymbolicLink()) {
    throw new UnsafeCasePathError(`${shownRoot} is a symlink: routecert never writes cases through one (name the folder it points to instead): ${shownFile} not written`);
  }
  if (rootInfo === null) await mkdir(absRoot, { recursive: true });
  else if (!rootInfo.isDirectory()) throw new UnsafeCasePathError(`${shownRoot} is not a folder: ${shownFile} not written`);
  const realRoot = await realpath(absRoot);
  let real = realRoot;
  let at = absRoot;
  for (const step of path.relative(absRoot, dir).split(path.sep).filter((s) => s !== '')) {
    at = path.join(at, step);
    const info = await lstat(at).catch(() => null);
    if (info === null) {
      await mkdir(at).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
    } else if (!info.isDirectory() && !info.isSymbolicLink()) {
      throw new UnsafeCasePathError(`${at} is not a folder: ${shownFile} not written`);
    }
    try {
      real = await realpath(at);
    } catch (error) {
      throw new UnsafeCasePathError(`${at} is a link that cannot be followed (${(error as NodeJS.ErrnoException).code}): ${shownFile} not written`);
    }
    if (!inside(realRoot, real)) throw new UnsafeCasePathError(`${path.dirname(shownFile)} leads outside ${shownRoot} (through a symlink): ${shownFile} not written`);
    if (info?.isSymbolicLink() && !(await stat(real)).isDirectory()) throw new UnsafeCasePathError(`${at} links to something that is not a folder: ${shownFile} not written`);
  }
  return real;
}

/**
 * Write `text` to `file` (inside `root`) without ever overwriting what another writer put there
 * (unless `force`), without following a symlink, and without a half-written file under the name.
 * The folders on the way are made below `root` only ({@link safeFolder}).
 *
 * @returns `written` when the file now holds `text`; `exists` when the name was taken (nothing written).
 * @throws {UnsafeCasePathError} when `file` resolves outside `root`, `root` is a symlink, or `file` is a symlink or not a file.
 */
export async function writeFileExclusive(root: string, file: string, text: string, force = false): Promise<'written' | 'exists'> {
  const absRoot = path.resolve(root);
  const target = path.resolve(file);
  if (!inside(absRoot, target) || target === absRoot) throw new UnsafeCasePathError(`${file} is outside ${root}: not written`);
  const realDir = await safeFolder(absRoot, path.dirname(target), root, file);
  const final = path.join(realDir, path.basename(target));
  const existing = await lstat(final).catch(() => null);
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
