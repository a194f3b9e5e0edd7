/**
 * Fail-open copies of the five consumers: each is the installed package copied to a temporary
 * folder with ONE realistic fault put into its installed JavaScript (a flag dropped or added, an
 * error message lost, the wrong field read, the caller's deadline ignored), certified unchanged
 * otherwise. Each must be refused by the check named for its fault (issue 19: every check is shown
 * to bite on a subject routecert did not write). `npm run consumers:failopen` certifies every copy
 * and writes the table to examples/consumers/FAILOPEN.md.
 *
 * A copy is `<root>/<dir>/`: the consumer's adapter.mjs, `<root>/_kit/adapter-kit.mjs`, and a
 * node_modules whose entries are links to the installed ones except the faulted package, which is
 * copied and patched (the patch must match the installed code exactly, so a new release that
 * moves the code fails loudly instead of testing nothing).
 */
import { cp, lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { certify } from '../../../src/harness/certify/certify.ts';
import type { CheckResult } from '../../../src/harness/certify/certificate.ts';
import { certifyAgainstGeminiMock } from '../../../src/harness/certify/consumerMock.ts';
import { loadConfig } from '../../../src/harness/certify/config.ts';
import { projectPath } from '../../../src/paths.ts';
import { consumerConfig } from './consumerConfig.ts';
import { CONSUMERS, installedVersion, pinnedCli, type Consumer } from './consumers.ts';

/**
 * One fault.
 * - `dir`: the consumer's folder; `pkg`: the installed package the fault goes into;
 * - `files`: its files (relative to the package) the patch is tried on; `find` must occur in at
 *   least one, and every occurrence is replaced by `replace`;
 * - `more`: further edits of the same fault (each must match too), when the code does it in two places;
 * - `fault`: what the copy does wrong, in words; `check`: the check that must refuse it;
 * - `source`: where such a fault was seen (a public issue or pull request, or the package's own code).
 */
export interface Fault {
  dir: string;
  pkg: string;
  files: string[];
  find: string;
  replace: string;
  more?: { find: string; replace: string }[];
  fault: string;
  check: string;
  source?: string;
}

const CODEX_SDK = { dir: 'codex-sdk', pkg: '@openai/codex-sdk', files: ['dist/index.js'] };
const CODEX_CLI = { dir: 'ai-sdk-provider-codex-cli', pkg: 'ai-sdk-provider-codex-cli', files: ['dist/index.js'] };
const AGENT_SDK = { dir: 'claude-agent-sdk', pkg: '@anthropic-ai/claude-agent-sdk', files: ['sdk.mjs'] };
const CLAUDE_PROVIDER = { dir: 'ai-sdk-provider-claude-code', pkg: 'ai-sdk-provider-claude-code', files: ['dist/index.js'] };
const GEMINI_PROVIDER = { dir: 'ai-sdk-provider-gemini-cli', pkg: 'ai-sdk-provider-gemini-cli', files: ['dist/index.mjs', 'dist/index.js'] };

/** The faults, each with the check named for it. */
export const FAULTS: readonly Fault[] = [
  // @openai/codex-sdk 0.163.0
  { ...CODEX_SDK, check: 'schema-sent', fault: 'drops `--output-schema` (the outputSchema option never reaches the CLI)', find: 'commandArgs.push("--output-schema", args.outputSchemaFile);', replace: 'void args.outputSchemaFile;' },
  { ...CODEX_SDK, check: 'schema-sent', fault: 'writes another schema (no required keys) into the --output-schema file', find: 'await fs.writeFile(schemaPath, JSON.stringify(schema), "utf8");', replace: 'await fs.writeFile(schemaPath, JSON.stringify({ ...schema, required: [] }), "utf8");' },
  { ...CODEX_SDK, check: 'forbidden-flags', fault: 'adds `--dangerously-bypass-approvals-and-sandbox`', find: 'const commandArgs = ["exec", "--experimental-json"];', replace: 'const commandArgs = ["exec", "--experimental-json", "--dangerously-bypass-approvals-and-sandbox"];' },
  { ...CODEX_SDK, check: 'output-format', fault: 'drops `--experimental-json` (asks for the human transcript)', find: 'const commandArgs = ["exec", "--experimental-json"];', replace: 'const commandArgs = ["exec"];' },
  { ...CODEX_SDK, check: 'answer-last-message', fault: 'keeps the first agent message, not the last', find: 'finalResponse = event.item.text;', replace: 'finalResponse ||= event.item.text;' },
  { ...CODEX_SDK, check: 'provider-error', fault: "throws a generic error without the provider's message and status", find: 'throw new Error(turnFailure.message);', replace: 'throw new Error("Codex turn failed");' },
  { ...CODEX_SDK, check: 'provider-error', fault: 'ignores `turn.failed` (the caller gets an empty success)', find: 'if (turnFailure) {', replace: 'if (false) {' },
  { ...CODEX_SDK, check: 'stderr-visible', fault: "drops the CLI's stderr from the exit error", find: 'throw new Error(`Codex Exec exited with ${detail}: ${stderrBuffer.toString("utf8")}`);', replace: 'throw new Error(`Codex Exec exited with ${detail}`);' },
  { ...CODEX_SDK, check: 'deadline', fault: "never passes the caller's abort signal to the CLI process", find: 'signal: args.signal', replace: 'signal: undefined' },
  { ...CODEX_SDK, check: 'usage', fault: 'drops the token usage of `turn.completed`', find: 'usage = event.usage;', replace: 'usage = null;' },
  // ai-sdk-provider-codex-cli 2.2.1
  { ...CODEX_CLI, check: 'schema-sent', fault: 'drops `--output-schema` (JSON mode off)', find: 'args.push("--output-schema", schemaPath);', replace: 'void schemaPath;' },
  { ...CODEX_CLI, check: 'forbidden-flags', fault: 'adds `--dangerously-bypass-approvals-and-sandbox`', find: 'const args = [...base.args, "exec", "--experimental-json"];', replace: 'const args = [...base.args, "exec", "--experimental-json", "--dangerously-bypass-approvals-and-sandbox"];' },
  { ...CODEX_CLI, check: 'output-format', fault: 'drops `--experimental-json`', find: 'const args = [...base.args, "exec", "--experimental-json"];', replace: 'const args = [...base.args, "exec"];' },
  { ...CODEX_CLI, check: 'usage', fault: 'reports empty usage', find: 'usage: usageSummary', replace: 'usage: createEmptyCodexUsage()' },
  { ...CODEX_CLI, check: 'answer-last-message', fault: 'keeps the first agent message, not the last', find: 'accumulatedText = item.text;', replace: 'accumulatedText ||= item.text;' },
  { ...CODEX_CLI, check: 'deadline', fault: "ignores the caller's abort signal", find: 'options.abortSignal.addEventListener("abort", onAbort, { once: true });', replace: 'void onAbort;' },
  // @anthropic-ai/claude-agent-sdk 0.3.328 (minified)
  { ...AGENT_SDK, check: 'schema-sent', fault: 'drops `--json-schema` (outputFormat never reaches the CLI)', find: 'if(S)ne.push(et("--json-schema",le(S)));', replace: '' },
  { ...AGENT_SDK, check: 'forbidden-flags', fault: 'adds `--dangerously-skip-permissions`', find: 'if(S)ne.push(et("--json-schema",le(S)));', replace: 'if(S)ne.push(et("--json-schema",le(S)));ne.push("--dangerously-skip-permissions");' },
  { ...AGENT_SDK, check: 'output-format', fault: 'asks for `--output-format json` instead of stream-json', find: 'let ne=["--output-format","stream-json","--verbose"', replace: 'let ne=["--output-format","json","--verbose"' },
  // ai-sdk-provider-claude-code 4.1.0
  { ...CLAUDE_PROVIDER, check: 'answer-structured-field', fault: 'ignores `structured_output` and parses the `result` text', find: 'structuredOutput = message.structured_output;', replace: 'structuredOutput = void 0;' },
  { ...CLAUDE_PROVIDER, check: 'provider-error', fault: "replaces the provider's message with a generic one", find: 'const errorMessage = resultText ?? (errorsText || "Claude Code CLI returned an error");', replace: 'const errorMessage = "Claude Code CLI returned an error";' },
  { ...CLAUDE_PROVIDER, check: 'usage', fault: 'drops the result usage', find: 'usage = convertClaudeCodeUsage(message.usage);', replace: 'usage = createEmptyUsage();' },
  { ...CLAUDE_PROVIDER, check: 'schema-sent', fault: 'never sets the SDK `outputFormat` (no --json-schema)', find: 'opts.outputFormat = {', replace: 'opts.droppedOutputFormat = {' },
  { ...CLAUDE_PROVIDER, check: 'forbidden-flags', fault: 'runs with permissionMode bypassPermissions', find: 'opts.outputFormat = {', replace: 'opts.permissionMode = "bypassPermissions";\n      opts.outputFormat = {' },
  // ai-sdk-provider-gemini-cli 2.0.1 (in process, against the Gemini mock)
  { ...GEMINI_PROVIDER, check: 'schema-sent', fault: 'JSON mode off (text/plain, no response schema)', find: 'responseMimeType: hasSchema ? "application/json" : "text/plain",', replace: 'responseMimeType: "text/plain",' },
  { ...GEMINI_PROVIDER, check: 'provider-error', fault: "replaces the API's message with a generic one", find: 'message: error.message', replace: 'message: "Gemini request failed"' },
  { ...GEMINI_PROVIDER, check: 'usage', fault: 'reports no input tokens', find: 'const inputTokens = response.usageMetadata?.promptTokenCount || 0;', replace: 'const inputTokens = 0;' },
  // Second round (issue 19 point 2: more copies than the issue lists), each with the public report of such a fault.
  {
    ...AGENT_SDK, check: 'stderr-visible', fault: "drops the CLI's stderr tail from the process-exit error (`Claude Code process exited with code 1` alone)",
    source: 'anthropics/claude-agent-sdk-typescript#106, ben-vargas/ai-sdk-provider-claude-code#136 (bare process-exit errors before the SDK added the stderr tail)',
    find: 'Claude Code process exited with code ${e}${this.formatStderrTail()}', replace: 'Claude Code process exited with code ${e}',
  },
  {
    ...AGENT_SDK, check: 'stderr-visible', fault: "ignores the CLI's non-zero exit code (the query ends as if the CLI had finished)",
    source: 'anthropics/claude-code#49396 (exit 1 with no message), alookai/alook#30 (a consumer overriding the exit code)',
    find: 'getProcessExitError(e,t){if(e!==0&&e!==null){', replace: 'getProcessExitError(e,t){if(false){',
  },
  {
    ...CODEX_SDK, check: 'stderr-visible', fault: "ignores the CLI's non-zero exit code (only a signal is an error)",
    source: 'alookai/alook#30 (exit code overridden), simonlin1212/Vibe-Research#16 (a failed codex run taken as an answer)',
    find: 'if (code !== 0 || signal) {', replace: 'if (signal) {',
  },
  {
    ...CODEX_SDK, check: 'forbidden-flags', fault: 'lifts the sandbox through a config override (`--config sandbox_mode="danger-full-access"`)',
    source: "Codex's `sandbox_mode` config key, settable with `-c`/`--config` (ai-sdk-provider-codex-cli sends its sandboxMode setting that way)",
    find: 'const commandArgs = ["exec", "--experimental-json"];', replace: 'const commandArgs = ["exec", "--experimental-json", "--config", \'sandbox_mode="danger-full-access"\'];',
  },
  {
    ...CODEX_CLI, check: 'forbidden-flags', fault: 'defaults `sandboxMode` to danger-full-access (`-c sandbox_mode=danger-full-access`)',
    source: "ai-sdk-provider-codex-cli's own `sandboxMode` setting (enum read-only | workspace-write | danger-full-access), sent as `-c sandbox_mode=<mode>`",
    find: 'const sandbox = settings.sandboxMode ?? "workspace-write";', replace: 'const sandbox = settings.sandboxMode ?? "danger-full-access";',
  },
  {
    ...CLAUDE_PROVIDER, check: 'incomplete-stream', fault: "takes the `StructuredOutput` tool call's input as the answer (no `result` needed)",
    source: 'appstrate/appstrate#833 (structured output captured from the tool call); examples/consumers/FINDINGS.md 1 (a stream cut before `result`)',
    find: 'if (isInternalStructuredOutputTool(tool3.name, options)) continue;', replace: 'if (isInternalStructuredOutputTool(tool3.name, options)) { structuredOutput = tool3.input; continue; }',
  },
  {
    ...GEMINI_PROVIDER, check: 'schema-sent', fault: 'JSON mode on but the response schema never sent (the schema only in the prompt)',
    source: 'vertesia/llumiverse#17 (schema passed in the prompt instead of responseSchema), langchain4j/langchain4j#1272 (JSON mode without a schema)',
    find: 'responseJsonSchema: hasSchema ? schema : void 0,', replace: 'responseJsonSchema: void 0,',
  },
  {
    ...GEMINI_PROVIDER, check: 'provider-error', fault: 'maps every API error to status 500 (the 400 branch of its error mapping removed)',
    source: "the provider's own mapGeminiError (status guessed from the message's words); anthropics/claude-agent-sdk-python#1031 (the status lost on the way to the caller)",
    find: 'if (message.includes("invalid") || message.includes("bad request")) {', replace: 'if (false) {',
  },
];

/** Link every entry of `from` into `to`, except `keep` (a package path such as `@openai/codex-sdk`), which is copied. */
async function linkTree(from: string, to: string, keep: string): Promise<void> {
  await mkdir(to, { recursive: true });
  const [head, ...rest] = keep.split('/');
  for (const name of await readdir(from)) {
    const source = path.join(from, name);
    if (name !== head) await symlink(source, path.join(to, name));
    else if (rest.length === 0) await cp(source, path.join(to, name), { recursive: true, verbatimSymlinks: true });
    else await linkTree(source, path.join(to, name), rest.join('/'));
  }
}

/**
 * Make the fail-open copy of `fault` under `root`; returns the copy's consumer folder.
 *
 * @throws {Error} when the consumer is not installed or the patch matches none of the files.
 */
export async function failOpenCopy(fault: Fault, root: string): Promise<string> {
  const original = projectPath('examples/consumers', fault.dir);
  if (installedVersion(fault.dir, fault.pkg) === null) throw new Error(`${fault.pkg} is not installed in examples/consumers/${fault.dir} (npm run consumers:install)`);
  const dir = path.join(root, fault.dir);
  await mkdir(path.join(root, '_kit'), { recursive: true });
  await cp(projectPath('examples/consumers/_kit/adapter-kit.mjs'), path.join(root, '_kit', 'adapter-kit.mjs'));
  await mkdir(dir, { recursive: true });
  await cp(path.join(original, 'adapter.mjs'), path.join(dir, 'adapter.mjs'));
  await cp(path.join(original, 'package.json'), path.join(dir, 'package.json'));
  await linkTree(path.join(original, 'node_modules'), path.join(dir, 'node_modules'), fault.pkg);
  for (const edit of [{ find: fault.find, replace: fault.replace }, ...(fault.more ?? [])]) {
    let hits = 0;
    for (const file of fault.files) {
      const target = path.join(dir, 'node_modules', fault.pkg, file);
      if (!(await lstat(target).catch(() => null))) continue;
      const text = await readFile(target, 'utf8');
      if (!text.includes(edit.find)) continue;
      hits += 1;
      await writeFile(target, text.split(edit.find).join(edit.replace));
    }
    if (hits === 0) throw new Error(`the fault "${fault.fault}" (${edit.find.slice(0, 60)}) matches nothing in ${fault.pkg} (${fault.files.join(', ')}): the installed code moved`);
  }
  return dir;
}

/** What certifying one copy gave: the named check's result (its status and first evidence line), and the copy's route status. */
export interface FailOpenResult {
  fault: Fault;
  consumer: string;
  check: CheckResult | undefined;
  routeStatus: string;
}

/**
 * Certify the fail-open copy of `fault` with the smoke and its named check only. Never throws for
 * what the copy does; the temporary folder is removed.
 */
export async function certifyFailOpen(fault: Fault): Promise<FailOpenResult> {
  const c = CONSUMERS.find((x) => x.dir === fault.dir) as Consumer;
  const root = await mkdtemp(path.join(tmpdir(), 'routecert-failopen-'));
  try {
    const dir = await failOpenCopy(fault, root);
    const version = installedVersion(c.dir, c.pkg) ?? 'unknown';
    const original = projectPath('examples/consumers', c.dir);
    const routes = (await loadConfig(path.join(original, 'routecert.config.ts'))).config.routes;
    const loaded = { config: consumerConfig(`${c.pkg}@${version} with a fault: ${fault.fault}`, routes), file: null, dir };
    const cert =
      c.drive === 'gemini-mock'
        ? (await certifyAgainstGeminiMock(loaded, { name: c.core ?? c.pkg, version: installedVersion(c.dir, c.core ?? c.pkg) ?? 'unknown' }, { checks: [fault.check] })).certificate
        : (await certify(loaded, { checks: fault.check.startsWith('smoke-') ? [] : [fault.check], subject: { name: c.pkg, version }, ...(pinnedCli(c) ? { cli: pinnedCli(c)! } : {}) })).certificate;
    const r = cert.routes[0]!;
    return { fault, consumer: `${c.pkg}@${version}`, check: [...r.smoke, ...r.checks].find((k) => k.id === fault.check), routeStatus: r.status };
  } finally {
    await rm(root, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** The markdown table of fail-open results: consumer, fault, the check that must refuse it, what it said. */
export function failOpenMarkdown(results: readonly FailOpenResult[]): string {
  const refused = results.filter((r) => r.check?.status === 'fail').length;
  const lines = [
    '# Fail-open copies of the consumers',
    '',
    `Written by \`npm run consumers:failopen\` (${new Date().toISOString().slice(0, 10)}): each row is the installed consumer copied with ONE fault put into its installed JavaScript (examples/consumers/_kit/failopen.ts), certified with the smoke and the check named for the fault. ${refused} of ${results.length} copies refused by their named check.`,
    '',
    '| consumer | fault put in | source | refusing check | result | route status | evidence |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    const status = r.check ? (r.check.status === 'fail' ? '**refused**' : r.check.status === 'pass' ? 'NOT refused' : `skipped: ${r.check.reason ?? ''}`) : 'check missing';
    const evidence = (r.check?.status === 'skipped' ? '' : (r.check?.evidence[0] ?? '')).replace(/\|/g, '\\|').replace(/\(pid \d+\)/g, '(pid <pid>)').slice(0, 240);
    const cell = (text: string) => text.replace(/\|/g, '\\|');
    lines.push(`| \`${r.consumer}\` | ${cell(r.fault.fault)} | ${cell(r.fault.source ?? '')} | \`${r.fault.check}\` | ${status} | ${r.routeStatus} | ${evidence} |`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Certify every fail-open copy, or those chosen by `names` (consumer folders and/or check ids: a copy
 * is chosen when its folder is named, if any folder is, and its check is named, if any check is);
 * write FAILOPEN.md when all ran. Returns 0 when every copy was refused by its check, else 1.
 */
export async function failOpenMain(names: readonly string[]): Promise<number> {
  const dirs = names.filter((n) => FAULTS.some((f) => f.dir === n));
  const checks = names.filter((n) => FAULTS.some((f) => f.check === n));
  const faults = FAULTS.filter((f) => (dirs.length === 0 || dirs.includes(f.dir)) && (checks.length === 0 || checks.includes(f.check)));
  const results: FailOpenResult[] = [];
  for (const fault of faults) {
    const r = await certifyFailOpen(fault);
    process.stdout.write(`${r.consumer}: ${fault.fault} -> ${fault.check}: ${r.check?.status ?? 'missing'}\n`);
    results.push(r);
  }
  if (names.length === 0) await writeFile(projectPath('examples/consumers/FAILOPEN.md'), failOpenMarkdown(results));
  return results.every((r) => r.check?.status === 'fail') ? 0 : 1;
}
