/**
 * One run of the worker under test: fake CLIs replaying the planned attempts stand alone on its
 * PATH (with the linked tools), it gets the prompt and schema as its adapter says, and routecert
 * observes what it published, what it logged, what each fake CLI call received, and whether any
 * process it started outlived it.
 *
 * The worker leads its own process group (spawned detached). At the run's outer deadline that
 * group is killed and the run says so. After the worker ends, the processes the fake CLIs recorded
 * (and the worker's group) get a short grace to disappear; whatever is still running is reported,
 * then killed, so a run never leaves a process behind. Every process of the run carries a per-run
 * environment mark (src/process/reap.ts), so one that left the worker's process group or session
 * (`setsid`, a double fork) is reported and reaped too.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Milliseconds } from '#src/envelope/types.ts';
import { installShims } from '#src/harness/shim/install.ts';
import { DEFAULT_TOOLS } from '#src/harness/shim/tools.ts';
import { readShimRecords, type ShimAttempt, type ShimCallRecord, type ShimRecord } from '#src/harness/shim/plan.ts';
import { unpublish } from './publish.ts';
import { artifactAdapter, fillTemplate, type InProcessInvocation, type LoadedConfig, type WorkerAdapter } from './config.ts';
import { findMarked, newRunMark, reap, signalGroup, trackRun } from '#src/process/reap.ts';
import { capture, captureFile, type Captured } from '#src/process/capture.ts';
import { DEFAULT_MAX_CASE_BYTES } from '#src/record/corpus.ts';
import { interruptSignal } from '#src/process/interrupt.ts';
import { groupMembers, isAlive, killGroup, killTracked, waitGone, waitGroupsGone } from './processes.ts';
import { shimFactsOf, type CertifyRoute } from './routes.ts';

/** Windows handed to the worker through its adapter's `windowEnv`, in whole seconds. */
export interface RunWindows {
  hardWindowS: number;
  idleWindowS: number;
  retryMinS: number;
}

/** A fake API key every run puts in the worker's environment; records must never show it. */
export const FAKE_SECRETS = { ANTHROPIC_API_KEY: 'sk-ant-routecert-fake-0000000000', XAI_API_KEY: 'xai-routecertfake000000000000' } as const;

/**
 * One run to carry out.
 * - `label`: names the run in evidence;
 * - `attempts`: what the route's fake CLI replays, call by call;
 * - `cliVersion`: what it prints for `--version`;
 * - `windows`: the worker's windows;
 * - `outerDeadlineMs`: when routecert kills the worker's group, in ms after the worker's first CLI
 *   call (its own start-up is not held against it), or after spawn plus {@link STARTUP_ALLOWANCE_MS}
 *   when it never calls a CLI.
 */
export interface RunInput {
  label: string;
  route: CertifyRoute;
  attempts: ShimAttempt[];
  cliVersion: string;
  windows: RunWindows;
  outerDeadlineMs: Milliseconds;
}

/** Shared by every run of one certification. */
export interface RunContext {
  loaded: LoadedConfig;
  /** The certification's temporary folder; each run gets a folder inside it. Also the workers' TMPDIR. */
  root: string;
  schemaText: string;
  prompt: string;
  keep?: boolean;
}

/** A recorded process still running after the worker ended (and its grace). */
export interface Leftover {
  pid: number;
  what: string;
}

/**
 * What routecert saw of one run.
 * - `artifact`: the file at the adapter's artifact path after the run; `value` is it parsed, then
 *   with the renames of the adapter's `publish` mapping undone (./publish.ts), then mapped by its `artifact.select` when given; `parseError` says why there is no value;
 * - `log`: the worker's stdout, stderr and log file, concatenated;
 * - `calls`: every fake CLI call, any CLI; `records`: every record (calls, grandchildren, versions);
 * - `killedAtOuterDeadline`: routecert had to kill the worker;
 * - `leftovers`: recorded processes (fake CLIs, their grandchildren) or members of the worker's
 *   process group still running after the worker ended;
 * - `workerPid`: the worker command's pid, which is also its process group (none for an in-process worker);
 * - `fault`: the run could not be carried out (the worker's command could not start).
 */
