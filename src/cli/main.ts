/**
 * The `routecert` command: parses arguments (commander) and calls the engine. Thin by design: every
 * command is a library function that returns an exit code; only bin/routecert.js sets it. Command
 * modules are imported lazily, so `--help` and one command load only what they use.
 *
 * Exit codes: 0 all conform; 1 a conformance failure (or lint findings, or a regression in `diff`);
 * 2 usage or configuration error (also: a filter or folder that selects nothing); 3 the run could
 * not be carried out.
 */
import { Command, CommanderError, Option } from 'commander';
import { PACKAGE_VERSION } from '#src/paths.ts';
import { applyColourEnv, integerOption, outputFileOption, reporterOption, shardOption } from './options.ts';
import { REPORTER_NAMES } from '#src/report/names.ts';
import { redactOutput } from '#src/record/redact.ts';
import { interrupt, interruption, mustExitWhenDone, reapEverything, signalExitCode } from '#src/process/interrupt.ts';

let consoleRedacted = false;

/**
 * Every byte routecert prints goes through the one redaction of output (src/record/redact.ts
 * `redactOutput`), whichever module printed it: stdout and stderr are wrapped once per process.
 */
function redactConsole(): void {
  if (consoleRedacted) return;
  consoleRedacted = true;
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      const text = typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : null;
      return write(text === null ? chunk : redactOutput(text), ...rest);
    }) as typeof stream.write;
  }
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
 * the process that started it goes away: npx signalled alone does not leave the run behind.
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
    const parent = process.ppid;
    setInterval(() => {
      if (process.ppid !== parent && !interruption()) stop('SIGTERM', `the process that started routecert (pid ${parent}) is gone`);
    }, 250).unref();
  }
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

/** Collect a repeatable option into an array. */
function collect(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(',').map((v) => v.trim()).filter(Boolean)];
}

/**
 * Run the command line `argv` (without `node` and the script).
 *
 * @returns the exit code.
 */
