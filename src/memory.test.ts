import { describe, expect, it } from 'vitest';
import { releaseMemory } from './memory.ts';

const MIB = 2 ** 20;
const rssMib = (): number => process.memoryUsage().rss / MIB;

describe('releaseMemory (issue 24: a case file text still resident while its envelope was parsed)', () => {
  it('gives the pages of a large string just let go back to the system before it returns', () => {
    // Built by JSON.parse, as a case file's envelope is: a string in V8's large-object space.
    const held: { text?: string } = { text: JSON.parse(`"${'a'.repeat(64 * MIB)}"`) as string };
    releaseMemory();
    const holding = rssMib();
    expect(held.text).toHaveLength(64 * MIB);
    delete held.text;
    releaseMemory();
    // Read at once, with no wait: the pages must be gone now, not when a V8 worker thread gets to them.
    expect(holding - rssMib()).toBeGreaterThan(40);
  });
});
