/**
 * Claude Code routes: how to run `claude` headless with a schema, and the hermetic environment
 * that points it at a provider mock. Facts from Claude Code 2.1.332 run against the loopback mock
 * (research/cli-envelopes.md section 2, and the probes in probes/claude.test.ts).
 */

import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { SideRequest } from '#src/mock/server.ts';
import type { VersionTable } from '#src/routes/driver.ts';
import type { ProbeHooks } from '#src/routes/define.ts';
import { startupRejectionLine } from '#src/routes/rejection.ts';
import { claudeDecoder } from './decoder.ts';

/** The Claude Code routes, in the order reports list them. */
export const CLAUDE_ROUTES = ['claude-code/json', 'claude-code/stream-json'] as const;

/** One of {@link CLAUDE_ROUTES}. */
export type ClaudeRoute = (typeof CLAUDE_ROUTES)[number];

/**
 * `-p --output-format text`: the answer as plain text, no envelope. Not one of {@link CLAUDE_ROUTES}
 * (no decoder reads it); startup probes use it to show that the output format does not change how
 * `--json-schema` is validated (Claude Code 2.1.332 refuses `_meta` under text, json and stream-json alike).
 */
export const CLAUDE_TEXT_ROUTE = 'claude-code/text';

/** The model every probe pins (argv `--model` and env `ANTHROPIC_MODEL`), so fixtures never drift with the CLI's default. */
export const CLAUDE_PINNED_MODEL = 'claude-sonnet-4-5';

/**
 * Default `--max-turns`. 5 is the smallest value with which every scenario ends by the CLI's own
 * rules (Claude Code 2.1.332): the `[structured-output-enforce]` nudge costs a turn (with 1,
 * `prose-only` ends `error_max_turns`), and a tool input that fails the schema is retried until 5
 * requests have failed (`error_max_structured_output_retries`; with 1 or 2 it ends `error_max_turns`).
 */
export const CLAUDE_DEFAULT_MAX_TURNS = 5;

/** The placeholder that stands for the schema token in a displayed argv. */
export const SCHEMA_PLACEHOLDER = '<schema>';

/** The test API key the probes hand the CLI (never a real credential). */
export const CLAUDE_TEST_API_KEY = 'sk-ant-routecert-test-0000';

/** Flags a probe must never pass (they lift permission checks). */
export const FORBIDDEN_FLAGS: readonly string[] = [
  '--dangerously-skip-permissions',
  '--allow-dangerously-skip-permissions',
  'bypassPermissions',
  '--yolo',
  '--force',
];

/**
 * Options of {@link claudeArgv}.
 *
 * - `route`: which output format.
 * - `schema`: the JSON Schema; passed as ONE argv token of JSON text after `--json-schema`.
 * - `model`: @default {@link CLAUDE_PINNED_MODEL}.
 * - `maxTurns`: @default {@link CLAUDE_DEFAULT_MAX_TURNS}.
 */
export interface ClaudeArgvOptions {
  route: ClaudeRoute | typeof CLAUDE_TEXT_ROUTE;
  schema: object | null;
  model?: string;
  maxTurns?: number;
}

/**
 * The argv of one Claude Code run, as spawned and as displayed.
 *
 * - `argv`: the arguments after the executable, exactly as spawned.
 * - `display`: the same with the schema token replaced by {@link SCHEMA_PLACEHOLDER}.
 * - `promptVia`: always `stdin`: the prompt is written to stdin, which is then closed.
 *   Claude Code 2.1.332 reads the prompt from stdin under `-p` when no prompt argument is given;
 *   this is how the consumer in research/ce-plugin.md runs it, and it keeps a prompt that starts
 *   with `-` or is longer than ARG_MAX out of argv.
 */
export interface ClaudeArgv {
  argv: string[];
  display: string[];
  promptVia: 'stdin';
}