export async function main(argv: string[]): Promise<number> {
  applyColourEnv();
  ignoreClosedPipes();
  redactConsole();
  handleSignals();
  let exitCode = 0;
  const program = new Command()
    .name('routecert')
    .version(PACKAGE_VERSION, '-V, --version', 'print the routecert version')
    .option('--color', 'colours even when the output is not a terminal (also FORCE_COLOR=1)')
    .option('--no-color', 'no colours (also NO_COLOR=1 or FORCE_COLOR=0)')
    .description(
      'Conformance harness for structured output from model CLIs run headless.\n' +
        'Replays recorded envelopes, judges them by contract, probes the real installed CLIs hermetically.',
    )
    .showHelpAfterError('(`routecert --help` lists the commands; `routecert <command> --help` the options of one, e.g. `routecert run --help`)')
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s), writeOut: (s) => process.stdout.write(s) });
  program.addHelpText(
    'after',
    '\nExit codes: 0 all conform, 1 a conformance failure (diff: a regression), 2 usage or configuration error (also a filter or folder that selects nothing), 3 the run could not be carried out.',
  );

  program
    .command('run')
    .description('Judge every corpus case (and probe installed CLIs hermetically); write reports/<run>/report.json, junit.xml, summary.md, report.html')
    .option('--config <file>', 'your routecert config (contracts, cases, worker); default: ./routecert.config.* when present')
    .option('--cases <dir>', 'folder of case files (default: the config\'s cases, else the bundled fixtures/cases)')
    .option('--case <id>', 'run only this case id (a prefix is enough); repeatable', collect)
    .option('--route <route>', 'only this route or CLI (claude-code, claude-code/json); repeatable', collect)
    .option('--contract <name>', 'only cases of this contract; repeatable', collect)
    .option('--tag <tag>', 'only cases with this tag; repeatable', collect)
    .option('--reports <dir>', 'parent folder of the run folder', 'reports')
    .option('--no-probes', 'do not probe installed CLIs, replay the corpus only')
    .option('--no-certify', 'do not certify the bundled reference worker with fake CLIs (also off with --no-probes)')
    .option('--bin <cli=path>', 'run this binary (or npm prefix folder) of <cli> instead of the pinned one; repeatable; also ROUTECERT_BIN_<CLI>', collect)
    .option('--probe-timeout <ms>', 'deadline of one probe run in ms', integerOption(1, 'ms'), 60_000)
    .option('--quiet', 'print only cases that do not pass, and the summary')
    .option('--max-case-mb <MiB>', 'largest case file to load, in MiB (default 256; Node cannot read one over 512)', (v) => Number(v))
    .option('--reporter <name>', `reporter instead of the defaults (default, json, junit, markdown, html; github on GitHub Actions); repeatable. One of: ${REPORTER_NAMES.join(', ')}`, reporterOption)
    .option('--output-file <[reporter=]path>', 'file of a reporter instead of the run folder, e.g. junit=ci/junit.xml; repeatable', outputFileOption)
    .option('--shard <i/n>', 'run only shard i of n (cases and probes split by id); join the reports with `routecert merge-reports`', shardOption)
    .option('--no-progress', 'no progress line (on a terminal) or periodic progress lines (in CI)')
    .option('--full-values', 'keep every answer value and long text whole in the reports (default: over 64 KiB or 64 levels deep, a typed preview with its size and SHA-256)')
    .option(
      '--generic <route=spec>',
      'decode cases of <route> with the generic decoder, reading the answer where <spec> says (see below); repeatable',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .addHelpText(
      'after',
      '\nGeneric route (any other CLI): <spec> is parts joined by ";":\n' +
        '  pointer=<JSON Pointer>   the answer is at this RFC 6901 pointer in the terminal object\n' +
        '  key=<name>               the answer is under this key (any spelling: snake, camel, Pascal, kebab)\n' +
        '  event=<field>=<value>    the terminal object is the last JSONL event whose field reads value\n' +
        '  text                     also scan the whole stdout as free text\n' +
        'Example: routecert run --cases my-cases --generic "mycli/json=event=type=result;pointer=/answer"\n' +
        'A case file whose route is "generic:<spec>" (e.g. "generic:key=structuredOutput") needs no flag.',
    )
    .action(async (opts) => {
      const { runCommand } = await import('./commands/run.ts');
      exitCode = await runCommand(opts, ['run', ...argv.slice(1)].join(' '));
    });

  program
    .command('init')
    .description('Write a starter routecert.config.ts (a contract per schema file, the CLIs found) and cases/ that `routecert run` passes')
    .option('--schemas <folder>', 'your production schemas (*.schema.json, else *.json); default: an example schema')
    .option('--json', 'write routecert.config.json instead (the same shape, for teams without TypeScript)')
    .option('--force', 'overwrite files that exist (never done without it)')
    .action(async (opts) => {
      const { initCommand } = await import('./commands/init.ts');
      exitCode = await initCommand(opts);
    });

  program
    .command('record')
    .description('Probe a real CLI hermetically for each scenario and write each envelope as a redacted case file')
    .option('--cli <name>', 'the CLI to record', 'claude')
    .option('--route <route>', 'only this route; repeatable', collect)
    .option('--scenario <name>', 'only this scenario; repeatable', collect)
    .option('--out <dir>', 'folder for the case files', 'fixtures/cases')
    .option('--force', 'overwrite a case file that exists (never done without it)')
    .option('--fix-ids', 'recompute the content-hash id of every case under --out instead of recording')
    .option('--bin <cli=path>', 'run this binary (or npm prefix folder) of <cli> instead of the pinned one; repeatable; also ROUTECERT_BIN_<CLI>', collect)
    .option('--allow-unsupported', 'record a CLI version outside the supported range (see probe --list) anyway')
    .option('--live', 'record the final plan against the REAL provider with the credentials in the environment (costs money; redacted)')
    .option('--probe-timeout <ms>', 'deadline of one probe run in ms', integerOption(1, 'ms'), 60_000)
    .action(async (opts) => {
      const { recordCommand } = await import('./commands/record.ts');
      exitCode = await recordCommand(opts);
    });

  program
    .command('probe')
    .description('List the known CLIs and whether they are installed (--list), or probe one hermetically')
    .option('--list', 'print each known CLI: installed or not, version, hermetic support, routes')
    .option('--cli <name>', 'the CLI to probe', 'claude')
    .option('--route <route>', 'the route to probe')
    .option('--scenario <name>', 'the scenario to run', 'final')
    .option('--schema <file>', 'the schema to send (default: the pov production schema)')
    .option('--startup', 'only check whether the CLI accepts the schema at startup; with --config: every schema of the config on every installed CLI and output format (a table)')
    .option('--config <file>', 'your routecert config: probe --startup probes its contracts\' schemas; exit 1 when a CLI a contract names in `clis` rejects one')
    .option('--startup-table', 'probe every installed schema-flag CLI with the production schemas, keyword canaries and each output format; print the table')
    .option('--bin <cli=path>', 'run this binary (or npm prefix folder) of <cli> instead of the pinned one; repeatable; also ROUTECERT_BIN_<CLI>', collect)
    .option('--allow-unsupported', 'probe a CLI version outside the supported range (see probe --list) anyway')
    .option('--live', 'run against the REAL provider with the credentials in the environment, cheapest model, throwaway HOME and cwd (costs money; output redacted); with --startup, the run stops at the provider\'s first answer')
    .option('--probe-timeout <ms>', 'deadline of one probe run in ms', integerOption(1, 'ms'), 60_000)
    .option('--json', 'print the probe result as JSON')
    .action(async (opts) => {
      const { probeCommand } = await import('./commands/probe.ts');
      exitCode = await probeCommand(opts);
    });

  program
    .command('certify')
    .description('Certify a worker: fake CLIs on its PATH replay corpus cases; write reports/<run>/certificate.{json,md}')
    .option('--config <file>', 'the config that defines the worker adapter and routes', 'routecert.config.ts')
    .option('--route <route>', 'only this route or CLI of the config; repeatable', collect)
    .option('--check <id>', 'only this check (besides the smoke); repeatable', collect)
    .option('--reports <dir>', 'parent folder of the run folder', 'reports')
    .option('--concurrency <n>', 'worker runs at once', integerOption(1))
    .option('--keep', 'keep the temporary run folders (to inspect a run)')
    .action(async (opts) => {
      const { certifyCommand } = await import('./commands/certify.ts');
      exitCode = await certifyCommand(opts);
    });

  program
    .command('lint')
    .description('Lint JSON Schemas for portability across model CLIs and providers')
    .argument('[paths...]', 'schema files or folders (default: schemas/contracts, or with --config the schemas of its contracts)')
    .option('--config <file>', 'lint the production schema of every contract of this config against the profiles of the CLIs it names (`clis`)')
    .addOption(new Option('--profile <name>', 'provider profile to check against; repeatable').argParser(collect))
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (paths: string[], opts) => {
      const { lintCommand } = await import('./commands/lint.ts');
      exitCode = await lintCommand(paths, opts);
    });

  program
    .command('fuzz')
    .description('Check the properties with generated envelopes; replay a failure from its seed and path; --save keeps the shrunk case')
    .option('--property <name>', 'only this property (see --list); repeatable', collect)
    .option('--seed <n>', 'fast-check seed, printed with every failure (default: ROUTECERT_SEED, else random)')
    .option('--path <path>', 'replay the counterexample at this fast-check path of --seed')
    .option('--runs <n>', 'generated runs per property (default: each property\'s own, raised by ROUTECERT_NUM_RUNS)')
    .option('--save', 'write each shrunk counterexample as a case under --out')
    .option('--out <dir>', 'folder for saved cases', 'fixtures/cases/regressions')
    .option('--force', 'overwrite a saved case file that exists')
    .option('--cases <dir>', 'corpus whose cases run first as examples', 'fixtures/cases')
    .option('--no-examples', 'do not run the corpus examples first')
    .option('--list', 'list the properties and exit')
    .option('--config <file>', 'also check your contracts: payloads generated from each contract\'s schema, in generated envelopes')
    .option('--contract <name>', 'with --config: only this contract; repeatable', collect)
    .action(async (opts) => {
      const { fuzzCommand } = await import('./commands/fuzz.ts');
      exitCode = await fuzzCommand({
        ...opts,
        ...(opts.out === 'fixtures/cases/regressions' ? { out: undefined } : {}),
        ...(opts.cases === 'fixtures/cases' ? { cases: undefined } : {}),
      });
    });

  program
    .command('merge-reports')
    .description('Join the report.json of shard runs (--shard i/n) into one run folder with every report format')
    .argument('<paths...>', 'run folders or report.json files of the shards (a folder of run folders is searched)')
    .option('--reports <dir>', 'parent folder of the merged run folder', 'reports')
    .option('--reporter <name>', `reporters of the merged run (default: json, junit, markdown, html, and the console summary); repeatable. One of: ${REPORTER_NAMES.join(', ')}`, reporterOption)
    .option('--output-file <[reporter=]path>', 'file of a reporter instead of the run folder; repeatable', outputFileOption)
    .action(async (paths: string[], opts) => {
      const { mergeReportsCommand } = await import('./commands/mergeReports.ts');
      exitCode = await mergeReportsCommand(paths, opts, ['merge-reports', ...argv.slice(1)].join(' '));
    });

  program
    .command('diff')
    .description('Compare two reports case by case (verdict changes, cases added or removed, drift lines); exit 1 on a regression')
    .argument('<before>', 'run folder or report.json of the earlier run')
    .argument('<after>', 'run folder or report.json of the later run')
    .option('--json', 'print the differences as JSON')
    .action(async (before: string, after: string, opts) => {
      const { diffCommand } = await import('./commands/diff.ts');
      exitCode = await diffCommand(before, after, opts);
    });

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.help' || error.code === 'commander.version') return 0;
      return 2;
    }
    // routecert's own refusals (a code ROUTECERT_*) are said plainly; anything else is a crash.
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('ROUTECERT_')) {
      process.stderr.write(`${(error as Error).message}\n`);
      return exitAfter(2);
    }
    process.stderr.write(`[routecert] ${(error as Error).stack ?? String(error)}\n`);
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
