/**
 * Nothing outlives a run: every process a probe or a certification starts is found and killed at
 * its deadline, including descendants that left the process group or the session (`setsid`, a
 * double fork: a daemon, a language server, an MCP server).
 *
 * How (the way CI servers reap build processes, e.g. Jenkins' `BUILD_ID` process tree killer):
 * 1. every child routecert spawns gets a per-run environment variable, {@link RUN_MARK_VAR}`=<id>`,
 *    which its descendants inherit whatever process group or session they move to;
 * 2. at the deadline (or after the child exits) the child's process group and every process whose
 *    `/proc/<pid>/environ` holds the mark get SIGTERM, then, after a grace, SIGKILL;
 * 3. `/proc` is swept again until no marked process is left (a process forked during the kill is
 *    caught by the next sweep), at most {@link MAX_SWEEPS} times. A first walk that finds nothing
 *    (the kernel saying the group is empty) ends the reap: a run that left nothing costs one walk.
 *
 * Limits: the mark is read from `/proc`, so on a system without `/proc` (macOS) only the process
 * group is killed; a descendant that replaces its whole environment (`env -i`) before it execs is
 * not marked. A zombie counts as gone (it has exited; its parent has not reaped it yet).
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { Milliseconds } from '#src/envelope/types.ts';

/** The environment variable that marks every process of one run. */
export const RUN_MARK_VAR = 'ROUTECERT_RUN_ID';

/** Grace between SIGTERM and SIGKILL, in ms. */
export const DEFAULT_TERM_GRACE_MS: Milliseconds = 1000;

/** How many times `/proc` is swept for marked processes before giving up. */
export const MAX_SWEEPS = 10;

/** The mark of one run: the variable and its value, to merge into the spawned child's environment. */
export interface RunMark {
  id: string;
  env: Record<typeof RUN_MARK_VAR, string>;
}

/** A fresh mark for one run (a random UUID). */
export function newRunMark(): RunMark {
  const id = randomUUID();
  return { id, env: { [RUN_MARK_VAR]: id } };
}

/** True when this system exposes `/proc/<pid>/environ` (Linux). */
export const canSweepProc: boolean = (() => {
  try {
    readFileSync('/proc/self/environ');
    return true;
  } catch {
    return false;
  }
})();

interface ProcStat {
  state: string;
  ppid: number;
  pgid: number;
  sid: number;
  startTicks: number;
}

/** `/proc/<pid>/stat` fields routecert uses, or `null` when the process is gone or unreadable. */
export function procStat(pid: number): ProcStat | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: rest[0] ?? '', ppid: Number(rest[1]), pgid: Number(rest[2]), sid: Number(rest[3]), startTicks: Number(rest[19]) };
  } catch {
    return null;
  }
}

/**
 * How often the process `pid` has been woken from a sleep (`voluntary_ctxt_switches` of
 * `/proc/<pid>/status`), when it catches SIGINT (`SigCgt` bit 2); `null` when it does not, or
 * without `/proc`. For the shell npm runs routecert through (`sh -c <command>`): dash in `-c` mode
 * catches SIGINT while it waits for its command and acts on it only once the command has ended
 * (wait and cooperative exit), so a SIGINT that npm forwards to it never reaches routecert; but the
 * shell, asleep in `wait4` on routecert alone, wakes only for a signal, and each wake counts here.
 */
export function sigintCatcherWakeups(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const caught = /^SigCgt:\s*([0-9a-f]+)/m.exec(status)?.[1];
    if (caught === undefined || (BigInt(`0x${caught}`) & 2n) === 0n) return null;
    const wakes = /^voluntary_ctxt_switches:\s*(\d+)/m.exec(status)?.[1];
    return wakes === undefined ? null : Number(wakes);
  } catch {
    return null;
  }
}

function running(pid: number): boolean {
  const s = procStat(pid);
  return s !== null && s.state !== 'Z' && s.state !== 'X';
}

/**
 * The running processes (zombies excluded) whose environment holds `RUN_MARK_VAR=<id>`, by pid;
 * never this process. Empty when `/proc` is not there. Processes of other users (unreadable
 * environ) are skipped.
 */
export function findMarked(id: string): number[] {
  return targets({ mark: id });
}

/** The running members of process group `pgid` (from `/proc`; empty without it). */
export function groupRunning(pgid: number): number[] {
  if (!canSweepProc) return [];
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const s = procStat(Number(entry));
    if (s !== null && s.pgid === pgid && s.state !== 'Z' && s.state !== 'X') found.push(Number(entry));
  }
  return found;
}

function ownGroup(): number | null {
  return procStat(process.pid)?.pgid ?? null;
}

/** Send `signal` to process group `pgid`; never this process's own group; a gone group is ignored. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  if (pgid <= 1 || pgid === ownGroup()) return;
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: already gone.
  }
}

function signalPid(pid: number, signal: NodeJS.Signals): void {
  if (pid <= 1 || pid === process.pid) return;
  try {
    process.kill(pid, signal);
  } catch {
    // ESRCH: already gone.
  }
}

/**
 * What to reap: `pgid`, the run's process group (the spawned child's pid when spawned detached),
 * and/or `mark`, the run's {@link RunMark} id. `termGraceMs`: time between SIGTERM and SIGKILL
 * (@default {@link DEFAULT_TERM_GRACE_MS}); `0` sends SIGKILL at once.
 */
export interface ReapTarget {
  pgid?: number;
  mark?: string;
  termGraceMs?: Milliseconds;
}