export interface RunObservation {
  label: string;
  route: string;
  /** `besides`: when nothing is at `path`, the `.json` files its folder holds (up to 5), for a misspelt `artifact` path. */
  artifact: { path: string; exists: boolean; text: string | null; value: unknown; parseError: string | null; besides?: string[] };
  log: string;
  calls: ShimCallRecord[];
  records: ShimRecord[];
  exitCode: number | null;
  signal: string | null;
  killedAtOuterDeadline: boolean;
  /**
   * At the outer deadline routecert sends SIGTERM to the worker's process group first, SIGKILL
   * {@link TERM_GRACE_MS} later; `true` when the worker itself was still running then (it ignored
   * SIGTERM). Absent for an in-process worker (it is aborted instead).
   */
  termIgnored?: boolean;
  elapsedMs: Milliseconds;
  leftovers: Leftover[];
  windows: RunWindows;
  outerDeadlineMs: Milliseconds;
  workerPid?: number;
  fault?: string;
  /** What of the worker's output (stdout, stderr, log file) was cut to the capture cap, one phrase each; absent when nothing was. */
  outputCut?: string[];
}

/**
 * Time a worker has, after SIGTERM at routecert's outer deadline, to stop by itself before SIGKILL
 * (ms): the way a CI runner or a supervisor stops a job (systemd `TimeoutStopSec`, Kubernetes'
 * termination grace). Not a measurement: a worker that honours SIGTERM ends well within it.
 */
export const TERM_GRACE_MS: Milliseconds = 3000;

/** Why a run of an interrupted certification has no observation of the worker. */
const INTERRUPTED_FAULT = 'routecert was interrupted (SIGINT or SIGTERM): the worker was not started';

/** SIGTERM-to-SIGKILL grace for a worker's group when routecert is interrupted (ms), as src/cli/main.ts reaps probes. */
const INTERRUPT_GRACE_MS: Milliseconds = 500;

/** Grace for processes to disappear after the worker ended (signal delivery, reaping); not a measurement. */
const SETTLE_MS = 2000;

/** Largest artifact routecert reads (bytes): as large as a case file may be. */
const MAX_ARTIFACT_BYTES = DEFAULT_MAX_CASE_BYTES;

/** How long a worker may take to start before its first CLI call, on top of the outer deadline (ms). */
export const STARTUP_ALLOWANCE_MS = 20_000;

/**
 * Call `onExpire` `deadlineMs` after the first fake CLI call is recorded in `stateDir` (polled every
 * 100 ms), or `STARTUP_ALLOWANCE_MS + deadlineMs` after now if none is. Returns the canceller.
 */
function outerDeadline(stateDir: string, deadlineMs: Milliseconds, onExpire: () => void): () => void {
  let timer = setTimeout(onExpire, STARTUP_ALLOWANCE_MS + deadlineMs);
  const calls = path.join(stateDir, 'calls.jsonl');
  const poll = setInterval(() => {
    stat(calls)
      .then((s) => {
        if (s.size === 0) return;
        clearInterval(poll);
        clearTimeout(timer);
        timer = setTimeout(onExpire, deadlineMs);
      })
      .catch(() => undefined);
  }, 100);
  return () => {
    clearInterval(poll);
    clearTimeout(timer);
  };
}

/** `worker.tools` with each path entry (it has a `/`) made absolute from the config file's folder. */
export function toolEntries(tools: readonly string[], configDir: string): string[] {
  return tools.map((t) => (t.includes('/') ? path.resolve(configDir, t) : t));
}

/**
 * Carry out one run. Never throws for what the worker does; a worker that cannot start gives `fault`.
 *
 * @throws {CertifyConfigError} for a template placeholder without a value.
 */
