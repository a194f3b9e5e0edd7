import { describe, expect, it } from 'vitest';
import { inShard, parseShard, shardOf, ShardSpecError } from './shard.ts';

describe('parseShard', () => {
  it('reads i/n', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    expect(parseShard(' 1 / 1 ')).toEqual({ index: 1, count: 1 });
  });
  it.each(['0/2', '3/2', '1/0', 'a/b', '1', '1/2/3', '-1/2', '1.5/2', ''])('refuses %j', (text) => {
    expect(() => parseShard(text)).toThrow(ShardSpecError);
  });
});

describe('shardOf', () => {
  const ids = Array.from({ length: 400 }, (_, i) => `case-${i.toString(16).padStart(8, '0')}`);
  it('puts every id in exactly one shard, the same one on every call', () => {
    for (const count of [1, 2, 3, 7]) {
      for (const id of ids) {
        const owners = Array.from({ length: count }, (_, k) => k + 1).filter((index) => inShard(id, { index, count }));
        expect(owners).toEqual([shardOf(id, count)]);
      }
    }
  });
  it('spreads ids over the shards (no shard gets less than half its share of 400)', () => {
    for (const count of [2, 4]) {
      const sizes = Array.from({ length: count }, (_, k) => ids.filter((id) => shardOf(id, count) === k + 1).length);
      for (const n of sizes) expect(n).toBeGreaterThan(400 / count / 2);
    }
  });
  it('does not depend on the other ids: a fixed id keeps its shard (FNV-1a of the id alone)', () => {
    expect(shardOf('bc8a427c4454b395', 2)).toBe(shardOf('bc8a427c4454b395', 2));
    expect(inShard('anything', undefined)).toBe(true);
  });
});
