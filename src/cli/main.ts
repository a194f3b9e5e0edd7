/**
 * The `routecert` command: parses arguments (commander) and calls the engine. Thin by design: every
 * command is a library function that returns an exit code; only bin/routecert.js sets it. The
 * commands and their options are the table of ./commandTable.ts (which also writes the README's
 * command table). Command modules are imported lazily, so `--help` and one command load only what
 * they use.
 *
 * Exit codes: 0 all conform; 1 a conformance failure (or lint findings, or a regression in `diff`);
 * 2 usage or configuration error (also: a filter or folder that selects nothing); 3 the run could
 * not be carried out.
 */
import { Command, CommanderError, Option } from 'commander';
import { PACKAGE_VERSION } from '#src/paths.ts';
import { BIN, COMMANDS, PROGRAM, type CommandSpec, type OptionSpec } from './commandTable.ts';
import { applyColourEnv } from './options.ts';
import { hideSecretsFrom, redactedLines, type RedactedLines } from '#src/diagnostics/redact.ts';
import { terminalSafe } from '#src/diagnostics/terminal.ts';
import { StringDecoder } from 'node:string_decoder';
import { describeThrown } from '#src/diagnostics/thrown.ts';
import { interrupt, interruption, mustExitWhenDone, reapEverything, signalExitCode } from '#src/process/interrupt.ts';
import { providePackageModule } from '#src/harness/certify/configFile.ts';
import { liveSecrets } from '#src/probe/live.ts';
import { procStat, sigintCatcherWakeups } from '#src/process/reap.ts';
import { numericVariablesProblem } from '#src/envNumbers.ts';
import { readFileSync } from 'node:fs';

let consoleRedacted = false;
/** The console's line redactors (stdout, stderr), flushed when a command ends and at exit. */
const consoleLines: RedactedLines[] = [];

/**
 * Every byte routecert prints goes through the one redaction of output (src/diagnostics/redact.ts
 * `redactOutput`), whichever module printed it: stdout and stderr are wrapped once per process, and
 * redacted a whole line at a time (`redactedLines`), so a secret printed in two writes (a key, then
 * its value; a CLI's output echoed as it arrives) is hidden as a whole. What waits for its line end
 * is written when the command ends, at exit, or after 100 ms without a write. Before that, the
 * control characters of what others wrote (a case's description, a CLI's stderr) are shown, not sent
 * to the terminal (src/diagnostics/terminal.ts `terminalSafe`), write by write: the progress line's
 * own `\r ESC[K` is known by starting a write.
 */
function redactConsole(): void {
  if (consoleRedacted) return;
  consoleRedacted = true;
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    const decoder = new StringDecoder('utf8');
    const lines = redactedLines((text) => {
      write(text);
    });
    consoleLines.push(lines);
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      const encoding = typeof rest[0] === 'string' ? (rest[0] as BufferEncoding) : undefined;
      const text =
        typeof chunk === 'string' ? (encoding === undefined || /^utf-?8$/i.test(encoding) ? chunk : decoder.write(Buffer.from(chunk, encoding))) : chunk instanceof Uint8Array ? decoder.write(Buffer.from(chunk)) : null;
      if (text === null) return write(chunk, ...rest);
      lines.write(terminalSafe(text));
      const callback = rest.find((r) => typeof r === 'function') as ((error?: Error | null) => void) | undefined;
      if (callback) process.nextTick(callback);
      return true;
    }) as typeof stream.write;
  }
  process.on('exit', flushConsole);
}

/** Write what the console's line redactors hold (a partial last line, a held PEM key). */
function flushConsole(): void {
  for (const lines of consoleLines) lines.flush();
}

let crashesRedacted = false;

/**
 * An error nothing caught (a reporter's timer that throws, a promise nobody awaited) is printed by
 * Node itself, straight to file descriptor 2, past the redaction of the console: routecert prints
 * it instead, redacted, in one line (the stack only with ROUTECERT_DEBUG=1), and exits 3, as for
 * any other internal error.
 */
