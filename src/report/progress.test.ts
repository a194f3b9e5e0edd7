import { describe, expect, it } from 'vitest';
import type { CaseResult } from './types.ts';
import { formatElapsed, progressReporter } from './progress.ts';

function result(source: CaseResult['source'], route = 'claude-code/json'): CaseResult {
  return { id: 'x', file: 'f', description: '', route, contract: 'pov', cli: { name: 'c', version: '1' }, source, tags: [], outcome: 'pass', expected: null, verdict: null, attempts: [], problems: [], caught: null, replay: '', durationMs: 0 };
}

/** A fake clock and timer: `tick(ms)` advances time and fires the interval as often as it is due. */
function fakeTime() {
  let now = 0;
  let fn: (() => void) | undefined;
  let every = 0;
  let due = 0;
  return {
    now: () => now,
    setInterval: (f: () => void, ms: number) => {
      fn = f;
      every = ms;
      due = now + ms;
      return {};
    },
    clearInterval: () => {
      fn = undefined;
    },
    tick(ms: number) {
      const end = now + ms;
      while (fn && due <= end) {
        now = due;
        fn();
        due += every;
      }
      now = end;
    },
  };
}

describe('progress', () => {
  it('in CI prints a plain line every interval with cases and probes done of their totals, and stops at the end', async () => {
    const out: string[] = [];
    const time = fakeTime();
    const p = progressReporter({ write: (s) => out.push(s), tty: false, intervalMs: 30_000, ...time });
    await p.onRunStart?.({} as never);
    await p.onPlanned?.('corpus', 3);
    for (let i = 0; i < 3; i += 1) await p.onCaseResult?.(result('recorded'));
    await p.onPlanned?.('live-0', 40);
    await p.onCaseResult?.(result('probe'));
    time.tick(29_999);
    expect(out).toEqual([]);
    time.tick(1);
    expect(out).toEqual(['[routecert] progress: cases 3/3, probes 1/40, 30s elapsed\n']);
    await p.onCaseResult?.(result('generated', 'certify:claude-code/json'));
    time.tick(35_000);
    expect(out.at(-1)).toBe('[routecert] progress: cases 3/3, probes 1/40, other results 1, 1m00s elapsed\n');
    await p.onRunEnd?.({} as never);
    time.tick(120_000);
    expect(out).toHaveLength(2);
  });

  it('on a terminal keeps one status line and clears it around other output', async () => {
    const out: string[] = [];
    const time = fakeTime();
    const p = progressReporter({ write: (s) => out.push(s), tty: true, ...time });
    const write = p.wrap((s) => out.push(s));
    await p.onRunStart?.({} as never);
    await p.onPlanned?.('corpus', 2);
    await p.onCaseResult?.(result('recorded'));
    write('PASS one\n');
    expect(out).toEqual(['\r\u001b[Kcases 1/2, 0s elapsed', '\r\u001b[K', 'PASS one\n', '\r\u001b[Kcases 1/2, 0s elapsed']);
    await p.onRunEnd?.({} as never);
    expect(out.at(-1)).toBe('\r\u001b[K');
  });

  it('formats elapsed time', () => {
    expect(formatElapsed(999)).toBe('0s');
    expect(formatElapsed(65_000)).toBe('1m05s');
  });

  it('a long phase without results (startup probes, certification) names what runs and how many steps are left, every 20 s in CI', () => {
    const out: string[] = [];
    const time = fakeTime();
    const p = progressReporter({ write: (s) => out.push(s), tty: false, ...time });
    p.onRunStart!({} as never);
    p.onActivity!({ phase: 'startup probes', done: 3, total: 18, running: 'claude 2.1.332 pov.schema.json' });
    time.tick(20_000);
    expect(out).toEqual(['[routecert] progress: cases 0/0, startup probes 3/18 (claude 2.1.332 pov.schema.json), 20s elapsed\n']);
    p.onActivity!({ phase: 'startup probes', done: 18, total: 18 });
    p.onActivity!({ phase: 'certification', done: 1, total: 5, running: '40 checks done, last claude-code/json retry-once' });
    time.tick(20_000);
    expect(out[1]).toBe('[routecert] progress: cases 0/0, certification 1/5 (40 checks done, last claude-code/json retry-once), 40s elapsed\n');
  });
});
