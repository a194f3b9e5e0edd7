/**
 * The hermetic probe runner: one run of a real installed CLI against the provider mock on
 * 127.0.0.1, in a throwaway HOME, config dir and cwd, with a clean environment and a hard
 * deadline that kills the CLI's whole process group. The run's output becomes an {@link Envelope}.
 *
 * Never throws for anything the CLI or the machine does: a CLI that is missing or fails to spawn,
 * or a mock that cannot listen, gives a result with `fault` set (execa's result shape, run with
 * `reject: false`; STYLE.md item 14).
 */
import { mkdtempSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Envelope, Milliseconds } from '#src/envelope/types.ts';
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { DEFAULT_PAYLOADS, type ScenarioName, type ScenarioPayloads } from '#src/mock/scenarios.ts';
import type { LoopbackServer, RecordedRequest } from '#src/mock/server.ts';
import type { DiscoveredCli } from '#src/probe/discover.ts';
import type { ProbeDriver } from '#src/probe/driver.ts';
import { driverFor } from '#src/probe/drivers.ts';
import { trackTempFolder } from '#src/process/tempFolders.ts';
import { supervise } from '#src/process/supervise.ts';
import { liveSetup, type LiveSetup } from '#src/probe/live.ts';
import type { LiveTap } from '#src/probe/liveTap.ts';

/** Default hard deadline of one probe run, in ms. Runs against the mock take 1-2 s (Claude Code 2.1.332). */
export const DEFAULT_PROBE_TIMEOUT_MS: Milliseconds = 30_000;

/** Default prompt of a probe (the mock ignores it; it only has to be a prompt). */
export const DEFAULT_PROBE_PROMPT =
  'Give your point of view on the question: should we choose option A or option B? Answer with the StructuredOutput tool.';

/**
 * Options of {@link runProbe}.
 *
 * - `cli`: from `discoverCli`; a CLI with `bin: null` gives a `fault` result without running.
 * - `driver`: how to run it; @default the registered driver of `cli.name` (src/probe/drivers.ts).
 * - `route`: one of the driver's routes.
 * - `scenario`: what the mock model does (see `SCENARIOS`).
 * - `schema`: the JSON Schema handed to `--json-schema` (one argv token).
 * - `payloads`: the scenario's payloads; @default `DEFAULT_PAYLOADS`.
 * - `timeoutMs`: hard deadline; when it passes, every process of the run is reaped (SIGTERM, grace,
 *   SIGKILL; src/process/reap.ts) and the envelope says `timedOut: true`. @default {@link DEFAULT_PROBE_TIMEOUT_MS}
 * - `prompt`: written to stdin, which is then closed. @default {@link DEFAULT_PROBE_PROMPT}
 * - `model`: pinned model; @default the driver's.
 */
export interface ProbeOptions {
  cli: DiscoveredCli;
  driver?: ProbeDriver;
  route: string;
  scenario: ScenarioName;
  schema: object;
  payloads?: ScenarioPayloads;
  timeoutMs?: Milliseconds;
  prompt?: string;
  model?: string;
  /**
   * `true` only from `--live`: run against the real provider (the driver's {@link LiveSpec}) with
   * the credential from `env`, no mock; the scenario and payloads are then not used.
   */
  live?: boolean;
  /** Where a live run reads its credential and endpoint override; @default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /**
   * With `live: true` only (`--live --startup`): point the CLI at a loopback tap in front of the
   * provider (src/probe/liveTap.ts) and reap the run at the first body bytes of the provider's 2xx
   * answer to a model call, so a live startup probe costs the prompt and the first streamed token.
   */
  stopAtFirstResponse?: boolean;
  /**
   * A second deadline counted from the first request to the mock (ms): a `stall` probe then ends
   * this long after the CLI reached the stalled stream, however long the CLI took to start
   * (`timeoutMs` stays the hard cap). Unset: only `timeoutMs`.
   */
  deadlineAfterRequestMs?: Milliseconds;
}