/**
 * What {@link reap} did, by pid: `terminated` went on SIGTERM, `killed` needed SIGKILL,
 * `survivors` were still running after every sweep (should be empty; a process of another user
 * or one that cleared its environment could be).
 */
export interface ReapReport {
  terminated: number[];
  killed: number[];
  survivors: number[];
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Whether process group `pgid` has any member left, asked of the kernel (signal 0), not of `/proc`. */
function groupAlive(pgid: number): boolean {
  if (pgid <= 1) return false;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The running processes of a run, in one walk of `/proc`: members of `t.pgid` (only looked for
 * while the kernel says the group has a member) and processes whose environment holds `t.mark`.
 */
function targets(t: ReapTarget): number[] {
  const pgid = t.pgid !== undefined && groupAlive(t.pgid) ? t.pgid : undefined;
  if (t.mark === undefined) return pgid !== undefined ? groupRunning(pgid) : [];
  if (!canSweepProc) return [];
  const needle = Buffer.from(`${RUN_MARK_VAR}=${t.mark}\0`);
  const found: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    if (pgid !== undefined) {
      const s = procStat(pid);
      if (s === null || s.state === 'Z' || s.state === 'X') continue;
      if (s.pgid === pgid) {
        found.push(pid);
        continue;
      }
    }
    let environ: Buffer;
    try {
      environ = readFileSync(`/proc/${pid}/environ`);
    } catch {
      continue;
    }
    const at = environ.indexOf(needle);
    if (at < 0 || (at > 0 && environ[at - 1] !== 0)) continue;
    if (pgid !== undefined || running(pid)) found.push(pid);
  }
  return found;
}

/**
 * Kill everything of one run: SIGTERM to the process group and to every marked process, wait up
 * to `termGraceMs` (polling every 25 ms) for them to go, then SIGKILL what is left, and sweep
 * `/proc` again (at most {@link MAX_SWEEPS} times) for marked processes forked meanwhile.
 * Resolves when nothing of the run is running. Never throws.
 *
 * @example
 * const mark = newRunMark();
 * const child = spawn(bin, argv, { detached: true, env: { ...env, ...mark.env } });
 * // ... deadline passes
 * await reap({ pgid: child.pid, mark: mark.id }); // => { terminated: [...], killed: [...], survivors: [] }
 */
export async function reap(target: ReapTarget): Promise<ReapReport> {
  const graceMs = target.termGraceMs ?? DEFAULT_TERM_GRACE_MS;
  const report: ReapReport = { terminated: [], killed: [], survivors: [] };
  let first = targets(target);
  // One walk that found nothing proves nothing of the run is left (a process can only be forked by a
  // running one, which this walk would have found): a CLI that exited clean costs one walk of /proc,
  // not two. On a busy machine a walk takes 60-230 ms of routecert's main thread (196 processes,
  // load 19, 2026-12-02), once per CLI run of `npm start`.
  if (first.length === 0 && (target.pgid === undefined || !groupAlive(target.pgid))) return report;
  const sendTerm = graceMs > 0;
  if (sendTerm) {
    if (target.pgid !== undefined) signalGroup(target.pgid, 'SIGTERM');
    for (const p of first) signalPid(p, 'SIGTERM');
    const deadline = Date.now() + graceMs;
    let left = first.filter(running);
    while (left.length > 0 && Date.now() < deadline) {
      await sleep(25);
      left = left.filter(running);
    }
    report.terminated = first.filter((p) => !left.includes(p));
    first = left;
  }
  const killed = new Set<number>();
  // A sweep that found nothing proves nothing is left: no extra walk of /proc for the survivors.
  let clear = false;
  for (let sweep = 0; sweep < MAX_SWEEPS; sweep += 1) {
    const now = sweep === 0 ? [...new Set([...first, ...targets(target)])] : targets(target);
    if (target.pgid !== undefined) signalGroup(target.pgid, 'SIGKILL');
    if (now.length === 0 && sweep > 0) {
      clear = true;
      break;
    }
    for (const p of now) {
      signalPid(p, 'SIGKILL');
      if (!report.terminated.includes(p)) killed.add(p);
    }
    // Signal delivery and exit take a moment; wait for this sweep's processes to go.
    const deadline = Date.now() + 1000;
    while (now.some(running) && Date.now() < deadline) await sleep(10);
    if (now.length === 0) break;
  }
  report.killed = [...killed];
  report.survivors = clear ? [] : targets(target);
  return report;
}

/**
 * Runs still going. A detached child outlives its parent, so if routecert itself exits mid-run,
 * an `exit` hook SIGKILLs every registered group and marked process (synchronously: an `exit`
 * hook cannot wait).
 */
const live = new Map<string, ReapTarget>();
let exitHookInstalled = false;

/** The runs registered with {@link trackRun} and not yet unregistered (for a reap on SIGINT/SIGTERM). */
export function trackedRuns(): ReapTarget[] {
  return [...live.values()];
}

/**
 * Register a run for the exit hook; returns the function that unregisters it.
 */
export function trackRun(target: ReapTarget): () => void {
  const key = randomUUID();
  live.set(key, target);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const t of live.values()) {
        if (t.pgid !== undefined) signalGroup(t.pgid, 'SIGKILL');
        if (t.mark !== undefined) for (const p of findMarked(t.mark)) signalPid(p, 'SIGKILL');
      }
    });
  }
  return () => {
    live.delete(key);
  };
}