function redactCrashes(): void {
  if (crashesRedacted) return;
  crashesRedacted = true;
  const crash = (error: unknown): void => {
    const detail = describeThrown(error, { stack: Boolean(process.env.ROUTECERT_DEBUG) });
    process.stderr.write(`[routecert] internal error (uncaught): ${detail}\n`);
    process.exit(3);
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
}

/** How long an interrupted run may take to reap and write its partial report before it exits anyway (ms). */
const INTERRUPT_BOUND_MS = 15_000;
let signalsHandled = false;

/**
 * SIGINT and SIGTERM (issue 23 point 6): the first stops the run (no new case, probe or worker
 * starts), reaps every process group routecert started, and lets the command write a partial
 * report marked `interrupted`; the exit code is 130 (SIGINT) or 143 (SIGTERM). A second signal, or
 * {@link INTERRUPT_BOUND_MS} without an end, exits at once (the exit hook of src/process/reap.ts
 * SIGKILLs what is left). Started by npm (`npx routecert`, an npm script), routecert also stops when
 * the process that started it goes away, or when the shell npm runs it through takes a SIGINT
 * (what npm does with a SIGINT to npx alone): npx signalled alone does not leave the run behind.
 */
function handleSignals(): void {
  if (signalsHandled) return;
  signalsHandled = true;
  const stop = (signal: 'SIGINT' | 'SIGTERM', why: string): void => {
    if (interruption()) {
      process.exit(signalExitCode(interruption()!));
    }
    interrupt(signal);
    process.stderr.write(`[routecert] ${why}: stopping, reaping every process routecert started and writing a partial report\n`);
    void reapEverything();
    setTimeout(() => process.exit(signalExitCode(signal)), INTERRUPT_BOUND_MS).unref();
  };
  process.on('SIGINT', () => stop('SIGINT', 'SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM', 'SIGTERM'));
  if (process.env.npm_command !== undefined || process.env.npm_execpath !== undefined) {
    const watched = npmAncestors();
    const shell = watched.find((w) => w.pid !== process.pid)?.pid;
    // SIGINT to npx alone: npm forwards it to the shell, which keeps it until routecert ends. The
    // shell wakes for it, though (it sleeps on routecert alone): a wake is that SIGINT, unless
    // routecert was stopped and continued (Ctrl-Z, fg), which wakes the shell too (SIGCHLD).
    let wakes = shell === undefined ? null : sigintCatcherWakeups(shell);
    let woken = 0;
    let continued = 0;
    process.on('SIGCONT', () => {
      continued = Date.now();
    });
    setInterval(() => {
      if (interruption()) return;
      const gone = watched.find((w) => (w.pid === process.pid ? process.ppid : procStat(w.pid)?.ppid) !== w.ppid);
      if (gone !== undefined) return stop('SIGTERM', `the process that started routecert (pid ${gone.ppid}) is gone`);
      if (shell === undefined || wakes === null) return;
      const now = sigintCatcherWakeups(shell);
      if (now === null || now === wakes) return;
      // Decided one tick later, so a SIGCONT handled after this tick still counts.
      if (woken === 0) {
        woken = Date.now();
        return;
      }
      if (continued >= woken - 1000) {
        wakes = now;
        woken = 0;
        return;
      }
      stop('SIGINT', `SIGINT to the shell npm runs routecert through (pid ${shell}; npm forwards a SIGINT to npx there)`);
    }, 250).unref();
  }
}

/**
 * The links to watch between routecert and the npm process that started it, each a pid and the
 * parent it must keep: routecert and its parent, and, when that parent is the shell npm runs a
 * script or `npx` command through (`sh -c <command>`), the shell and npm too. SIGKILL to `npx`
 * leaves that shell waiting on routecert (routecert's own parent never changes): the shell's does.
 */
function npmAncestors(): { pid: number; ppid: number }[] {
  const watched = [{ pid: process.pid, ppid: process.ppid }];
  let argv: string[];
  try {
    argv = readFileSync(`/proc/${process.ppid}/cmdline`, 'utf8').split('\0');
  } catch {
    return watched;
  }
  const shell = /(^|\/)(sh|bash|dash|zsh|ash)$/.test(argv[0] ?? '') && argv[1] === '-c';
  const npm = procStat(process.ppid)?.ppid;
  if (shell && npm !== undefined && npm > 1) watched.push({ pid: process.ppid, ppid: npm });
  return watched;
}

/**
 * A reader that closes the pipe early (`routecert run | head -1`) is no failure of the run: the
 * output it no longer wants is dropped (EPIPE on stdout or stderr), the run goes on, and its exit
 * code stays the verdict's. Any other stream error is thrown as before.
 */
function ignoreClosedPipes(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
  }
}

/** The commander option of a table entry. */
function optionOf(spec: OptionSpec): Option {
  const option = new Option(spec.flags, spec.description);
  if (spec.parse !== undefined) option.argParser(spec.parse as (value: string, previous: unknown) => unknown);
  if (spec.choices !== undefined) option.choices(spec.choices);
  if (spec.default !== undefined) option.default(spec.default);
  return option;
}