/**
 * What one probe run left.
 *
 * - `route`, `scenario`: as asked.
 * - `cli`: the CLI's name and version (from discovery; `null` when unknown).
 * - `argv`: the arguments after the executable, with the schema token shown as `<schema>`.
 * - `envelope`: stdout, stderr, exit code, signal, `timedOut`, `elapsedMs` (spawn to exit, ms).
 * - `requests`: every request the mock received, in order (x-api-key redacted); for a live run
 *   through the tap (`stopAtFirstResponse`), every request it forwarded; for any other live run, none.
 * - `unexpected`: the requests no handler answered (each got a 501); empty in a healthy run.
 * - `pid`: the CLI's process id, which is also its process group id (spawned detached); `null`
 *   when it never started. Every process of the run (its group, and every process carrying the
 *   run's mark) is gone when the result is returned; when one could not be killed, `fault` says so.
 * - `fault`: set when the run could not be carried out (CLI missing, spawn failure, mock failure);
 *   the envelope is then empty with `exitCode: null`.
 */
export interface ProbeResult {
  route: string;
  scenario: ScenarioName;
  cli: { name: string; version: string | null };
  argv: string[];
  envelope: Envelope;
  requests: RecordedRequest[];
  unexpected: RecordedRequest[];
  pid: number | null;
  fault?: string;
  /**
   * Set for a `--live` run: the provider origin it reached and the model (no credential);
   * `firstResponse` (with `stopAtFirstResponse` only): whether a 2xx answer to a model call
   * started, at which point the run was reaped.
   */
  live?: { endpoint: string; model: string; firstResponse?: boolean };
  /**
   * The CLI's start-up in this run: ms from spawn to the first request the mock received (the
   * CLI loaded, read its config and called the model); `null` when no request arrived (a refusal
   * at start-up, a live run, a run that could not start).
   */
  firstRequestMs: number | null;
}

/**
 * A startup probe's result: the {@link ProbeResult} of a `final` run, plus what it says about the schema.
 *
 * - `schemaAccepted`: the CLI went on to call the model (at least one request reached the mock).
 * - `rejection`: the CLI's own startup error line (e.g.
 *   `Error: --json-schema is not a valid JSON Schema: strict mode: unknown keyword: "_meta"`,
 *   Claude Code 2.1.332, stderr, exit 1, no request), else `null`.
 */
export interface StartupProbeResult extends ProbeResult {
  schemaAccepted: boolean;
  rejection: string | null;
}

function emptyEnvelope(): Envelope {
  return { stdout: '', stderr: '', exitCode: null, signal: null, timedOut: false, elapsedMs: 0 };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Run the real CLI once, hermetically, against its provider mock playing `options.scenario`.
 *
 * Recipe (the same for every CLI; the driver supplies handlers, config, argv and env):
 * 1. start the loopback mock (127.0.0.1, ephemeral port) with `driver.handlers(scenario)`;
 * 2. make a throwaway root under `os.tmpdir()` with `home/`, `work/` (cwd) and `tmp/` (TMPDIR),
 *    and let `driver.prepare` write its config there;
 * 3. spawn `<bin> <argv>` with only the driver's env (the parent's env is not passed) plus a
 *    per-run mark, the prompt on stdin (then closed), detached so the CLI leads its own process
 *    group (src/process/supervise.ts);
 * 4. at `timeoutMs` reap the run (SIGTERM, grace, SIGKILL to the group and to every process that
 *    carries the mark, even one that called `setsid`; src/process/reap.ts) and mark `timedOut`;
 *    after the CLI exits, whatever it left running is reaped the same way, so no process it
 *    started outlives the probe, and a child still holding stdout open does not turn an exit
 *    into a timeout;
 * 5. close the mock (dropping a stalled stream) and remove the throwaway root.
 *
 * Never throws; see {@link ProbeResult}.`fault`.
 *
 * @example
 * const cli = await discoverCli('claude');
 * const r = await runProbe({ cli, route: 'claude-code/json', scenario: 'final', schema: povSchema });
 * JSON.parse(r.envelope.stdout).structured_output // => the final payload
 */
