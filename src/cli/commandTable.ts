/**
 * The option table of the `routecert` command: every command, its arguments and its options, with
 * the words `--help` prints and the words README.md's command table says. main.ts builds the
 * commander program from it and bin/readme-commands.js writes the README table from it, so a new
 * option is one entry here and shows up in both.
 *
 * An option entry is `{ flags, description, default?, parse?, choices? }` exactly as commander takes
 * them (`parse` is the argument parser, e.g. {@link collect} for a repeatable option). The options
 * object an action receives has the shape the command module declares (commander builds it from
 * these entries), hence the casts in each `run`.
 */
import { existsSync } from 'node:fs';
import { CONFIG_FILE_NAMES } from '#src/config/fileNames.ts';
import { binOption, integerOption, outputFileOption, reporterOption, shardOption, signalOption } from './options.ts';
import { reporterOrPathOption } from './reporterModules.ts';
import { REPORTER_NAMES } from '#src/report/names.ts';
import { behaviourClassesMarkdown } from '#src/report/matrix.ts';
import { PROFILE_SPECS } from '#src/schema/profileData.ts';

/** One option: commander's flags and description, plus its default, parser or choices. */
export interface OptionSpec {
  flags: string;
  description: string;
  default?: unknown;
  parse?: (value: string, previous: never) => unknown;
  choices?: readonly string[];
}

/** One positional argument (`<name>` required, `[name...]` optional and variadic). */
export interface ArgumentSpec {
  name: string;
  description: string;
}

/**
 * What an action gets: the positional `args` in order, the parsed `opts`, and the `argv` the
 * command line was run with (for the invocation a report records).
 */
export interface CommandContext {
  args: unknown[];
  opts: object;
  argv: readonly string[];
}

/**
 * One command: `description` for `--help`, `readme` for the README command table (may name options
 * in backticks), `helpAfter` printed after the options, and `run`, which imports the command module
 * lazily and returns the exit code.
 */
export interface CommandSpec {
  name: string;
  description: string;
  readme: string;
  arguments?: readonly ArgumentSpec[];
  options: readonly OptionSpec[];
  helpAfter?: string;
  run(context: CommandContext): Promise<number>;
}

/**
 * `--config` given without a file (`routecert record --config`): the first
 * `routecert.config.{ts,mts,cts,mjs,js,cjs,json}` of the working folder. Writes the error and
 * returns false when there is none.
 */
function withConfigFile(opts: { config?: string | boolean }): boolean {
  if (opts.config !== true) return true;
  const found = CONFIG_FILE_NAMES.find((n) => existsSync(n));
  if (found === undefined) {
    process.stderr.write(`[routecert] --config: no routecert config here (looked for ${CONFIG_FILE_NAMES.join(', ')}); name one (--config <file>), or write one with \`npx routecert init\`\n`);
    return false;
  }
  opts.config = found;
  return true;
}

/** Collect a repeatable option into an array (`--route a --route b`, or `--route a,b`). */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(',').map((v) => v.trim()).filter(Boolean)];
}