export async function executeRun(input: RunInput, ctx: RunContext): Promise<RunObservation> {
  const { config, dir: configDir } = ctx.loaded;
  const adapter = config.worker;
  const runDir = await mkdtemp(path.join(ctx.root, 'run-'));
  const shims = await installShims({
    root: runDir,
    plan: {
      version: 1,
      clis: { [input.route.cli]: { version: input.cliVersion, attempts: input.attempts, ...shimFactsOf(input.route) } },
      secrets: Object.values(FAKE_SECRETS),
      maxHangMs: STARTUP_ALLOWANCE_MS + input.outerDeadlineMs + 30_000,
    },
    ...(adapter.tools ? { tools: [...DEFAULT_TOOLS, ...toolEntries(adapter.tools, configDir)] } : {}),
  });
  const inDir = path.join(runDir, 'in');
  const outDir = path.join(runDir, 'out');
  const home = path.join(runDir, 'home');
  await Promise.all([mkdir(inDir), mkdir(outDir), mkdir(home), mkdir(path.join(runDir, 'log'))]);
  const schemaFile = path.join(inDir, 'schema.json');
  const promptFile = path.join(inDir, 'prompt.txt');
  await writeFile(schemaFile, ctx.schemaText);
  await writeFile(promptFile, ctx.prompt);
  const base = {
    route: input.route.route,
    routeArg: adapter.routeNames?.[input.route.route] ?? input.route.route,
    schema: schemaFile,
    prompt: promptFile,
    promptText: ctx.prompt,
    runDir,
    outDir,
  };
  const artifactSpec = artifactAdapter(adapter);
  const artifactPath = path.resolve(runDir, fillTemplate(artifactSpec.path, base));
  const logPath = adapter.log ? path.resolve(runDir, fillTemplate(adapter.log, { ...base, out: artifactPath })) : null;
  const values = { ...base, out: artifactPath, ...(logPath ? { log: logPath } : {}) };
  const env: Record<string, string> = {
    PATH: shims.binDir,
    HOME: home,
    TMPDIR: ctx.root,
    LANG: 'C.UTF-8',
    NO_COLOR: '1',
    ...FAKE_SECRETS,
    // A routecert started on a build folder (bin/load.js `ROUTECERT_DIST`, the tests' one build of
    // the sources) starts `routecert-worker` on the same build, not on the sources through tsx.
    ...(process.env.ROUTECERT_DIST ? { ROUTECERT_DIST: process.env.ROUTECERT_DIST } : {}),
    ...fillAll(adapter.env, values),
    ...fillAll(adapter.routeEnv?.[input.route.route], values),
    [adapter.windowEnv.hardWindowS]: String(input.windows.hardWindowS),
    ...(adapter.windowEnv.retryMinS ? { [adapter.windowEnv.retryMinS]: String(input.windows.retryMinS) } : {}),
    ...(adapter.windowEnv.idleWindowS ? { [adapter.windowEnv.idleWindowS]: String(input.windows.idleWindowS) } : {}),
  };
  for (const [template, content] of Object.entries(adapter.files ?? {})) {
    const file = path.resolve(runDir, fillTemplate(template, values));
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  }
  const cwd = path.resolve(configDir, adapter.cwd ?? '.');
  // Every process of the run carries the mark, even one that left the worker's process group or
  // session (setsid, double fork), so it can be found and reaped (src/process/reap.ts).
  const mark = newRunMark();
  Object.assign(env, mark.env);
  const untrack = trackRun({ mark: mark.id });

  const started = performance.now();
  const ran = adapter.run
    ? await runInProcess(adapter.run, { route: base.route, routeArg: base.routeArg, schemaFile, promptFile, prompt: ctx.prompt, out: artifactPath, outDir, runDir, env, cwd }, (expire) =>
        outerDeadline(shims.stateDir, input.outerDeadlineMs, expire),
      )
    : await runCommand(adapter.command!.map((t) => fillTemplate(t, values)), { env, cwd, stdin: adapter.prompt === 'stdin' ? ctx.prompt : undefined }, (expire) =>
        outerDeadline(shims.stateDir, input.outerDeadlineMs, expire),
      );
  const { killedAtOuterDeadline, fault, pid, termIgnored } = ran;
  const elapsedMs = Math.round(performance.now() - started);

  const records = await readShimRecords(shims.stateDir);
  const tracked = records.filter((r) => r.kind === 'call' || r.kind === 'child').map((r) => ({ pid: r.pid, startTicks: r.startTicks, what: `${r.kind === 'child' ? 'grandchild of' : 'fake'} ${r.cli} (pid ${r.pid})` }));
  const leftovers: Leftover[] = (await waitGone(tracked, SETTLE_MS)).map((p) => ({ pid: p.pid, what: p.what }));
  if (pid !== undefined && (await waitGroupsGone([pid], leftovers.length > 0 ? 0 : SETTLE_MS)).length > 0) {
    leftovers.push({ pid, what: `a process of the worker's own process group ${pid}` });
  }
  const known = new Set([...leftovers.map((l) => l.pid), ...(pid !== undefined ? groupMembers(pid) : [])]);
  const strays = await waitGone(findMarked(mark.id).filter((p) => !known.has(p)).map((p) => ({ pid: p })), SETTLE_MS);
  for (const { pid: p } of strays) leftovers.push({ pid: p, what: `a process started during the run that left the worker's process group (pid ${p})` });
  // Clean up: nothing outlives the run, whatever the worker did. A group is killed only while a
  // process known to be ours is in it (so a recycled id is never hit).
  if (pid !== undefined && groupMembers(pid).length > 0) killGroup(pid);
  for (const r of records) {
    if (r.kind === 'version' || !isAlive(r)) continue;
    if (r.pgid !== null) killGroup(r.pgid);
    killTracked(r);
  }
  await reap({ ...(pid !== undefined ? { pgid: pid } : {}), mark: mark.id, termGraceMs: 0 });
  untrack();

  const artifact: RunObservation['artifact'] = { path: artifactPath, exists: false, text: null, value: undefined, parseError: null };
  try {
    // Only a regular file is read (a named pipe would block), and one no larger than a case may be.
    const info = await stat(artifactPath);
    if (!info.isFile()) throw Object.assign(new Error('not a regular file'), { unreadable: `the artifact ${artifactPath} is not a regular file` });
    if (info.size > MAX_ARTIFACT_BYTES) throw Object.assign(new Error('too large'), { unreadable: `the artifact is ${info.size} bytes, over the ${MAX_ARTIFACT_BYTES / 2 ** 20} MiB routecert reads of one` });
    artifact.text = await readFile(artifactPath, 'utf8');
    artifact.exists = true;
    let parsed: unknown;
    try {
      parsed = JSON.parse(artifact.text);
    } catch (error) {
      artifact.parseError = `not JSON: ${(error as Error).message}`;
    }
    if (artifact.parseError === null) {
      try {
        const answer = unpublish(parsed, adapter.publish);
        artifact.value = artifactSpec.select ? artifactSpec.select(answer) : answer;
      } catch (error) {
        artifact.parseError = `the adapter's artifact.select threw: ${(error as Error).message}`;
      }
    }
  } catch (error) {
    // Not published, or published as something routecert does not read (said as the parse error).
    const unreadable = (error as { unreadable?: string }).unreadable;
    if (unreadable !== undefined) {
      artifact.exists = true;
      artifact.parseError = unreadable;
    } else {
      const besides = await readdir(path.dirname(artifactPath)).catch(() => [] as string[]);
      const json = besides.filter((n) => n.endsWith('.json')).sort().slice(0, 5);
      if (json.length > 0) artifact.besides = json;
    }
  }
  // The worker's log file is read as its stdout and stderr are, up to the cap (head and tail).
  const logCaptured = logPath ? await captureFile(logPath, 'log file').catch(() => null) : null;
  const logFile = logCaptured?.text ?? '';
  const outputCut = [...ran.cut, ...(logCaptured ? cutPhrase("the worker's log file", logCaptured) : [])];
  const log = [ran.stdout, ran.stderr, logFile].filter((t) => t !== '').join('\n');
  if (!ctx.keep) await rm(runDir, { recursive: true, force: true }).catch(() => undefined);
  return {
    label: input.label,
    route: input.route.route,
    artifact,
    log,
    calls: records.filter((r): r is ShimCallRecord => r.kind === 'call'),
    records,
    exitCode: ran.exitCode,
    signal: ran.signal,
    killedAtOuterDeadline,
    ...(termIgnored !== undefined ? { termIgnored } : {}),
    elapsedMs,
    leftovers,
    windows: input.windows,
    outerDeadlineMs: input.outerDeadlineMs,
    ...(pid !== undefined ? { workerPid: pid } : {}),
    ...(fault ? { fault } : {}),
    ...(outputCut.length > 0 ? { outputCut } : {}),
  };
}