export async function runProbe(options: ProbeOptions): Promise<ProbeResult> {
  const driver = options.driver ?? driverFor(options.cli.name);
  const base: Omit<ProbeResult, 'envelope' | 'requests' | 'unexpected' | 'pid'> & { live?: ProbeResult['live'] } = {
    route: options.route,
    scenario: options.scenario,
    cli: { name: options.cli.name, version: options.cli.version },
    argv: [],
    firstRequestMs: null,
  };
  if (!driver) {
    return { ...base, envelope: emptyEnvelope(), requests: [], unexpected: [], pid: null, fault: `[routecert] no probe driver for ${options.cli.name}` };
  }
  if (options.cli.bin === null) {
    return {
      ...base,
      envelope: emptyEnvelope(),
      requests: [],
      unexpected: [],
      pid: null,
      fault: `[routecert] ${options.cli.name} is not installed: ${options.cli.installHint}.`,
    };
  }
  const bin = options.cli.bin;
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  let server: LoopbackServer | undefined;
  let tap: LiveTap | undefined;
  let root: string | undefined;
  let untrackRoot = (): void => undefined;
  let live: LiveSetup | undefined;
  if (options.live === true) {
    try {
      live = liveSetup(driver, options.env ?? process.env);
    } catch (error) {
      return { ...base, envelope: emptyEnvelope(), requests: [], unexpected: [], pid: null, fault: messageOf(error) };
    }
  }
  const afterRequest = new AbortController();
  let afterRequestTimer: NodeJS.Timeout | undefined;
  let spawnedAt: number | undefined;
  const onRequest = (request: { body: unknown }): void => {
    if (spawnedAt !== undefined && base.firstRequestMs === null) base.firstRequestMs = Math.round(performance.now() - spawnedAt);
    if (options.deadlineAfterRequestMs === undefined || afterRequestTimer !== undefined) return;
    // From the first turn of the conversation: a request of the CLI's own first (opencode asks for a
    // session title) started it once, and under load the turn came after the deadline (CI, 2026-12-03).
    if (driver.isModelTurn !== undefined && !driver.isModelTurn(request.body)) return;
    afterRequestTimer = setTimeout(() => afterRequest.abort(), options.deadlineAfterRequestMs);
  };
  const hideSecret = (text: string): string => (live ? text.split(live.credential).join('<redacted:secret>') : text);
  try {
    // The mock layer (msw) and the tap load here, at the first probe: a command that probes nothing never loads them.
    if (!live) {
      const { startLoopbackServer } = await import('#src/mock/server.ts');
      server = await startLoopbackServer(await driver.handlers(options.scenario, options.payloads ?? DEFAULT_PAYLOADS), { ...(driver.sideRequests ? { side: driver.sideRequests } : {}), onRequest });
    } else if (options.stopAtFirstResponse === true) {
      const { startLiveTap } = await import('#src/probe/liveTap.ts');
      tap = await startLiveTap(live.endpoint, { onFirstResponse: () => afterRequest.abort() });
    }
    // What the CLI is pointed at: the mock, the tap in front of the provider, or the provider itself.
    const target = server ? server.url.replace(/\/+$/, '') : tap ? tap.url : live!.endpoint;
    // Made and registered in one synchronous step: a signal's exit between the two would leave it behind.
    root = mkdtempSync(join(tmpdir(), 'routecert-probe-'));
    untrackRoot = trackTempFolder(root);
    const workspace = { root, home: join(root, 'home'), cwd: join(root, 'work'), tmpDir: join(root, 'tmp') };
    await Promise.all([mkdir(workspace.home, { recursive: true }), mkdir(workspace.cwd), mkdir(workspace.tmpDir)]);
    const prepared = await driver.prepare({
      route: options.route,
      schema: options.schema,
      prompt: options.prompt ?? DEFAULT_PROBE_PROMPT,
      mockUrl: target,
      workspace,
      version: options.cli.version,
      ...(live ? { live: { credentialVar: live.as, host: new URL(target).hostname } } : {}),
      ...(options.model !== undefined ? { model: options.model } : live ? { model: live.model } : {}),
    });
    if (live) {
      prepared.env[live.as] = live.credential;
      base.live = { endpoint: live.endpoint, model: options.model ?? live.model };
    }
    base.argv = prepared.display;

    spawnedAt = performance.now();
    const ran = await supervise({
      argv: [bin, ...prepared.argv],
      env: prepared.env,
      cwd: workspace.cwd,
      ...(prepared.stdin === undefined ? {} : { stdin: prepared.stdin }),
      timeoutMs,
      signal: afterRequest.signal,
    });
    clearTimeout(afterRequestTimer);
    const leftover = ran.reaped.survivors.length > 0 ? `[routecert] ${ran.reaped.survivors.length} process(es) of the run could not be killed: ${ran.reaped.survivors.join(', ')}` : undefined;

    const envelope: Envelope = {
      stdout: hideSecret(ran.stdout),
      stderr: hideSecret(ran.stderr),
      exitCode: ran.exitCode,
      signal: ran.signal,
      timedOut: ran.timedOut,
      elapsedMs: ran.elapsedMs,
    };
    const files: Record<string, string> = {};
    for (const [role, file] of Object.entries(prepared.files ?? {})) {
      const text = await readFile(file, 'utf8').catch(() => undefined);
      if (text !== undefined) files[role] = hideSecret(text);
    }
    if (Object.keys(files).length > 0) envelope.files = files;
    const fault = ran.spawnError !== undefined || ran.pid === null ? `[routecert] could not run ${options.cli.name} (${bin}): ${ran.spawnError ?? 'spawn failed'}` : leftover;
    return {
      ...base,
      envelope,
      ...(tap && base.live ? { live: { ...base.live, firstResponse: tap.firstResponse } } : {}),
      requests: server ? [...server.requests] : tap ? [...tap.requests] : [],
      unexpected: server ? [...server.unexpected] : [],
      pid: ran.pid,
      ...(fault !== undefined ? { fault } : {}),
    };
  } catch (error) {
    return {
      ...base,
      envelope: emptyEnvelope(),
      requests: server ? [...server.requests] : [],
      unexpected: server ? [...server.unexpected] : [],
      pid: null,
      fault: `[routecert] probe could not be carried out: ${messageOf(error)}`,
    };
  } finally {
    clearTimeout(afterRequestTimer);
    await server?.close();
    await tap?.close();
    if (root !== undefined) await rm(root, { recursive: true, force: true }).catch(() => undefined);
    untrackRoot();
  }
}