/** Collect a repeatable option whose values may hold commas (`--generic`). */
function collectWhole(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/**
 * `--bin <cli>=<path>`: every command that takes it checks the candidates it names before it starts
 * (src/cli/main.ts, src/cli/probeTarget.ts `candidateProblems`).
 */
export const BIN: OptionSpec = {
  flags: '--bin <cli=path>',
  description: 'run this binary (or npm prefix folder) of <cli> instead of the pinned one; repeatable; also ROUTECERT_BIN_<CLI>',
  parse: binOption,
};
const PROBE_TIMEOUT: OptionSpec = { flags: '--probe-timeout <ms>', description: 'deadline of one probe run in ms', parse: integerOption(1, 'ms'), default: 60_000 };
const REPORTS: OptionSpec = { flags: '--reports <dir>', description: 'parent folder of the run folder', default: 'reports' };

/** The program itself: name, description, global options and the text after `routecert --help`. */
export const PROGRAM = {
  name: 'routecert',
  versionFlags: '-V, --version',
  versionDescription: 'print the routecert version',
  description:
    'Conformance harness for structured output from model CLIs run headless.\n' +
    'Replays recorded envelopes, judges them by contract, probes the real installed CLIs hermetically.',
  options: [
    { flags: '--color', description: 'colours even when the output is not a terminal (also FORCE_COLOR=1); wins over NO_COLOR' },
    { flags: '--no-color', description: 'no colours (also NO_COLOR=1 or FORCE_COLOR=0); wins over FORCE_COLOR' },
  ] satisfies OptionSpec[],
  helpAfterError: '(`routecert --help` lists the commands; `routecert <command> --help` the options of one, e.g. `routecert run --help`)',
  helpAfter:
    '\nExit codes: 0 all conform, 1 a conformance failure (diff: a regression), 2 usage or configuration error (also a filter or folder that selects nothing), 3 the run could not be carried out.',
} as const;

/** Every command, in the order `routecert --help` and the README list them. */
export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'run',
    description: 'Judge every corpus case (and probe installed CLIs hermetically); write reports/<run>/report.json, junit.xml, summary.md, report.html',
    readme:
      "`--config <file>` (default `./routecert.config.*`): judges the cases of the config's `cases` folder (or `--cases`) by the config's contracts and probes the config's schemas at startup; without a config: judges every corpus case (filters: `--case`, `--route`, `--contract`, `--tag`, `--shard i/n`), certifies the reference worker (`--no-certify`), probes installed CLIs (`--no-probes`: corpus only), writes `reports/<run>/report.json`, `junit.xml`, `summary.md`, `report.html` (`--reporter`, `--output-file`: see Reporters); `--generic '<route>=<spec>'` decodes a CLI routecert does not know (spec: `pointer=/a/b`, `key=name`, `event=type=result`, `text`); a case file over 256 MiB is refused with an error naming `--max-case-mb <MiB>`, which raises the limit (Node cannot read one over 512 MiB)",
    options: [
      { flags: '--config [file]', description: 'your routecert config (contracts, cases, worker); default: ./routecert.config.* when present (no file: it must be there)' },
      { flags: '--cases <dir>', description: "folder of case files (default: the config's cases, else the bundled fixtures/cases)" },
      { flags: '--case <id>', description: 'run only this case id (a prefix is enough); repeatable', parse: collect },
      { flags: '--route <route>', description: 'only this route or CLI (claude-code, claude-code/json); repeatable', parse: collect },
      { flags: '--contract <name>', description: 'only cases of this contract; repeatable', parse: collect },
      { flags: '--tag <tag>', description: 'only cases with this tag; repeatable', parse: collect },
      REPORTS,
      { flags: '--no-probes', description: 'do not probe installed CLIs, replay the corpus only' },
      { flags: '--no-certify', description: 'do not certify the bundled reference worker with fake CLIs (also off with --no-probes)' },
      BIN,
      PROBE_TIMEOUT,
      { flags: '--quiet', description: 'print only cases that do not pass or carry a warning, and the summary' },
      { flags: '--max-case-mb <MiB>', description: 'largest case file to load, in MiB (default 256; Node cannot read one over 512)', parse: (v: string) => Number(v) },
      {
        flags: '--reporter <name|path>',
        description: `reporter instead of the defaults (default, json, junit, markdown, html; github on GitHub Actions); repeatable. One of: ${REPORTER_NAMES.join(', ')}, or a module path (./my-reporter.mjs) whose default export is a reporter`,
        parse: reporterOrPathOption,
      },
      { flags: '--output-file <[reporter=]path>', description: 'file of a reporter instead of the run folder, e.g. junit=ci/junit.xml; repeatable', parse: outputFileOption },
      { flags: '--shard <i/n>', description: 'run only shard i of n (cases and probes split by id); join the reports with `routecert merge-reports`; a shard that holds no case exits 0 and says so (a fixed CI matrix stays green)', parse: shardOption },
      { flags: '--no-progress', description: 'no progress line (on a terminal) or periodic progress lines (in CI)' },
      { flags: '--full-values', description: 'keep every answer value and long text whole in the reports (default: over 64 KiB or 64 levels deep, a typed preview with its size and SHA-256)' },
      {
        flags: '--generic <route=spec>',
        description: 'decode cases of <route> with the generic decoder, reading the answer where <spec> says (see below); repeatable',
        parse: collectWhole,
      },
    ],
    helpAfter:
      '\nGeneric route (any other CLI): <spec> is parts joined by ";":\n' +
      '  pointer=<JSON Pointer>   the answer is at this RFC 6901 pointer in the terminal object\n' +
      '  key=<name>               the answer is under this key (any spelling: snake, camel, Pascal, kebab)\n' +
      '  event=<field>=<value>    the terminal object is the last JSONL event whose field reads value\n' +
      '  text                     also scan the whole stdout as free text\n' +
      'Example: routecert run --cases my-cases --generic "mycli/json=event=type=result;pointer=/answer"\n' +
      'A case file whose route is "generic:<spec>" (e.g. "generic:key=structuredOutput") needs no flag.',
    async run({ opts, argv }) {
      const { runCommand } = await import('./commands/run.ts');
      if (!withConfigFile(opts)) return 2;
      return runCommand(opts as Parameters<typeof runCommand>[0], ['run', ...argv.slice(1)].join(' '));
    },
  },
  {
    name: 'init',
    description: 'Write a starter routecert.config.ts (a contract per schema file, the CLIs found) and cases/ that `routecert run` passes',
    readme:
      'writes a starter `routecert.config.ts` (`--json`: `.json`) with a contract per schema file of `--schemas <folder>` (else an example schema; an empty folder exits 2; `emptyIsAnswer` on when the anchor is an array the schema lets be empty, with a `found-nothing` case), the schema-flag CLIs found, and `cases/` that `routecert run` passes; never overwrites without `--force`. Run again it writes nothing and says which files it keeps (`the same as init writes`, or `differs ... --force replaces it`) and which it `would add`; `--force` rewrites them and removes the starter cases of contracts the new config no longer defines',
    options: [
      { flags: '--schemas <folder>', description: 'your production schemas (*.schema.json, else *.json); default: an example schema' },
      { flags: '--json', description: 'write routecert.config.json instead (the same shape, for teams without TypeScript)' },
      { flags: '--force', description: 'overwrite files that exist (never done without it)' },
    ],
    async run({ opts }) {
      const { initCommand } = await import('./commands/init.ts');
      return initCommand(opts as Parameters<typeof initCommand>[0]);
    },
  },
  {
    name: 'record',
    description: "Record real CLIs hermetically into redacted case files: routecert's pov plan (--cli), your contracts (--config), or a bug report (--from)",
    readme:
      "runs each planned hermetic probe of a real CLI (`--cli claude\\|codex\\|qwen\\|gemini\\|opencode\\|copilot\\|pi\\|grok-cli`) and writes its envelopes as a redacted case (`fixtures/cases/<route>/<scenario>.json`); never overwrites a case without `--force`; exits 1 when a recorded verdict is not the plan's; `--fix-ids` recomputes content-hash ids after a hand edit (in `--out`, else the config's cases folder). `--config <file>` records **your** contracts (see \"Recording your contract\"); `--from <capture>` turns a bug report into a case (see \"A bug report to a case\")",
    options: [
      { flags: '--cli <name>', description: 'the CLI to record (default claude); with --config: only these of the CLIs the contracts name; repeatable', parse: collect },
      { flags: '--config [file]', description: "record your contracts: each contract's schema through each CLI its `clis` names, with scenarios generated from the schema, into the config's cases folder (no file: ./routecert.config.*)" },
      { flags: '--contract <name>', description: "with --config: only this contract; with --from: the contract that judges the case (default: the config's only one, pov without a config; required when the config has several); repeatable", parse: collect },
      { flags: '--route <route>', description: 'only this route; repeatable (with --from: the route of the capture)', parse: collect },
      { flags: '--scenario <name>', description: 'only this scenario; repeatable', parse: collect },
      { flags: '--out <dir>', description: "folder for the case files (default: fixtures/cases; with --config or --from: the config's cases folder, else ./cases)" },
      { flags: '--force', description: 'overwrite a case file that exists (never done without it)' },
      { flags: '--fix-ids', description: "recompute the content-hash id of every case under --out (default: the config's cases folder, else fixtures/cases) instead of recording" },
      { flags: '--from <capture>', description: 'a bug report to a case: a pasted capture (file, or - for stdin): stdout, then optional `--- stderr ---`, `--- exit code: N ---`, `--- signal: SIGTERM ---` and `--- timed out ---` lines, or an envelope as JSON' },
      { flags: '--stdout <file>', description: 'with --from or alone instead of it: the stdout of the reported run' },
      { flags: '--stderr <file>', description: 'the stderr of the reported run' },
      { flags: '--exit-code <n>', description: 'the exit code of the reported run', parse: integerOption(-255) },
      { flags: '--signal <name>', description: 'with --from: the signal that ended the reported run (SIGTERM, SIGKILL, ...)', parse: signalOption },
      { flags: '--timed-out', description: "with --from: the worker's deadline ended the reported run (a timeout case)" },
      { flags: '--expect <verdict>', description: 'with --from: the verdict the capture should get (accepted, dropped-unusable, provider-error, ...)' },
      { flags: '--name <name>', description: 'with --from: the case file name without .json (default report-<id>)' },
      { flags: '--description <text>', description: 'with --from: one sentence saying what the case shows' },
      { flags: '--ref <url>', description: 'with --from: the bug report (provenance issue)' },
      { flags: '--cli-version <version>', description: 'with --from: the CLI version of the report' },
      BIN,
      { flags: '--allow-unsupported', description: 'record a CLI version outside the supported range (see probe --list) anyway' },
      { flags: '--live', description: 'record the final plan against the REAL provider with the credentials in the environment (costs money; redacted)' },
      PROBE_TIMEOUT,
    ],
    async run({ opts }) {
      const { recordCommand } = await import('./commands/record.ts');
      if (!withConfigFile(opts)) return 2;
      return recordCommand(opts as Parameters<typeof recordCommand>[0]);
    },
  },
  {
    name: 'probe',
    description: 'List the known CLIs and whether they are installed (--list), or probe one hermetically',
    readme:
      "`--list`: each known CLI, installed or not, version, hermetic support, routes; otherwise one hermetic probe (`--cli`, `--route`, `--scenario`, `--schema`), exit 1 when the verdict is not the scenario's; `--startup` checks whether a CLI accepts a schema; `--startup-table` prints keyword x CLI version -> accepted / rejected with the CLI's message; `--startup --config <file>` probes the schema of every contract of the config on every installed schema-flag CLI and output format (one table; exit 1 when a CLI a contract's `clis` names rejects it)",
    options: [
      { flags: '--list', description: 'print each known CLI: installed or not, version, hermetic support, routes' },
      { flags: '--cli <name>', description: 'the CLI to probe', default: 'claude' },
      { flags: '--route <route>', description: 'the route to probe' },
      { flags: '--scenario <name>', description: 'the scenario to run', default: 'final' },
      { flags: '--schema <file>', description: 'the schema to send (default: the pov production schema)' },
      {
        flags: '--startup',
        description: 'only check whether the CLI accepts the schema at startup; with --config: every schema of the config on every installed CLI and output format (a table)',
      },
      { flags: '--config [file]', description: "your routecert config (no file: ./routecert.config.*): probe --startup probes its contracts' schemas; exit 1 when a CLI a contract names in `clis` rejects one" },
      { flags: '--startup-table', description: 'probe every installed schema-flag CLI with the production schemas, keyword canaries and each output format; print the table' },
      BIN,
      { flags: '--allow-unsupported', description: 'probe a CLI version outside the supported range (see probe --list) anyway' },
      {
        flags: '--live',
        description:
          "run against the REAL provider with the credentials in the environment, cheapest model, throwaway HOME and cwd (costs money; output redacted); with --startup, the run stops at the provider's first answer",
      },
      PROBE_TIMEOUT,
      { flags: '--json', description: 'print the probe result as JSON' },
    ],
    async run({ opts }) {
      const { probeCommand } = await import('./commands/probe.ts');
      if (!withConfigFile(opts)) return 2;
      return probeCommand(opts as Parameters<typeof probeCommand>[0]);
    },
  },
  {
    name: 'certify',
    description: 'Certify a worker: fake CLIs on its PATH replay corpus cases; write reports/<run>/certificate.{json,md}',
    readme:
      'certifies a worker in any language (`--config <file>`, default the working folder\'s `routecert.config.*`): fake CLIs on its PATH replay corpus cases; writes `reports/<run>/certificate.{json,md}`; `--check <id>` must name a check that applies to the config\'s contract (one it has no rule for is refused, exit 2; one that applies on none of the routes certified, such as `idle-window` on a buffered route, runs the smoke alone and exits 2); a run it filters is `partial` (exit 0 when what ran passed, never "certified": the certificate says how many checks did not run), and a certificate with no passing check is not "certified"',
    options: [
      { flags: '--config [file]', description: 'the config that defines the worker adapter and routes (default, and with no file: ./routecert.config.{ts,mts,cts,mjs,js,cjs,json}, the first found)' },
      { flags: '--route <route>', description: 'only this route or CLI of the config; repeatable', parse: collect },
      { flags: '--check <id>', description: 'only this check (besides the smoke); repeatable; the route is then `partial`, never certified (exit 0 when what ran passed)', parse: collect },
      REPORTS,
      { flags: '--concurrency <n>', description: 'worker runs at once', parse: integerOption(1) },
      { flags: '--keep', description: 'keep the temporary run folders (to inspect a run)' },
    ],
    async run({ opts }) {
      const { certifyCommand } = await import('./commands/certify.ts');
      if (!withConfigFile(opts)) return 2;
      return certifyCommand(opts as Parameters<typeof certifyCommand>[0]);
    },
  },
  {
    name: 'lint',
    description: 'Lint JSON Schemas for portability across model CLIs and providers',
    readme:
      `lints JSON Schemas for portability (\`--profile ${PROFILE_SPECS.map((p) => p.name).join('\\|')}\`, \`--format json\`); each finding names the file, the JSON Pointer, the keyword, the profile rule and a fix; \`--config <file>\` lints each contract's schema against the profiles of the CLIs it names (\`clis\`), and the paths beside it too; as linters do, warnings print and exit 0, an error exits 1, and \`--max-warnings N\` fails a lint with more than N warnings; a path that does not exist, or paths that hold no \`*.schema.json\`, exit 2`,
    arguments: [{ name: '[paths...]', description: "schema files or folders (default: the schemas of the contracts of --config, else of ./routecert.config.* when it has contracts, else schemas/contracts)" }],
    options: [
      { flags: '--config [file]', description: 'lint the production schema of every contract of this config (no file: ./routecert.config.*) against the profiles of the CLIs it names (`clis`); paths given beside it are linted too' },
      { flags: '--profile <name>', description: 'provider profile to check against; repeatable', parse: collect },
      { flags: '--format <format>', description: 'output format', choices: ['text', 'json'], default: 'text' },
      { flags: '--max-warnings <n>', description: 'fail (exit 1) when there are more than n warnings; errors always fail (default: warnings print and pass)', parse: integerOption(0) },
    ],
    async run({ args, opts }) {
      const { lintCommand } = await import('./commands/lint.ts');
      if (!withConfigFile(opts)) return 2;
      return lintCommand(args[0] as string[], opts as Parameters<typeof lintCommand>[1]);
    },
  },
  {
    name: 'fuzz',
    description: 'Check the properties with generated envelopes; replay a failure from its seed and path; --save keeps the shrunk case',
    readme:
      "checks the metamorphic properties with generated envelopes; `--seed S --path P` replays a failure; `--save` writes the shrunk counterexample as a case under `fixtures/cases/regressions/`; `--config <file>` checks each contract of the config on payloads generated from its own schema, in every envelope style and finality state (`--contract` to pick)",
    options: [
      { flags: '--property <name>', description: 'only this property (see --list); repeatable', parse: collect },
      { flags: '--seed <n>', description: 'fast-check seed, printed with every failure (default: ROUTECERT_SEED, else random)' },
      { flags: '--path <path>', description: 'replay the counterexample at this fast-check path of --seed' },
      { flags: '--runs <n>', description: "generated runs per property (default: each property's own, raised by ROUTECERT_NUM_RUNS)" },
      { flags: '--save', description: 'write each shrunk counterexample as a case under --out' },
      { flags: '--out <dir>', description: 'folder for saved cases', default: 'fixtures/cases/regressions' },
      { flags: '--force', description: 'overwrite a saved case file that exists' },
      { flags: '--cases <dir>', description: 'corpus whose cases run first as examples', default: 'fixtures/cases' },
      { flags: '--no-examples', description: 'do not run the corpus examples first' },
      { flags: '--list', description: 'list the properties and exit' },
      { flags: '--config [file]', description: "check your contracts instead of routecert's own properties (no file: ./routecert.config.*): payloads generated from each contract's schema, in generated envelopes" },
      { flags: '--contract <name>', description: 'with --config: only this contract; repeatable', parse: collect },
    ],
    async run({ opts }) {
      const { fuzzCommand } = await import('./commands/fuzz.ts');
      if (!withConfigFile(opts)) return 2;
      const fuzzOpts = opts as Parameters<typeof fuzzCommand>[0];
      return fuzzCommand({
        ...fuzzOpts,
        ...(fuzzOpts.out === 'fixtures/cases/regressions' ? { out: undefined } : {}),
        ...(fuzzOpts.cases === 'fixtures/cases' ? { cases: undefined } : {}),
      });
    },
  },
  {
    name: 'merge-reports',
    description: 'Join the report.json of shard runs (--shard i/n) into one run folder with every report format',
    readme: 'joins the `report.json` of shard runs (run folders, report files, or a folder holding them) into one run folder with every format; refuses a missing or repeated shard',
    arguments: [{ name: '<paths...>', description: 'run folders or report.json files of the shards (a folder of run folders is searched)' }],
    options: [
      { flags: '--reports <dir>', description: 'parent folder of the merged run folder', default: 'reports' },
      {
        flags: '--reporter <name>',
        description: `reporters of the merged run (default: json, junit, markdown, html, and the console summary); repeatable. One of: ${REPORTER_NAMES.join(', ')}`,
        parse: reporterOption,
      },
      { flags: '--output-file <[reporter=]path>', description: 'file of a reporter instead of the run folder; repeatable', parse: outputFileOption },
    ],
    async run({ args, opts, argv }) {
      const { mergeReportsCommand } = await import('./commands/mergeReports.ts');
      return mergeReportsCommand(args[0] as string[], opts as Parameters<typeof mergeReportsCommand>[1], ['merge-reports', ...argv.slice(1)].join(' '));
    },
  },
  {
    name: 'diff',
    description: 'Compare two reports case by case (verdict changes, cases added or removed, drift lines); exit 1 on a regression',
    readme:
      'compares two reports case by case (`diff <before> <after>`, run folders, report.json files, or a `--reports` folder holding one run; a folder of several runs is refused naming them): verdict changes, cases added or removed, drift lines, new run faults, startup cells that changed or were not probed again, lost worker certificates; exits 1 on a regression (a case that now fails, a new run fault, a route certified before and not after); `--json`',
    arguments: [
      { name: '<before>', description: 'run folder or report.json of the earlier run' },
      { name: '<after>', description: 'run folder or report.json of the later run' },
    ],
    options: [{ flags: '--json', description: 'print the differences as JSON' }],
    async run({ args, opts }) {
      const { diffCommand } = await import('./commands/diff.ts');
      return diffCommand(args[0] as string, args[1] as string, opts as Parameters<typeof diffCommand>[2]);
    },
  },
];