/** Every value of `map` with its placeholders filled (see {@link fillTemplate}); `{}` for none. */
function fillAll(map: Record<string, string> | undefined, values: Parameters<typeof fillTemplate>[1]): Record<string, string> {
  return Object.fromEntries(Object.entries(map ?? {}).map(([k, v]) => [k, fillTemplate(v, values)]));
}

/** What running the worker (command or in-process) gave, before observation. `pid`: the command's process group. */
interface Ran {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  signal: string | null;
  killedAtOuterDeadline: boolean;
  /** The command ignored SIGTERM at the outer deadline (command workers only). */
  termIgnored?: boolean;
  fault?: string;
  pid?: number;
  /** What was cut of the worker's output (src/process/capture.ts), one phrase per stream. */
  cut: string[];
}

/** `<what> was N bytes: routecert kept its head and tail ...` when `c` was cut, else nothing. */
function cutPhrase(what: string, c: Captured): string[] {
  return c.cut ? [`${what} was ${c.totalBytes} bytes: routecert kept its head and tail (${Buffer.byteLength(c.text)} bytes) and judged those`] : [];
}

/**
 * Worker process groups still running. A detached child outlives its parent, so if routecert itself
 * exits mid-run, an `exit` hook kills these groups (as src/probe/run.ts does for probes).
 */
