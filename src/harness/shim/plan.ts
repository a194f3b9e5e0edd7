/**
 * The protocol between routecert and its fake CLIs: the plan a fake CLI replays and the records it
 * leaves. Both are JSON (schemas/shim.schema.json, `version` 1), so a worker's test in any language
 * can read the records.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Milliseconds } from '#src/envelope/types.ts';

/** The version of the plan and record shapes; both carry it. */
export const SHIM_PROTOCOL_VERSION = 1;

/** One write of a replayed attempt: `data` to `stream`, after waiting `delayMs` (ms). */
export interface ShimChunk {
  stream: 'stdout' | 'stderr';
  data: string;
  delayMs?: Milliseconds;
}

/**
 * What a fake CLI does on one call.
 *
 * - `stdout`, `stderr`: written whole (stdout first) unless `chunks` is given, which replaces them.
 * - `chunks`: writes in order, each after its delay, to exercise idle detection and buffering.
 * - `delayMs`: wait after writing, before exiting (ms): a slow attempt.
 * - `exitCode`: the exit code (`null` = 0 unless `signal`).
 * - `signal`: after writing, the CLI kills itself with this signal (a crash).
 * - `hang`: after writing, never exit (bounded by {@link ShimPlan.maxHangMs}); `{ children: n }`
 *   first starts `n` grandchildren in the CLI's process group, holding its stdout and stderr open
 *   and ignoring SIGTERM, that only SIGKILL to the process group ends (the attempt is played once
 *   they are in place).
 * - `files`: side files the CLI writes, by role (`last-message`: codex's `-o` file), as recorded in
 *   the case; written where the CLI's `sideFiles` flag points, after stdout, before the exit.
 * - `source`: where the attempt comes from (e.g. `case 7bf248a52d729d8e attempt 0`), echoed in the record.
 */
export interface ShimAttempt {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  signal?: string | null;
  chunks?: ShimChunk[];
  delayMs?: Milliseconds;
  hang?: boolean | { children: number };
  files?: Record<string, string>;
  source?: string;
}

/**
 * The plan of every fake CLI of one install.
 *
 * - `clis`: per CLI name, its `version` (printed for `--version`), its `attempts` (call N replays
 *   attempt N) and what to do past the last one: `fail` (exit 96 with a message; default) or
 *   `repeat-last`. A CLI without an entry exits 127 with a message (and is recorded).
 *   `sideFiles`: side-file role -> the flags whose value is where the CLI writes it (from the
 *   route definition: codex `last-message` -> `-o`, `--output-last-message`); `argFiles`: flags
 *   whose value is a file the CLI reads (codex `--output-schema`), recorded with its content.
 * - `secrets`: values never written to the records (replaced by `<redacted:secret>`); environment
 *   variables whose names look secret (`*KEY*`, `*TOKEN*`, ...) are always redacted.
 * - `promptFileFlags`: flags whose value is a prompt file to record (default `--prompt-file`);
 *   when one is given the fake CLI does not read stdin (grok-cli's `--prompt-file` route).
 * - `maxHangMs`: the longest a hanging fake CLI or grandchild lives, a safety net (default 120000 ms).
 */
export interface ShimPlan {
  version: typeof SHIM_PROTOCOL_VERSION;
  clis: Record<string, { version: string; attempts: ShimAttempt[]; exhausted?: 'fail' | 'repeat-last'; sideFiles?: Record<string, string[]>; argFiles?: string[] }>;
  secrets: string[];
  promptFileFlags?: string[];
  maxHangMs?: Milliseconds;
}

/** Fields of every record: the fake CLI's name, pid, process group and start time (Linux `/proc`; `null` elsewhere). */
interface ShimRecordBase {
  v: typeof SHIM_PROTOCOL_VERSION;
  cli: string;
  pid: number;
  pgid: number | null;
  startTicks: number | null;
  at: string;
}

/**
 * One call of a fake CLI.
 * - `attempt`: 0-based index among this CLI's calls;
 * - `argv`: the arguments after the executable, secrets redacted;
 * - `stdin`: what it read from stdin (empty when a prompt file was given);
 * - `promptFile`: the `--prompt-file` value and its content when the call was made (`null` content: unreadable);
 * - `argFiles`: for each `argFiles` flag of the plan given in argv, its value and the file's content
 *   when the call was made (`null`: unreadable); absent when none was given;
 * - `env`: the environment, secrets redacted;
 * - `source`: the replayed attempt's `source`.
 */
export interface ShimCallRecord extends ShimRecordBase {
  kind: 'call';
  attempt: number;
  argv: string[];
  cwd: string;
  stdin: string;
  promptFile: { path: string; content: string | null } | null;
  argFiles?: { flag: string; path: string; content: string | null }[];
  env: Record<string, string>;
  source: string | null;
}

/** A `--version` call (not counted as an attempt). */
export interface ShimVersionRecord extends ShimRecordBase {
  kind: 'version';
  argv: string[];
}

/**
 * A grandchild a hanging fake CLI started in its process group. `ignoresSigterm`: it ignores
 * SIGTERM, so only SIGKILL to the group ends it (recorded once the signal is ignored).
 */
export interface ShimChildRecord extends ShimRecordBase {
  kind: 'child';
  attempt: number;
  parentPid: number;
  ignoresSigterm?: boolean;
}

/** Any line of `calls.jsonl`; switch on `kind`. */
export type ShimRecord = ShimCallRecord | ShimVersionRecord | ShimChildRecord;

/**
 * Read the records of a fake-CLI state folder, in the order they were written. A missing file is
 * `[]`; a line that is not JSON (a record cut short by a kill) is skipped.
 */
export async function readShimRecords(stateDir: string): Promise<ShimRecord[]> {
  let text: string;
  try {
    text = await readFile(path.join(stateDir, 'calls.jsonl'), 'utf8');
  } catch {
    return [];
  }
  const records: ShimRecord[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      records.push(JSON.parse(line) as ShimRecord);
    } catch {
      // a partial line: the writer was killed mid-write
    }
  }
  return records;
}

/** The prompt a call received: the prompt file's content when one was given, else stdin. */
export function promptOf(call: ShimCallRecord): string {
  return call.promptFile?.content ?? call.stdin;
}