/** The flags of an option as the README shows them: `--out <dir>` (the long form, with its argument). */
function shownFlags(option: OptionSpec): string {
  return option.flags.split(/,\s*/).at(-1)!;
}

/** Escapes `|` for a Markdown table cell. */
function cell(text: string): string {
  return text.replace(/(?<!\\)\|/g, '\\|');
}

/** README markers around the generated command table. */
export const README_COMMANDS_BEGIN = '<!-- commands:begin (generated by `npm run readme:commands` from src/cli/commandTable.ts; do not edit) -->';
export const README_COMMANDS_END = '<!-- commands:end -->';

/**
 * The README command table: one row per command of {@link COMMANDS}, with what it does and every
 * option it takes (generated, so it cannot miss one).
 */
export function commandsTableMarkdown(commands: readonly CommandSpec[] = COMMANDS): string {
  const rows = commands.map((command) => {
    const args = (command.arguments ?? []).map((a) => a.name).join(' ');
    const options = command.options.map((o) => `\`${cell(shownFlags(o))}\``).join(' ');
    return `| \`${command.name}${args ? ` ${cell(args)}` : ''}\` | ${command.readme} | ${options} |`;
  });
  return ['| command | what it does | options |', '|---|---|---|', ...rows, ''].join('\n');
}

