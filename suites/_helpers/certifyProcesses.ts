/**
 * Every process a certification started, gathered from its progress events, so a suite can prove
 * in afterAll that none is left running (fake CLIs, their grandchildren, worker process groups).
 */
import { expect } from 'vitest';
import type { CertifyProgress } from '#src/harness/certify/certify.ts';
import { ownProcessGroup, waitGone, waitGroupsGone, type TrackedProcess } from '#src/harness/certify/processes.ts';

/** A tracker: pass `track` as `onProgress`; `expectNoneLeft()` in afterAll. */
export function processTracker(): { track(e: CertifyProgress): void; expectNoneLeft(): Promise<void> } {
  const processes: TrackedProcess[] = [];
  const groups = new Set<number>();
  return {
    track(e) {
      if (e.kind !== 'run') return;
      if (e.observation.workerPid !== undefined) groups.add(e.observation.workerPid);
      for (const r of e.observation.records) {
        if (r.kind === 'version') continue;
        processes.push({ pid: r.pid, startTicks: r.startTicks });
        if (r.pgid !== null && r.pgid !== ownProcessGroup()) groups.add(r.pgid);
      }
    },
    async expectNoneLeft() {
      expect(await waitGone(processes, 10_000)).toEqual([]);
      expect(await waitGroupsGone([...groups], 10_000)).toEqual([]);
    },
  };
}
