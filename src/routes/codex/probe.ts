/**
 * The Codex route `codex/jsonl`: how to run `codex exec` headless with an output schema, and the
 * hermetic environment that points it at the OpenAI Responses mock. Facts from Codex 0.171.0 run
 * against the loopback mock (research/cli-envelopes.md section 3, and probes/codex.test.ts).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProbeHooks } from '#src/routes/define.ts';
import type { VersionTable } from '#src/routes/driver.ts';
import { startupRejectionLine } from '#src/routes/rejection.ts';
import { codexDecoder } from './decoder.ts';

/** The Codex routes, in the order reports list them. */
export const CODEX_ROUTES = ['codex/jsonl'] as const;

/** One of {@link CODEX_ROUTES}. */
export type CodexRoute = (typeof CODEX_ROUTES)[number];

/**
 * The model every probe pins (`-m` and `model` in config.toml), so fixtures never drift with the
 * CLI's default. A model Codex 0.171.0 has metadata for: an unknown id (e.g. `gpt-5.4`,
 * `gpt-5-codex`) adds a non-fatal `error` item ``Model metadata for `<id>` not found`` to the
 * stream and drops `text.verbosity` from the request (observed).
 */
export const CODEX_PINNED_MODEL = 'gpt-5.5';

/** The model of a `--live` Codex run: the cheapest in Codex 0.171.0's built-in catalog (see the driver's `live.source`). */
const CODEX_LIVE_MODEL = 'gpt-6-luna';

/** `model_reasoning_effort` of a `--live` run: the lowest level gpt-6-luna supports in Codex 0.171.0's catalog. */
const CODEX_LIVE_REASONING_EFFORT = 'low';

/** The id of the custom model provider written into the throwaway `config.toml`. */
export const CODEX_MOCK_PROVIDER = 'routecert_mock';

/** The environment variable that carries the provider's API key (`env_key` of the custom provider). */
export const CODEX_MOCK_KEY_ENV = 'ROUTECERT_MOCK_API_KEY';

/** The test API key the probes hand the CLI (never a real credential); sent as `Authorization: Bearer`. */
export const CODEX_TEST_API_KEY = 'sk-routecert-codex-test-0000';

/** The placeholders that stand for the schema file and the `-o` file in a displayed argv. */
export const CODEX_SCHEMA_PLACEHOLDER = '<schema-file>';
export const CODEX_LAST_MESSAGE_PLACEHOLDER = '<last-message-file>';

/** The side-file role of the `-o` file in an envelope's `files`. */
const LAST_MESSAGE_ROLE = 'last-message';

/**
 * Flags a Codex probe must never pass: they lift the sandbox or the approvals
 * (`--dangerously-bypass-approvals-and-sandbox`, its alias `--yolo`), or widen what the agent may
 * write (`--full-auto`, `danger-full-access`).
 */
export const CODEX_FORBIDDEN_FLAGS: readonly string[] = [
  '--dangerously-bypass-approvals-and-sandbox',
  '--yolo',
  '--full-auto',
  'danger-full-access',
  '--dangerously-bypass-hook-trust',
];

/**
 * Options of {@link codexArgv}.
 * - `schemaFile`: path of the `--output-schema` file, or `null` for a run without a schema;
 * - `lastMessageFile`: path of the `-o` file;
 * - `model`: @default {@link CODEX_PINNED_MODEL}.
 */
export interface CodexArgvOptions {
  schemaFile: string | null;
  lastMessageFile: string;
  model?: string;
}

/**
 * The argv of one `codex/jsonl` run, as spawned and as displayed (paths as placeholders):
 * `exec --json [--output-schema <file>] -o <file> --skip-git-repo-check --ephemeral -s read-only
 * --color never -m <model> -`.
 *
 * - `--json`: JSONL events on stdout (without it the transcript goes to stderr and only the final
 *   message to stdout; Codex 0.171.0);
 * - `--output-schema`: the schema FILE, sent verbatim as Responses `text.format` json_schema
 *   with `strict: true`, name `codex_output_schema`;
 * - `-o`: the last agent message is also written to this file;
 * - `--skip-git-repo-check`: the throwaway cwd is not a git repository;
 * - `--ephemeral`: no session files are persisted;
 * - `-s read-only`: the model's commands (none in these scenarios) may not write;
 * - `-` : the prompt is read from stdin (written by the runner, then closed).
 *
 * Never contains a {@link CODEX_FORBIDDEN_FLAGS} entry.
 */
export function codexArgv(options: CodexArgvOptions): { argv: string[]; display: string[] } {
  const model = options.model ?? CODEX_PINNED_MODEL;
  const build = (schema: string | null, last: string): string[] => [
    'exec',
    '--json',
    ...(schema === null ? [] : ['--output-schema', schema]),
    '-o',
    last,
    '--skip-git-repo-check',
    '--ephemeral',
    '-s',
    'read-only',
    '--color',
    'never',
    '-m',
    model,
    '-',
  ];
  return {
    argv: build(options.schemaFile, options.lastMessageFile),
    display: build(options.schemaFile === null ? null : CODEX_SCHEMA_PLACEHOLDER, CODEX_LAST_MESSAGE_PLACEHOLDER),
  };
}