/** Adds one command of the table to `program`; its action stores the exit code through `done`. */
function addCommand(program: Command, spec: CommandSpec, argv: readonly string[], done: (code: number) => void): void {
  const command = program.command(spec.name).description(spec.description);
  for (const argument of spec.arguments ?? []) command.argument(argument.name, argument.description);
  for (const option of spec.options) command.addOption(optionOf(option));
  if (spec.helpAfter !== undefined) command.addHelpText('after', spec.helpAfter);
  command.action(async (...received: unknown[]) => {
    // commander passes the positional arguments, then the options, then the command.
    const args = received.slice(0, (spec.arguments ?? []).length);
    const opts = received[args.length] as object;
    // One check of the named candidate CLIs for every command that takes --bin, before it starts:
    // a --bin name or ROUTECERT_BIN_<NAME> of no CLI, or a candidate that cannot be run, is exit 2.
    if (spec.options.includes(BIN)) {
      const { candidateProblems } = await import('./probeTarget.ts');
      const problems = await candidateProblems((opts as { bin?: Record<string, string> }).bin ?? {});
      if (problems.length > 0) {
        process.stderr.write(`${problems.join('\n')}\n`);
        return done(2);
      }
    }
    done(await spec.run({ args, opts, argv }));
  });
}

/**
 * Run the command line `argv` (without `node` and the script).
 *
 * @returns the exit code.
 */
export async function main(argv: string[]): Promise<number> {
  try {
    return await command(argv);
  } finally {
    // A partial last line the console held for its line end is written before the command returns.
    flushConsole();
  }
}

/** {@link main} without the final flush of the console. */
async function command(argv: string[]): Promise<number> {
  applyColourEnv(process.env, argv);
  // A compiled config's `import ... from 'routecert'` gets the running package entry, not a second copy.
  providePackageModule(() => import('#src/index.ts'));
  // Every output hides the credential values the routes declare.
  hideSecretsFrom(liveSecrets);
  ignoreClosedPipes();
  redactConsole();
  redactCrashes();
  handleSignals();
  // A setting of the environment that cannot be used is refused before any command runs.
  // Numeric variables (a limit, a timeout, the fuzz seed and runs): an invalid value is refused
  // before any command runs, exit 2, never replaced by the default nor left to a command to throw.
  const badVariable = numericVariablesProblem();
  if (badVariable !== null) {
    process.stderr.write(`[routecert] ${badVariable}\n`);
    return 2;
  }
  let exitCode = 0;
  const program = new Command()
    .name(PROGRAM.name)
    .version(PACKAGE_VERSION, PROGRAM.versionFlags, PROGRAM.versionDescription);
  for (const option of PROGRAM.options) program.addOption(optionOf(option));
  program
    .description(PROGRAM.description)
    .showHelpAfterError(PROGRAM.helpAfterError)
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s), writeOut: (s) => process.stdout.write(s) });
  program.addHelpText('after', PROGRAM.helpAfter);
  for (const spec of COMMANDS) {
    addCommand(program, spec, argv, (code) => {
      exitCode = code;
    });
  }

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // `routecert` with no command prints the help on stderr as a usage error (commander's exit
      // code 1 there): exit 2, so a script whose command word went missing does not pass.
      if (error.code === 'commander.help') return error.exitCode === 0 ? 0 : 2;
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
      return 2;
    }
    // A config or usage problem that reached here still gets its message and exit 2; anything else
    // is routecert's own fault: one line naming it, the stack only with ROUTECERT_DEBUG=1.
    // routecert's own refusals (a code ROUTECERT_*) are said plainly too.
    const e = error as Error & { code?: unknown };
    if (e?.name === 'ContractDefinitionError' || e?.name === 'CertifyConfigError' || e?.name === 'UsageError' || (typeof e?.code === 'string' && e.code.startsWith('ROUTECERT_'))) {
      process.stderr.write(`${e.message.startsWith('[routecert]') ? e.message : `[routecert] ${e.message}`}\n`);
      return exitAfter(2);
    }
    const detail = process.env.ROUTECERT_DEBUG ? (e?.stack ?? String(error)) : (e?.message ?? String(error));
    process.stderr.write(`[routecert] internal error: ${detail}\n${process.env.ROUTECERT_DEBUG ? '' : '(ROUTECERT_DEBUG=1 prints the stack; please report it with the command line)\n'}`);
    return exitAfter(3);
  }
  return exitAfter(exitCode);
}

/**
 * The exit code, and, when the run was interrupted or left work behind (a config that never
 * finished loading), the end of the process: nothing still pending may keep it alive.
 */
function exitAfter(code: number): number {
  const signal = interruption();
  const final = signal ? signalExitCode(signal) : code;
  if (mustExitWhenDone()) process.exit(final);
  return final;
}