/** README markers around the generated table of the behaviour matrix's columns (src/report/matrix.ts). */
export const README_MATRIX_BEGIN = '<!-- behaviour-classes:begin (generated by `npm run readme:commands` from src/report/matrix.ts; do not edit) -->';
export const README_MATRIX_END = '<!-- behaviour-classes:end -->';

/**
 * `readme` with the text between `begin` and `end` replaced by `body`.
 *
 * @throws {Error} when the README lacks the markers.
 */
function withBlock(readme: string, begin: string, end: string, body: string): string {
  const from = readme.indexOf(begin);
  const to = readme.indexOf(end);
  if (from === -1 || to === -1 || to < from) throw new Error(`[routecert] README.md has no generated-table markers (${begin} ... ${end})`);
  return `${readme.slice(0, from + begin.length)}\n${body}${readme.slice(to)}`;
}

/**
 * `readme` with the text between the command markers replaced by {@link commandsTableMarkdown}.
 *
 * @throws {Error} when the README lacks the markers.
 */
export function withCommandsTable(readme: string, table: string = commandsTableMarkdown()): string {
  return withBlock(readme, README_COMMANDS_BEGIN, README_COMMANDS_END, table);
}

/**
 * `readme` with every generated table rewritten: the command table and the behaviour matrix's
 * columns (`behaviourClassesMarkdown` of src/report/matrix.ts, the list the matrix is built from).
 *
 * @throws {Error} when the README lacks a table's markers.
 */
export function withReadmeTables(readme: string): string {
  return withBlock(withCommandsTable(readme), README_MATRIX_BEGIN, README_MATRIX_END, behaviourClassesMarkdown());
}
