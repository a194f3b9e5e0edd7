/**
 * Versions of a CLI: comparing them, the flags a version accepts, and whether a version is inside a
 * driver's supported range. The facts (ranges, flag tables) live in each CLI's driver file
 * ({@link VersionTable}); this module only reads them.
 */
import { pushAll } from '#src/arrays.ts';
import type { ProbeDriver, VersionTable } from './driver.ts';

/**
 * Compare two versions `major.minor.patch[-pre]` numerically, part by part (`1.0.81` < `1.0.102`);
 * a pre-release sorts before its release (`1.0.81-0` < `1.0.81`). Missing parts read 0.
 *
 * @returns negative when `a < b`, 0 when equal, positive when `a > b`.
 */
export function compareVersions(a: string, b: string): number {
  const [coreA = '', preA] = a.split('-', 2);
  const [coreB = '', preB] = b.split('-', 2);
  const pa = coreA.split('.').map(Number);
  const pb = coreB.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i += 1) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  if (preA === undefined && preB === undefined) return 0;
  if (preA === undefined) return 1;
  if (preB === undefined) return -1;
  return preA.localeCompare(preB, 'en', { numeric: true });
}

/**
 * The optional flags of `table` that `version` accepts, in table order, as argv tokens. An unknown
 * version (`null`) gets the newest version's flags (every flag without an `until`).
 *
 * @example
 * flagsFor({ min: '1.0.81', source: '', flags: [{ argv: ['--disable-client-telemetry'], since: '1.0.102', source: '' }] }, '1.0.81') // => []
 */
export function flagsFor(table: VersionTable | undefined, version: string | null | undefined): string[] {
  const out: string[] = [];
  for (const f of table?.flags ?? []) {
    if (version === null || version === undefined) {
      if (f.until === undefined) pushAll(out, f.argv);
      continue;
    }
    if (f.since !== undefined && compareVersions(version, f.since) < 0) continue;
    if (f.until !== undefined && compareVersions(version, f.until) >= 0) continue;
    pushAll(out, f.argv);
  }
  return out;
}

/**
 * Is `version` inside the driver's supported range? `supported: true` when the driver has no
 * table, when the version is unknown (then `message` says so), or when `min <= version` (and
 * `version <= max` when a max is set). Otherwise `message` names the range and its source.
 */
export function supportOf(driver: Pick<ProbeDriver, 'cli' | 'versions'>, version: string | null): { supported: boolean; message: string | null } {
  const table = driver.versions;
  if (!table) return { supported: true, message: null };
  if (version === null) return { supported: true, message: `[routecert] the version of ${driver.cli} is unknown (\`--version\` failed); probing it as the newest supported.` };
  const range = `${table.min} to ${table.max ?? 'newest'}`;
  if (compareVersions(version, table.min) < 0 || (table.max !== undefined && compareVersions(version, table.max) > 0)) {
    return { supported: false, message: `[routecert] ${driver.cli} ${version} is outside the supported range ${range} (${table.source}); a probe of it is not evidence. Install a supported release, or pass --allow-unsupported to probe it anyway.` };
  }
  return { supported: true, message: null };
}

/** The supported range as one line for tables and `probe --list`: `1.0.81 to newest`. */
export function rangeText(table: VersionTable | undefined): string {
  return table ? `${table.min} to ${table.max ?? 'newest'}` : 'any';
}