/**
 * The CLI's startup-rejection line in `stderr`, as its driver reads it (every driver built by
 * `defineRoute` reads it through its route decoder, src/routes/rejection.ts); `null` without a driver.
 */
export function schemaRejectionLine(stderr: string, driver?: ProbeDriver): string | null {
  return driver?.rejectionLine ? driver.rejectionLine(stderr) : null;
}

/**
 * Startup probe: does the CLI accept `schema`? Runs {@link runProbe} with the `final` scenario (so
 * an accepted schema completes at once) and reads the outcome: accepted when the CLI went on to
 * call the model; rejected with the CLI's own line when it refused before any request
 * (Claude Code 2.1.332 validates `--json-schema` with Ajv strict mode at startup: stderr
 * `Error: --json-schema is not a valid JSON Schema: strict mode: unknown keyword: "_meta"`, exit 1).
 *
 * `options.live` (`--live --startup`): the same against the real provider with the credential in
 * `options.env` (@default `process.env`), through the loopback tap, the run reaped at the first
 * body bytes of the provider's 2xx answer to a model call ({@link ProbeOptions}`.stopAtFirstResponse`).
 *
 * Never throws.
 *
 * @example
 * const r = await runStartupProbe(cli, 'claude-code/json', { ...povSchema, _meta: {} });
 * r.schemaAccepted // => false
 * r.rejection // => 'Error: --json-schema is not a valid JSON Schema: strict mode: unknown keyword: "_meta"'
 */
export async function runStartupProbe(
  cli: DiscoveredCli,
  route: string,
  schema: object,
  options: { timeoutMs?: Milliseconds; driver?: ProbeDriver; live?: boolean; env?: NodeJS.ProcessEnv } = {},
): Promise<StartupProbeResult> {
  const driver = options.driver ?? driverFor(cli.name);
  const result = await runProbe({
    cli,
    route,
    scenario: 'final',
    schema,
    ...(driver ? { driver } : {}),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.live === true ? { live: true, stopAtFirstResponse: true, ...(options.env ? { env: options.env } : {}) } : {}),
  });
  const rejection = schemaRejectionLine(result.envelope.stderr, driver);
  // Live: accepted only once the provider's answer to a model call started (the tap saw it).
  const answered = result.live === undefined || result.live.firstResponse === true;
  return {
    ...result,
    schemaAccepted: result.fault === undefined && result.requests.length > 0 && rejection === null && answered,
    rejection,
  };
}
