/**
 * What the hermetic probe files (probes/*.test.ts) share: finding the pinned CLI and skipping with a
 * visible reason when it is missing (`npm run probes:install`), reading the schema a probe sends,
 * reading stdout as JSON lines, and the assertions every `stall` probe makes. Not a test file: the
 * probes project includes `probes/**\/*.test.ts` only.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PAYLOADS, PROSE_ONLY_TEXT, fencedText, withoutFinal, type ScenarioName } from '../src/mock/index.ts';
import { discoverCli, type CliName, type DiscoveredCli, type ProbeResult } from '../src/probe/index.ts';
import { STALL_AFTER_REQUEST_MS } from '../src/routes/plans/shared.ts';

export type Json = Record<string, unknown>;

/** A schema under schemas/contracts/ (@default the production pov schema). */
export function readContractSchema(name = 'pov.schema.json'): Json {
  return JSON.parse(readFileSync(new URL(`../schemas/contracts/${name}`, import.meta.url), 'utf8')) as Json;
}

/**
 * Options of {@link discoverProbeCli}.
 * - `file`: the probe file's name (`claude.test.ts`), for the warning;
 * - `label`: how the reason names the CLI; @default `name`;
 * - `pinned`: what the install command installs (`Claude Code`);
 * - `bin`: the executable, when it is not `name`.
 */
export interface ProbeCliOptions {
  file: string;
  label?: string;
  pinned: string;
  bin?: string;
}

/**
 * Discover `name` and the reason its probes skip when it is not installed (also printed as a
 * warning, so a skipped probe file is visible in the run's output).
 *
 * @example
 * const { cli, skipReason } = await discoverProbeCli('claude', { file: 'claude.test.ts', pinned: 'Claude Code' });
 */
export async function discoverProbeCli(name: CliName, options: ProbeCliOptions): Promise<{ cli: DiscoveredCli; skipReason: string }> {
  const cli = await discoverCli(name, options.bin === undefined ? {} : { bin: options.bin });
  const skipReason = `${options.label ?? name} is not installed: run \`${cli.installHint}\` to install the pinned ${options.pinned}`;
  if (!cli.bin) console.warn(`[routecert] probes/${options.file} skipped: ${skipReason}`);
  return { cli, skipReason };
}

/** When `cli` is not installed, a skipped suite `<title>: <skipReason>` with one skipped test named by the reason. */
export function skipUnlessInstalled(cli: DiscoveredCli, title: string, skipReason: string): void {
  if (!cli.bin) {
    describe.skip(`${title}: ${skipReason}`, () => {
      it(skipReason, () => undefined);
    });
  }
}

/** Every stdout line that parses as a JSON object; other lines (blank, text, arrays) are left out. */
export function jsonObjectLines(result: ProbeResult): Json[] {
  return result.envelope.stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .flatMap((l) => {
      try {
        const v = JSON.parse(l) as unknown;
        return typeof v === 'object' && v !== null && !Array.isArray(v) ? [v as Json] : [];
      } catch {
        return [];
      }
    });
}

/** Every non-blank stdout line parsed as JSON; a line that is not JSON throws (JSONL framing is asserted). */
export function jsonLines(result: ProbeResult): Json[] {
  return result.envelope.stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Json);
}

/**
 * A completed run against the chat-completions mock: no fault, no timeout, nothing reached the 501
 * catch-all, and every request is `POST /v1/chat/completions` with the redacted key and `model`;
 * with `someRequests: true` (@default) at least one request was made.
 */
export function expectChatCompletionsRun(r: ProbeResult, model: string, { someRequests = true }: { someRequests?: boolean } = {}): void {
  expect(r.fault).toBeUndefined();
  expect(r.envelope.timedOut).toBe(false);
  expect(r.unexpected, 'no request reached the 501 catch-all').toEqual([]);
  if (someRequests) expect(r.requests.length).toBeGreaterThan(0);
  for (const q of r.requests) {
    expect(`${q.method} ${q.path}`).toBe('POST /v1/chat/completions');
    expect(q.headers.authorization).toBe('<redacted>');
    expect((q.body as Json).model).toBe(model);
  }
}

