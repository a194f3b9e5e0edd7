/**
 * What every consumer adapter shares: its arguments, the caller's deadline, where the fake CLI is,
 * and the outcome file routecert checks (src/harness/certify/consumer.ts, `ConsumerOutcome`).
 *
 * An adapter is the smallest program a user of the consumer would write: it calls the consumer's
 * public API once, as the consumer's README shows, and reports what it got. It never parses the
 * CLI's output itself.
 *
 * Usage: node adapter.mjs <schema-file> <prompt-file> <outcome-file>
 * Environment: CONSUMER_DEADLINE_S (the caller's deadline in whole seconds; routecert's hard window);
 * CONSUMER_CLI_PATH (the real CLI, for the hermetic probe against routecert's provider mock).
 */
import { readFileSync, writeFileSync, accessSync, constants } from 'node:fs';
import path from 'node:path';

/** When the adapter started calling the consumer (set by {@link inputs}, read by {@link report}). */
let calledAt = Date.now();

/**
 * The adapter's inputs: the schema (parsed), the prompt text, the outcome path, the deadline (ms).
 * Called right before the consumer is called: the caller's clock starts here.
 */
export function inputs() {
  const [schemaFile, promptFile, outFile] = process.argv.slice(2);
  if (!schemaFile || !promptFile || !outFile) {
    process.stderr.write('usage: node adapter.mjs <schema-file> <prompt-file> <outcome-file>\n');
    process.exit(2);
  }
  const deadlineS = Number(process.env.CONSUMER_DEADLINE_S ?? '600');
  calledAt = Date.now();
  return {
    schema: JSON.parse(readFileSync(schemaFile, 'utf8')),
    prompt: readFileSync(promptFile, 'utf8'),
    outFile,
    deadlineMs: (Number.isFinite(deadlineS) && deadlineS > 0 ? deadlineS : 600) * 1000,
  };
}

/** The first executable `name` on PATH (routecert's fake CLI stands alone there). */
export function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  throw new Error(`${name} is not on PATH`);
}

/**
 * The CLI the consumer is pointed at: CONSUMER_CLI_PATH when routecert runs the real CLI against
 * its provider mock (the hermetic probe), else `name` on PATH (routecert's fake CLI).
 */
export function cliPath(name) {
  return process.env.CONSUMER_CLI_PATH || onPath(name);
}

/**
 * Write the outcome file (with `elapsedMs`, the caller's time from the call to the consumer's
 * return), log one line, and exit 0 (the adapter reports; routecert judges).
 */
export function report(outFile, outcome) {
  writeFileSync(outFile, `${JSON.stringify({ ...outcome, elapsedMs: Date.now() - calledAt })}\n`);
  process.stderr.write(`[consumer-adapter] ${outcome.consumer}: ${outcome.kind}${outcome.error ? `: ${outcome.error.message}` : ''}\n`);
  process.exit(0);
}

/**
 * An outcome for a thrown value: its name, its message and, when the error carries one as a field
 * (an AI SDK `APICallError`'s `statusCode`, a `status`), the HTTP status the caller can read.
 */
export function errorOutcome(consumer, error) {
  const e = error instanceof Error ? error : new Error(String(error));
  // An AI SDK APICallError keeps the CLI's stderr in `data`/`cause`: only what the caller's
  // message shows counts, so the message alone is reported, with a status field the error carries.
  const status = [e.statusCode, e.status].find((v) => Number.isInteger(v));
  return { kind: 'error', consumer, error: { name: e.name, message: e.message, ...(status !== undefined ? { status } : {}) } };
}

/** The installed version of `pkg` (from its package.json next to this adapter). */
export function versionOf(dir, pkg) {
  return JSON.parse(readFileSync(path.join(dir, 'node_modules', pkg, 'package.json'), 'utf8')).version;
}