const liveWorkerGroups = new Set<number>();
let exitHookInstalled = false;
function trackWorkerGroup(pid: number): void {
  liveWorkerGroups.add(pid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const g of liveWorkerGroups) killGroup(g);
    });
  }
}

/** Run the worker's command detached (its own process group); kill the group at the outer deadline (`arm` schedules it). */
async function runCommand(argv: string[], opts: { env: Record<string, string>; cwd: string; stdin: string | undefined }, arm: (expire: () => void) => () => void): Promise<Ran> {
  // What the worker prints is kept up to a cap (head and tail, src/process/capture.ts): a worker
  // writing gigabytes cannot exhaust routecert's memory.
  // An interrupted certification (SIGINT/SIGTERM) starts no worker.
  if (interruptSignal.aborted) return { stdout: '', stderr: '', cut: [], exitCode: null, signal: null, killedAtOuterDeadline: false, fault: INTERRUPTED_FAULT };
  const stdout = capture('stdout');
  const stderr = capture('stderr');
  let killedAtOuterDeadline = false;
  let fault: string | undefined;
  const child = spawn(argv[0]!, argv.slice(1), { cwd: opts.cwd, env: opts.env, detached: true, stdio: [opts.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
  const pid = child.pid;
  if (pid !== undefined) trackWorkerGroup(pid);
  child.stdout?.on('data', (d: Buffer) => stdout.push(d));
  child.stderr?.on('data', (d: Buffer) => stderr.push(d));
  if (opts.stdin !== undefined && child.stdin) {
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.stdin);
  }
  let termIgnored = false;
  let termTimer: NodeJS.Timeout | undefined;
  let exited = false;
  // TERM first, as a supervisor stops a job; SIGKILL for what still runs after TERM_GRACE_MS.
  const cancelOuter = arm(() => {
    killedAtOuterDeadline = true;
    if (pid === undefined) return;
    signalGroup(pid, 'SIGTERM');
    termTimer = setTimeout(() => {
      if (!exited && isAlive({ pid })) termIgnored = true;
      killGroup(pid);
    }, TERM_GRACE_MS);
  });
  // Interrupted while the worker runs: its group gets SIGTERM, then SIGKILL (the signal handler also
  // reaps every process carrying the run's mark, src/process/interrupt.ts).
  const onInterrupt = (): void => {
    if (pid === undefined) return;
    signalGroup(pid, 'SIGTERM');
    setTimeout(() => killGroup(pid), INTERRUPT_GRACE_MS).unref();
  };
  interruptSignal.addEventListener('abort', onInterrupt, { once: true });
  const exit = await new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    child.on('error', (error) => {
      fault = `the worker's command could not start (${argv[0]}): ${error.message}`;
      resolve({ code: null, signal: null });
    });
    child.on('exit', (code, signal) => {
      exited = true;
      // Stop waiting for pipes a leftover process may hold open.
      const t = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        resolve({ code, signal });
      }, SETTLE_MS);
      child.on('close', () => {
        clearTimeout(t);
        resolve({ code, signal });
      });
    });
  });
  cancelOuter();
  interruptSignal.removeEventListener('abort', onInterrupt);
  // A worker that ended on SIGTERM may have left its group behind: the grace still ends in SIGKILL.
  if (termTimer !== undefined) {
    clearTimeout(termTimer);
    if (pid !== undefined) killGroup(pid);
  }
  if (pid !== undefined) liveWorkerGroups.delete(pid);
  const out = stdout.result();
  const err = stderr.result();
  return {
    stdout: out.text,
    stderr: err.text,
    cut: [...cutPhrase("the worker's stdout", out), ...cutPhrase("the worker's stderr", err)],
    exitCode: exit.code,
    signal: exit.signal,
    killedAtOuterDeadline,
    termIgnored,
    ...(fault ? { fault } : {}),
    ...(pid !== undefined ? { pid } : {}),
  };
}

