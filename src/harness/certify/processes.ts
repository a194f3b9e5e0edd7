/**
 * Is a process still there? Liveness of the processes fake CLIs record (pid, process group, start
 * time), for the "no process left behind" check and for cleaning up after a run.
 *
 * A zombie counts as gone (it has exited; only its parent has not reaped it yet), as ce-pov's
 * `peer_alive` treats a `Z` state (research/ce-plugin.md section 1.7). On Linux, `/proc/<pid>/stat`
 * gives the state and the start time, so a recycled pid is not mistaken for the recorded process;
 * elsewhere `ps -o stat=` is asked.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Milliseconds } from '#src/envelope/types.ts';
import { groupRunning, procStat } from '#src/process/reap.ts';

/** A process as a fake CLI recorded it. `startTicks`: start time in clock ticks since boot (Linux), or `null`. */
export interface TrackedProcess {
  pid: number;
  startTicks?: number | null;
}

const hasProc = (() => {
  try {
    readFileSync('/proc/self/stat', 'utf8');
    return true;
  } catch {
    return false;
  }
})();

/** True when `p` is running (not exited, not a zombie, and, when known, the same process that was recorded). */
export function isAlive(p: TrackedProcess): boolean {
  if (hasProc) {
    const stat = procStat(p.pid);
    if (stat === null) return false;
    if (stat.state === 'Z' || stat.state === 'X') return false;
    if (p.startTicks !== undefined && p.startTicks !== null && stat.startTicks !== p.startTicks) return false;
    return true;
  }
  try {
    process.kill(p.pid, 0);
  } catch {
    return false;
  }
  try {
    const state = execFileSync('ps', ['-o', 'stat=', '-p', String(p.pid)], { encoding: 'utf8', timeout: 5000 }).trim();
    return state !== '' && !state.startsWith('Z');
  } catch {
    return false;
  }
}

/** The members of process group `pgid` that are running (zombies excluded), by pid. */
export function groupMembers(pgid: number): number[] {
  // /proc is read directly on Linux: one `ps` per poll and group is slow on a loaded machine.
  if (hasProc) return groupRunning(pgid);
  let out: string;
  try {
    out = execFileSync('ps', ['-eo', 'pid=,pgid=,stat='], { encoding: 'utf8', timeout: 5000 });
  } catch {
    return [];
  }
  const members: number[] = [];
  for (const line of out.split('\n')) {
    const [pid, group, state] = line.trim().split(/\s+/);
    if (Number(group) === pgid && state !== undefined && !state.startsWith('Z')) members.push(Number(pid));
  }
  return members;
}

/** This process's own process group (never to be killed by the harness), or `null` when unknown. */
export function ownProcessGroup(): number | null {
  if (hasProc) return procStat(process.pid)?.pgid ?? null;
  try {
    return Number(execFileSync('ps', ['-o', 'pgid=', '-p', String(process.pid)], { encoding: 'utf8', timeout: 5000 }).trim()) || null;
  } catch {
    return null;
  }
}

/**
 * Wait (polling every 50 ms, at most `graceMs`) for every process in `processes` to be gone;
 * returns those still running at the end. The grace covers signal delivery and reaping; it is not
 * a measurement.
 */
export async function waitGone<T extends TrackedProcess>(processes: readonly T[], graceMs: Milliseconds): Promise<T[]> {
  const deadline = Date.now() + graceMs;
  let left = processes.filter(isAlive);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    left = left.filter(isAlive);
  }
  return left;
}

/**
 * Wait (at most `graceMs`) for process groups to have no running member; returns the groups that
 * still have one.
 */
export async function waitGroupsGone(pgids: readonly number[], graceMs: Milliseconds): Promise<number[]> {
  const deadline = Date.now() + graceMs;
  let left = pgids.filter((g) => groupMembers(g).length > 0);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    left = left.filter((g) => groupMembers(g).length > 0);
  }
  return left;
}

/** Send SIGKILL to a process group, ignoring a group that is gone. Never the caller's own group. */
export function killGroup(pgid: number): void {
  if (pgid <= 1 || pgid === ownProcessGroup()) return;
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // ESRCH: already gone.
  }
}

/** Send SIGKILL to one recorded process if it is still the recorded one. */
export function killTracked(p: TrackedProcess): void {
  if (!isAlive(p)) return;
  try {
    process.kill(p.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