/** TOML basic string: quotes and backslashes escaped. */
function tomlString(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * The throwaway `$CODEX_HOME/config.toml`: a custom model provider pointing at the mock, so Codex
 * goes straight to HTTP SSE `POST <base_url>/responses` (the built-in `openai` provider first tries
 * a WebSocket upgrade and retries it for about 7 s; Codex 0.171.0, research/cli-envelopes.md §3).
 *
 * - `base_url`: `<mockUrl>/v1`; `wire_api = "responses"`; `env_key`: {@link CODEX_MOCK_KEY_ENV}
 *   (sent as `Authorization: Bearer`);
 * - `request_max_retries = 0`, `stream_max_retries = 0`: an HTTP error is reported after one
 *   request (with the defaults a 529 took 30 requests and about 25 s, with five
 *   `Reconnecting... n/5` error events before `turn.failed`; observed). A refused *connection* is
 *   still retried without bound (`Reconnecting... waiting for network`), so the probe's deadline
 *   is what ends a run whose mock is gone;
 * - `check_for_update_on_startup = false`, `[analytics] enabled = false`,
 *   `[feedback] enabled = false`: no traffic but the model calls;
 * - `[features]` `plugins`, `remote_plugin`, `apps`, `plugin_sharing`, `tool_suggest` off: with
 *   them on, Codex 0.171.0 runs `git ls-remote https://github.com/openai/plugins.git` and resolves
 *   `api.github.com` and `chatgpt.com` at startup (observed with strace); with them off the only
 *   connection is to the mock. {@link DEAD_PROXY} catches anything left.
 *
 * A `--live` run (`keyEnv` set) writes the same file with the real origin as `base_url`, `env_key`
 * = `keyEnv` (the variable the runner puts the credential in; the file never holds it) and
 * `model_reasoning_effort` = `reasoningEffort` ({@link CODEX_LIVE_REASONING_EFFORT}).
 */
export function codexConfigToml(options: { mockUrl: string; model?: string; keyEnv?: string; reasoningEffort?: string }): string {
  const model = options.model ?? CODEX_PINNED_MODEL;
  return [
    options.keyEnv === undefined ? '# routecert hermetic probe: every request goes to the loopback mock.' : '# routecert --live probe: model requests go to the provider named below.',
    `model = ${tomlString(model)}`,
    ...(options.reasoningEffort === undefined ? [] : [`model_reasoning_effort = ${tomlString(options.reasoningEffort)}`]),
    `model_provider = ${tomlString(CODEX_MOCK_PROVIDER)}`,
    'check_for_update_on_startup = false',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[feedback]',
    'enabled = false',
    '',
    '[features]',
    'plugins = false',
    'remote_plugin = false',
    'apps = false',
    'plugin_sharing = false',
    'tool_suggest = false',
    '',
    `[model_providers.${CODEX_MOCK_PROVIDER}]`,
    'name = "routecert mock"',
    `base_url = ${tomlString(`${options.mockUrl}/v1`)}`,
    'wire_api = "responses"',
    `env_key = ${tomlString(options.keyEnv ?? CODEX_MOCK_KEY_ENV)}`,
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
  ].join('\n');
}

/**
 * The whole environment of a hermetic Codex run (nothing is inherited from the parent): PATH, HOME,
 * TMPDIR, LANG, `CODEX_HOME` (the throwaway config dir), the provider key
 * ({@link CODEX_MOCK_KEY_ENV} = {@link CODEX_TEST_API_KEY}), `NO_COLOR=1`, `RUST_LOG=error`
 * (no tracing lines on stderr), and `HTTP(S)_PROXY` / `ALL_PROXY` = {@link DEAD_PROXY} with
 * `NO_PROXY=127.0.0.1,localhost` in both spellings (Codex's HTTP client and `git` honour them).
 * No `OPENAI_API_KEY` / `CODEX_API_KEY`: the custom provider's `env_key` is the only credential.
 * `allowHost` (a `--live` run): the provider's host, added to `NO_PROXY`.
 */
export function codexEnv(options: { home: string; codexHome: string; tmpDir: string; path?: string; lang?: string; allowHost?: string }): Record<string, string> {
  // A live run lets the provider's host past the dead proxy; everything else still goes to it.
  const noProxy = ['127.0.0.1', 'localhost', ...(options.allowHost !== undefined && !['127.0.0.1', 'localhost'].includes(options.allowHost) ? [options.allowHost] : [])].join(',');
  return {
    PATH: options.path ?? process.env.PATH ?? '/usr/bin:/bin',
    HOME: options.home,
    TMPDIR: options.tmpDir,
    LANG: options.lang ?? 'C.UTF-8',
    CODEX_HOME: options.codexHome,
    [CODEX_MOCK_KEY_ENV]: CODEX_TEST_API_KEY,
    NO_COLOR: '1',
    RUST_LOG: 'error',
    HTTP_PROXY: DEAD_PROXY,
    HTTPS_PROXY: DEAD_PROXY,
    ALL_PROXY: DEAD_PROXY,
    http_proxy: DEAD_PROXY,
    https_proxy: DEAD_PROXY,
    all_proxy: DEAD_PROXY,
    NO_PROXY: noProxy,
    no_proxy: noProxy,
  };
}

/**
 * The proxy every non-loopback request is sent to: port 9 (discard) on 127.0.0.1, where nothing
 * listens, so a request Codex (or a child such as `git`) would make to the outside fails at once
 * on loopback instead of leaving the machine. `NO_PROXY` exempts the mock.
 */
export const DEAD_PROXY = 'http://127.0.0.1:9';

/** Type guard: is `route` one of {@link CODEX_ROUTES}? */
export function isCodexRoute(route: string): route is CodexRoute {
  return (CODEX_ROUTES as readonly string[]).includes(route);
}

/**
 * Codex's own startup-rejection line on stderr, when it refused to start: an unreadable or
 * non-JSON `--output-schema` file (`Failed to read output schema file X: ...`,
 * `Output schema file X is not valid JSON: ...`; Codex 0.171.0) or an argv error
 * (`error: unexpected argument ...`). `null` otherwise. A schema the *provider* refuses is not on
 * stderr: it arrives as a `turn.failed` event on stdout (see the codex decoder).
 */
export function codexRejectionLine(stderr: string): string | null {
  return startupRejectionLine(codexDecoder(), stderr);
}

/**
 * Supported Codex versions. Every flag of {@link codexArgv} is in `codex exec --help` of 0.153.0
 * (`--json`, `--output-schema`, `-o/--output-last-message`, `--skip-git-repo-check`, `--ephemeral`,
 * `-s`, `--color`, `-m`) and of 0.171.0, so no flag differs inside the range. 0.153.0 (2026-09-03)
 * is about three months before the pinned 0.171.0; older releases were not tried.
 */
export const CODEX_VERSIONS: VersionTable = {
  min: '0.153.0',
  source: 'probed green by `npm run probes:matrix` (0.153.0, 0.159.1, 0.171.0), 2026-12-01',
  flags: [],
};

/**
 * The Codex probe hooks (route.ts adds the facts and builds the driver): OpenAI Responses mock (SSE, strict `text.format` enforced), a custom
 * model provider in a throwaway `CODEX_HOME`, the schema written to `<root>/output-schema.json`, the
 * `-o` file `<root>/last-message.txt` read back as side file `last-message`, prompt on stdin.
 */
export const codexProbe: ProbeHooks = {
  handlers: async (scenario, payloads) => (await import('#src/mock/openaiResponses.ts')).openAiResponsesHandlers({ scenario, payloads }),
  async prepare(input) {
    if (!isCodexRoute(input.route)) throw new Error(`[routecert] codex has no route ${input.route}; routes: ${CODEX_ROUTES.join(', ')}`);
    const codexHome = join(input.workspace.home, '.codex');
    await mkdir(codexHome, { recursive: true });
    const model = input.model ?? CODEX_PINNED_MODEL;
    const live = input.live ? { keyEnv: input.live.credentialVar, reasoningEffort: CODEX_LIVE_REASONING_EFFORT } : {};
    await writeFile(join(codexHome, 'config.toml'), codexConfigToml({ mockUrl: input.mockUrl, model, ...live }), 'utf8');
    let schemaFile: string | null = null;
    if (input.schema !== null) {
      schemaFile = join(input.workspace.root, 'output-schema.json');
      await writeFile(schemaFile, `${JSON.stringify(input.schema, null, 2)}\n`, 'utf8');
    }
    const lastMessageFile = join(input.workspace.root, 'last-message.txt');
    const built = codexArgv({ schemaFile, lastMessageFile, model });
    return {
      argv: built.argv,
      display: built.display,
      env: codexEnv({ home: input.workspace.home, codexHome, tmpDir: input.workspace.tmpDir, ...(input.live ? { allowHost: input.live.host } : {}) }),
      stdin: input.prompt,
      files: { [LAST_MESSAGE_ROLE]: lastMessageFile },
    };
  },
  versions: CODEX_VERSIONS,
  live: {
    // The same custom provider as the mock's (config.toml), its base_url the real origin + /v1.
    credential: { from: ['CODEX_API_KEY', 'OPENAI_API_KEY'], as: 'CODEX_API_KEY' },
    endpoint: { env: 'ROUTECERT_LIVE_CODEX_ORIGIN', default: 'https://api.openai.com' },
    model: CODEX_LIVE_MODEL,
    source:
      'Codex 0.171.0: CODEX_API_KEY is sent as Bearer by the built-in provider, OPENAI_API_KEY is the key it names (research/cli-envelopes.md §3, strings of the codex binary); ' +
      'no endpoint variable (OPENAI_BASE_URL is ignored, §3): the endpoint is model_providers.<id>.base_url in the config.toml routecert writes, so ROUTECERT_LIVE_CODEX_ORIGIN; ' +
      'gpt-6-luna is "Fast and affordable model for easier tasks." in the model catalog built into the 0.171.0 binary (supported_in_api, lowest reasoning level "low"; $0.10/$0.50 per Mtok in opencode 1.18.33\'s bundled models.dev snapshot)',
  },
};