/** Run an in-process worker; at the outer deadline (`arm` schedules it) abort its signal, and stop waiting {@link SETTLE_MS} later. */
async function runInProcess(
  run: NonNullable<WorkerAdapter['run']>,
  inv: Omit<InProcessInvocation, 'log' | 'signal'>,
  arm: (expire: () => void) => () => void,
): Promise<Ran> {
  if (interruptSignal.aborted) return { stdout: '', stderr: '', cut: [], exitCode: null, signal: null, killedAtOuterDeadline: false, fault: INTERRUPTED_FAULT };
  // Its log lines are kept as a command's stderr is: up to the cap, head and tail.
  const lines = capture('log');
  let first = true;
  const log = (line: string): void => {
    lines.push(Buffer.from(`${first ? '' : '\n'}${String(line)}`));
    first = false;
  };
  const controller = new AbortController();
  // Interrupted (SIGINT/SIGTERM): the in-process worker is aborted as at the outer deadline.
  const onInterrupt = (): void => controller.abort();
  interruptSignal.addEventListener('abort', onInterrupt, { once: true });
  let killedAtOuterDeadline = false;
  let fault: string | undefined;
  let giveUp: NodeJS.Timeout | undefined;
  const cancelOuter = arm(() => {
    killedAtOuterDeadline = true;
    controller.abort();
  });
  const stopped = new Promise<void>((resolve) => {
    controller.signal.addEventListener('abort', () => {
      giveUp = setTimeout(() => {
        fault = `the in-process worker did not return within ${SETTLE_MS} ms of being aborted`;
        resolve();
      }, SETTLE_MS);
    });
  });
  await Promise.race([
    run({ ...inv, log, signal: controller.signal }).catch((error: unknown) => {
      fault = `the in-process worker threw: ${error instanceof Error ? error.message : String(error)}`;
    }),
    stopped,
  ]);
  cancelOuter();
  interruptSignal.removeEventListener('abort', onInterrupt);
  if (giveUp) clearTimeout(giveUp);
  const logged = lines.result();
  return { stdout: '', stderr: logged.text, cut: cutPhrase("the in-process worker's log", logged), exitCode: fault ? null : 0, signal: null, killedAtOuterDeadline, ...(fault ? { fault } : {}) };
}
