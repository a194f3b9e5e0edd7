/**
 * Sharding a run for CI (`routecert run --shard i/n`): every case, probe and certification belongs
 * to exactly one of `n` shards, chosen by a hash of its stable id (FNV-1a, 32 bits), so the same
 * corpus splits the same way on every machine and a case never moves when other cases are added.
 * `routecert merge-reports` joins the shards' reports back into one.
 */

/** Shard `index` of `count` (1-based, as `--shard 1/3` reads). */
export interface Shard {
  index: number;
  count: number;
}

/** Raised by {@link parseShard} for text that is not `i/n` with 1 <= i <= n; `code` is stable. */
export class ShardSpecError extends Error {
  readonly code = 'ROUTECERT_SHARD_SPEC';
  constructor(text: string) {
    super(`--shard takes <index>/<count> with 1 <= index <= count (e.g. 1/3), got "${text}"`);
    this.name = 'ShardSpecError';
  }
}

/**
 * Parse `i/n` (e.g. `2/4`).
 *
 * @throws {ShardSpecError} for anything else.
 */
export function parseShard(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) throw new ShardSpecError(text);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(count) || count < 1 || index < 1 || index > count) throw new ShardSpecError(text);
  return { index, count };
}

/** FNV-1a over the UTF-16 code units of `text`, as an unsigned 32-bit integer. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** The shard (1-based) that `key` (a case id, a probe id) belongs to among `count` shards. */
export function shardOf(key: string, count: number): number {
  return (fnv1a(key) % count) + 1;
}

/** True when `key` belongs to `shard`; always true without a shard. */
export function inShard(key: string, shard: Shard | undefined): boolean {
  return shard === undefined || shard.count === 1 || shardOf(key, shard.count) === shard.index;
}
