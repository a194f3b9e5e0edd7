/**
 * Every process a certification started, gathered from its progress events, so a suite can prove
 * in afterAll that none is left running (fake CLIs, their grandchildren, worker process groups).
 */
import { expect } from 'vitest';
import type { CertifyProgress } from '#src/harness/certify/certify.ts';
import { readFileSync } from 'node:fs';
import { groupMembers, ownProcessGroup, waitGone, waitGroupsGone, type TrackedProcess } from '#src/harness/certify/processes.ts';

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
      // A generous grace: on a loaded machine (two CI runs at once, load 14) a killed process can
      // take seconds to go. What is left is named with its command line, so a leak can be traced.
      expect(describeLeft((await waitGone(processes, 30_000)).map((p) => p.pid))).toEqual([]);
      const groupsLeft = await waitGroupsGone([...groups], 30_000);
      expect(groupsLeft.map((g) => `group ${g}: ${describeLeft(groupMembers(g)).join('; ')}`)).toEqual([]);
    },
  };
}

/** `<pid> <state> <command line>` of each of `pids` (Linux /proc; the pid alone elsewhere or once gone). */
function describeLeft(pids: readonly number[]): string[] {
  return pids.map((pid) => {
    try {
      const state = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ')[0];
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim().slice(0, 200);
      return `${pid} ${state} ${cmd}`;
    } catch {
      return String(pid);
    }
  });
}