/**
 * Build the argv of one route:
 * `-p --output-format json|stream-json|text [--verbose] --json-schema <schema> --model <m>
 * --max-turns <n> --no-session-persistence --permission-mode dontAsk`.
 *
 * - `stream-json` under `-p` requires `--verbose` (else `Error: When using --print,
 *   --output-format=stream-json requires --verbose`, exit 1; Claude Code 2.1.332).
 * - `--no-session-persistence`: nothing is written for resuming (the config dir is thrown away anyway).
 * - `--permission-mode dontAsk`: tools that would need permission are denied, never prompted.
 * - `schema: null` omits `--json-schema` (a run without structured output).
 *
 * Never contains a {@link FORBIDDEN_FLAGS} entry.
 *
 * @example
 * claudeArgv({ route: 'claude-code/json', schema: { type: 'object' } }).display
 * // ['-p', '--output-format', 'json', '--json-schema', '<schema>', '--model', 'claude-sonnet-4-5', '--max-turns', '5', ...]
 */
export function claudeArgv(options: ClaudeArgvOptions): ClaudeArgv {
  const format = options.route === 'claude-code/stream-json' ? 'stream-json' : options.route === CLAUDE_TEXT_ROUTE ? 'text' : 'json';
  const head = ['-p', '--output-format', format, ...(format === 'stream-json' ? ['--verbose'] : [])];
  const tail = [
    '--model',
    options.model ?? CLAUDE_PINNED_MODEL,
    '--max-turns',
    String(options.maxTurns ?? CLAUDE_DEFAULT_MAX_TURNS),
    '--no-session-persistence',
    '--permission-mode',
    'dontAsk',
  ];
  if (options.schema === null) return { argv: [...head, ...tail], display: [...head, ...tail], promptVia: 'stdin' };
  return {
    argv: [...head, '--json-schema', JSON.stringify(options.schema), ...tail],
    display: [...head, '--json-schema', SCHEMA_PLACEHOLDER, ...tail],
    promptVia: 'stdin',
  };
}

/**
 * Inputs of {@link claudeEnv}: the mock's origin and the throwaway directories.
 * `path`, `lang`: @default `process.env.PATH`, `'C.UTF-8'`.
 */
export interface ClaudeEnvOptions {
  baseUrl: string;
  home: string;
  configDir: string;
  tmpDir: string;
  model?: string;
  path?: string;
  lang?: string;
}

/**
 * The whole environment of a hermetic Claude Code run (nothing is inherited from the parent):
 * PATH, HOME, TMPDIR, LANG, and
 * - `ANTHROPIC_BASE_URL`: the mock (Claude Code 2.1.332 posts to `<base>/v1/messages?beta=true`);
 * - `ANTHROPIC_API_KEY`: {@link CLAUDE_TEST_API_KEY} (without a key it answers "Not logged in"
 *   with no request at all);
 * - `ANTHROPIC_MODEL`: the pinned model;
 * - `CLAUDE_CONFIG_DIR`: a throwaway config dir;
 * - `CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1`, `DISABLE_AUTOUPDATER=1`, `DISABLE_TELEMETRY=1`,
 *   `DISABLE_ERROR_REPORTING=1`: no traffic but the model calls;
 * - `CLAUDE_CODE_MAX_RETRIES=0`: no HTTP retries (a 401 from a custom base URL was otherwise retried
 *   for more than 120 s).
 */
export function claudeEnv(options: ClaudeEnvOptions): Record<string, string> {
  const model = options.model ?? CLAUDE_PINNED_MODEL;
  return {
    PATH: options.path ?? process.env.PATH ?? '/usr/bin:/bin',
    HOME: options.home,
    TMPDIR: options.tmpDir,
    LANG: options.lang ?? 'C.UTF-8',
    ANTHROPIC_BASE_URL: options.baseUrl,
    ANTHROPIC_API_KEY: CLAUDE_TEST_API_KEY,
    ANTHROPIC_MODEL: model,
    CLAUDE_CONFIG_DIR: options.configDir,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_MAX_RETRIES: '0',
  };
}