/**
 * The text the mock answers for each text scenario, as a CLI without a schema flag passes it
 * through: the JSON of the payload(s), the prose, or the fenced answer.
 */
export const TEXT_ANSWERS: Partial<Record<ScenarioName, string>> = {
  final: JSON.stringify(DEFAULT_PAYLOADS.final),
  'placeholder-then-final': `${JSON.stringify(DEFAULT_PAYLOADS.placeholder)}\n\n${JSON.stringify(DEFAULT_PAYLOADS.final)}`,
  'nonfinal-only': JSON.stringify(DEFAULT_PAYLOADS.placeholder),
  'missing-final': JSON.stringify(withoutFinal(DEFAULT_PAYLOADS.final)),
  'prose-only': PROSE_ONLY_TEXT,
  fenced: fencedText(DEFAULT_PAYLOADS.final),
};

/**
 * The deadlines of a `stall` probe, as the route plans set them (src/routes/plans/shared.ts
 * `stallProbe`): the run is reaped {@link STALL_AFTER_REQUEST_MS} after the CLI's first request
 * reached the stalled mock, so the CLI's start-up (1-25 s on a loaded 2-core machine) is never raced;
 * `capMs`, the hard deadline counted from spawn, only ends a CLI that never reaches the mock (pass
 * the file's deadline of a whole run).
 */
export function stallDeadlines(capMs: number): { timeoutMs: number; deadlineAfterRequestMs: number } {
  return { timeoutMs: capMs, deadlineAfterRequestMs: STALL_AFTER_REQUEST_MS };
}

/**
 * What every `stall` probe (run with {@link stallDeadlines}) asserts first: no run fault, the CLI
 * reached the mock, the deadline fired no earlier than {@link STALL_AFTER_REQUEST_MS} after that
 * request and the run was reaped; with `exitCode: true` (@default) also that it ended by a signal or
 * a non-zero code of its own.
 */
export function expectKilledAtDeadline(r: ProbeResult, { exitCode = true }: { exitCode?: boolean } = {}): void {
  expect(r.fault).toBeUndefined();
  expect(r.envelope.timedOut).toBe(true);
  expect(r.firstRequestMs, 'the CLI reached the stalled mock before the deadline').not.toBeNull();
  // Timers fire no earlier than asked; 50 ms of slack for the clocks' rounding.
  expect(r.envelope.elapsedMs).toBeGreaterThanOrEqual((r.firstRequestMs ?? 0) + STALL_AFTER_REQUEST_MS - 50);
  // Reaped with SIGTERM, then SIGKILL after a grace (src/process/reap.ts). A CLI that handles
  // SIGTERM exits with a code of its own instead: Claude Code 2.1.332 143, Gemini CLI 0.61.0 and
  // grok-cli 0.0.34 exit 0 (measured in CI). `timedOut` is what makes the verdict `timeout`.
  if (exitCode) {
    if (r.envelope.exitCode === null) expect(['SIGTERM', 'SIGKILL']).toContain(r.envelope.signal);
    else expect(Number.isInteger(r.envelope.exitCode)).toBe(true);
  }
}

/** Poll until the process group is gone (zombies are reaped by init shortly after SIGKILL). */
export async function groupGone(pgid: number, withinMs = 2_000): Promise<boolean> {
  const until = Date.now() + withinMs;
  for (;;) {
    try {
      process.kill(-pgid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') return true;
    }
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The probe had a process group and it is gone after the kill. */
export async function expectGroupGone(r: ProbeResult): Promise<void> {
  expect(r.pid).not.toBeNull();
  expect(await groupGone(r.pid!)).toBe(true);
}