/** Type guard: is `route` one of {@link CLAUDE_ROUTES}? */
export function isClaudeRoute(route: string): route is ClaudeRoute {
  return (CLAUDE_ROUTES as readonly string[]).includes(route);
}

/**
 * Claude Code's startup-rejection line (`--json-schema is not a valid JSON Schema: ...`, `requires
 * --verbose`, an argument refusal), as its decoder reads it (./decoder.ts `CLAUDE_SCHEMA_REFUSED`).
 */
export function claudeRejectionLine(stderr: string): string | null {
  return startupRejectionLine(claudeDecoder('claude-code/json'), stderr);
}

/**
 * Side requests Claude Code makes besides `POST /v1/messages`, answered as api.anthropic.com does.
 * Claude Code 2.1.250 fires a preconnect `HEAD <ANTHROPIC_BASE_URL>/api/hello` at start-up (errors
 * ignored, 10 s timeout) and its preflight / privacy checks `GET /api/hello`, which must be
 * status 200 (`n.status!==200` fails the preflight): read from the 2.1.250 binary and the mock's
 * request log of a 2.1.250 probe. 2.1.332 makes neither.
 */
export const CLAUDE_SIDE_REQUESTS: readonly SideRequest[] = [
  { method: 'HEAD', path: '/api/hello', status: 200, source: 'Claude Code 2.1.250 preconnect (HEAD, result ignored)' },
  { method: 'GET', path: '/api/hello', status: 200, source: 'Claude Code 2.1.250 preflight (expects status 200)' },
];

/**
 * Supported Claude Code versions. Every flag routecert sends (see {@link claudeArgv}) is in
 * `claude --help` of 2.1.250 and 2.1.332 (`--max-turns` is accepted by both but hidden from the
 * help), so no flag differs inside the range.
 */
export const CLAUDE_VERSIONS: VersionTable = {
  min: '2.1.250',
  source: 'probed green by `npm run probes:matrix` (2.1.250, 2.1.292, 2.1.332), 2026-12-01',
  flags: [],
};

/**
 * The Claude Code probe hooks (route.ts adds the facts and builds the driver): Anthropic Messages mock (SSE), `ANTHROPIC_BASE_URL`, prompt on
 * stdin, schema as one `--json-schema` token, config dir `<home>/.claude`.
 */
export const claudeProbe: ProbeHooks = {
  handlers: async (scenario, payloads) => (await import('#src/mock/anthropic.ts')).anthropicHandlers({ scenario, payloads }),
  rejectionLine: claudeRejectionLine,
  async prepare(input) {
    if (!isClaudeRoute(input.route) && input.route !== CLAUDE_TEXT_ROUTE) {
      throw new Error(`[routecert] claude has no route ${input.route}; routes: ${[...CLAUDE_ROUTES, CLAUDE_TEXT_ROUTE].join(', ')}`);
    }
    const configDir = join(input.workspace.home, '.claude');
    await mkdir(configDir, { recursive: true });
    const model = input.model ?? CLAUDE_PINNED_MODEL;
    const built = claudeArgv({ route: input.route, schema: input.schema, model });
    return {
      argv: built.argv,
      display: built.display,
      env: claudeEnv({ baseUrl: input.mockUrl, home: input.workspace.home, configDir, tmpDir: input.workspace.tmpDir, model }),
      stdin: input.prompt,
    };
  },
  sideRequests: CLAUDE_SIDE_REQUESTS,
  versions: CLAUDE_VERSIONS,
  live: {
    credential: { from: ['ANTHROPIC_API_KEY'], as: 'ANTHROPIC_API_KEY' },
    endpoint: { env: 'ANTHROPIC_BASE_URL', default: 'https://api.anthropic.com' },
    model: 'claude-haiku-4-5',
    source: 'Claude Code reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL (`claude --help`, docs); Haiku is the cheapest model it offers',
  },
};
