/**
 * Qwen Code routes: how to run `qwen` headless with a schema, and the hermetic environment that
 * points it at the Chat Completions mock. Facts from Qwen Code 0.24.4 run against the loopback mock
 * (research/cli-envelopes.md section 5, and the probes in probes/qwen.test.ts).
 *
 * Node: 0.24.4's package.json declares `engines.node >= 22`, yet it runs on Node 20.20 here (every
 * probe of probes/qwen.test.ts passes on it); npm only warns about the engine at install.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProbeHooks } from '#src/routes/define.ts';
import type { VersionTable } from '#src/routes/driver.ts';
import { qwenRejectionLine } from '#src/routes/qwen/decoder.ts';

/** The Qwen Code routes, in the order reports list them. */
export const QWEN_ROUTES = ['qwen-code/json', 'qwen-code/stream-json'] as const;

/** One of {@link QWEN_ROUTES}. */
export type QwenProbeRoute = (typeof QWEN_ROUTES)[number];

/** The model every probe pins (`--model` and `OPENAI_MODEL`). */
export const QWEN_PINNED_MODEL = 'routecert-mock-1';

/** The test API key the probes hand the CLI (never a real credential; `sk-` so redaction catches it). */
export const QWEN_TEST_API_KEY = 'sk-routecert-test-0000';

/** The function tool that carries `--json-schema` on the wire (Qwen Code 0.24.4). */
export const QWEN_STRUCTURED_TOOL = 'structured_output';

/** The placeholder that stands for the schema token in a displayed argv. */
export const QWEN_SCHEMA_PLACEHOLDER = '<schema>';

/**
 * `~/.qwen/settings.json` of a hermetic run (Qwen Code 0.24.4 settings keys):
 * - `security.auth.selectedType: "openai"`: the OpenAI-compatible provider (`OPENAI_BASE_URL`);
 * - `privacy.usageStatisticsEnabled: false`: without it the CLI resolves an Aliyun RUM telemetry
 *   host (`*.rum.aliyuncs.com`, seen with `strace -e trace=connect`);
 * - `telemetry.enabled: false`, `general.disableAutoUpdate`, `general.disableUpdateNag`: no update check;
 * - `memory.enableManagedAutoMemory/enableManagedAutoDream: false`: without them a text answer is
 *   followed by a second request, a "managed memory extraction subagent" with write tools;
 * - `model.generationConfig.maxRetries: 0`: no OpenAI SDK retries under the CLI's own retry loop
 *   (which still makes 7 attempts on a 5xx; the mock's `retry-after-ms` makes them immediate).
 */
export const QWEN_HERMETIC_SETTINGS = Object.freeze({
  security: { auth: { selectedType: 'openai' } },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  general: { disableAutoUpdate: true, disableUpdateNag: true },
  memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false },
  model: { generationConfig: { maxRetries: 0 } },
});

/** Type guard: is `route` one of {@link QWEN_ROUTES}? */
export function isQwenRoute(route: string): route is QwenProbeRoute {
  return (QWEN_ROUTES as readonly string[]).includes(route);
}

/**
 * The argv of one Qwen Code run: `--output-format json|stream-json --json-schema <schema> --model <m>`.
 * The schema is ONE argv token of JSON text (`@file` also works in 0.24.4). The prompt is not in
 * argv: Qwen Code reads it from stdin when no prompt argument is given (the `-p` flag is deprecated).
 * `display` shows the schema as {@link QWEN_SCHEMA_PLACEHOLDER}.
 */
export function qwenArgv(route: QwenProbeRoute, schema: object | null, model: string = QWEN_PINNED_MODEL): { argv: string[]; display: string[] } {
  const head = ['--output-format', route === 'qwen-code/stream-json' ? 'stream-json' : 'json'];
  const tail = ['--model', model];
  if (schema === null) return { argv: [...head, ...tail], display: [...head, ...tail] };
  return {
    argv: [...head, '--json-schema', JSON.stringify(schema), ...tail],
    display: [...head, '--json-schema', QWEN_SCHEMA_PLACEHOLDER, ...tail],
  };
}

/**
 * The whole environment of a hermetic Qwen Code run (nothing inherited): PATH, HOME, TMPDIR, LANG,
 * `NO_COLOR=1`, `OPENAI_BASE_URL=<mock>/v1` (it posts to `<base>/chat/completions`),
 * `OPENAI_API_KEY`, `OPENAI_MODEL`, and `QWEN_USAGE_STATISTICS_ENABLED=false` (the env twin of
 * `privacy.usageStatisticsEnabled`).
 */
export function qwenEnv(options: { baseUrl: string; home: string; tmpDir: string; model?: string; path?: string }): Record<string, string> {
  return {
    PATH: options.path ?? process.env.PATH ?? '/usr/bin:/bin',
    HOME: options.home,
    TMPDIR: options.tmpDir,
    LANG: 'C.UTF-8',
    NO_COLOR: '1',
    OPENAI_BASE_URL: `${options.baseUrl}/v1`,
    OPENAI_API_KEY: QWEN_TEST_API_KEY,
    OPENAI_MODEL: options.model ?? QWEN_PINNED_MODEL,
    QWEN_USAGE_STATISTICS_ENABLED: 'false',
  };
}

/**
 * Supported Qwen Code versions: from 0.23.4. Older releases fail the plan (`npm run probes:matrix`):
 * - 0.15.6 has no `--json-schema` (absent from `qwen --help`; no `structured_output` tool in its
 *   bundle; the flag came with QwenLM/qwen-code PR #3598): every probe is rejected at startup;
 * - 0.15.10, 0.21.2, 0.21.10 and 0.23.0 misreport a provider error (`api-400`, `api-529`: 20/24):
 *   a stream error event ends the run only in `--output-format text`; in json and stream-json the
 *   `[API Error: 400 ...]` text is passed on as an assistant message and the run ends
 *   `error_during_execution` with "Model produced plain text instead of calling the
 *   structured_output tool as required by --json-schema", which routecert reads as an unusable
 *   answer, not a provider error. 0.23.4 ends the run on the error in every output format with the
 *   API error as the result's `error.message` (its bundled non-interactive runner; 0.23.1 and 0.23.3
 *   still have the text-only check). No flag differs inside the range.
 */
export const QWEN_VERSIONS: VersionTable = {
  min: '0.23.4',
  source: 'probed green by `npm run probes:matrix` (0.23.4, 0.24.2, 0.24.4), 2026-12-01; 0.23.0 and older misreport provider errors, 0.15.6 has no --json-schema',
  flags: [],
};

/**
 * The Qwen Code probe hooks (route.ts adds the facts and builds the driver): Chat Completions mock (SSE) offering the answer through the
 * `structured_output` tool; overloads answered 503 with `retry-after-ms: 1` (Qwen Code 0.24.4 honours
 * the header only on 429/503: a 529 is retried 7 times with 1.5-30 s backoff, about 75 s);
 * `~/.qwen/settings.json` = {@link QWEN_HERMETIC_SETTINGS}; prompt on stdin.
 */
export const qwenProbe: ProbeHooks = {
  handlers: async (scenario, payloads) =>
    (await import('#src/mock/openaiChat.ts')).openaiChatHandlers({ scenario, payloads, structuredToolName: QWEN_STRUCTURED_TOOL, overloadedStatus: 503, retryAfterMs: 1 }),
  async prepare(input) {
    if (!isQwenRoute(input.route)) throw new Error(`[routecert] qwen has no route ${input.route}; routes: ${QWEN_ROUTES.join(', ')}`);
    const configDir = join(input.workspace.home, '.qwen');
    await mkdir(configDir, { recursive: true });
    await writeFile(join(configDir, 'settings.json'), `${JSON.stringify(QWEN_HERMETIC_SETTINGS, null, 2)}\n`, 'utf8');
    const model = input.model ?? QWEN_PINNED_MODEL;
    const built = qwenArgv(input.route, input.schema, model);
    return {
      argv: built.argv,
      display: built.display,
      env: qwenEnv({ baseUrl: input.mockUrl, home: input.workspace.home, tmpDir: input.workspace.tmpDir, model }),
      stdin: input.prompt,
    };
  },
  rejectionLine: qwenRejectionLine,
  versions: QWEN_VERSIONS,
  live: {
    // The mock's own mechanism: OPENAI_BASE_URL (<origin>/v1), OPENAI_API_KEY, OPENAI_MODEL.
    credential: { from: ['OPENAI_API_KEY'], as: 'OPENAI_API_KEY' },
    endpoint: { env: 'OPENAI_BASE_URL', default: 'https://api.openai.com', path: '/v1' },
    model: 'gpt-4.1-nano',
    source:
      'Qwen Code 0.24.4 docs (bundled/qc-helper/docs/configuration/auth.md): auth type openai reads OPENAI_API_KEY, OPENAI_BASE_URL, OPENAI_MODEL; ' +
      'the OpenAI SDK it bundles defaults to https://api.openai.com/v1; gpt-4.1-nano: no reasoning tokens (its reasoning table makes thinking mandatory for gpt-5-nano), ' +
      '$0.10/$0.40 per Mtok (opencode 1.18.33 models.dev snapshot, pi 0.73.1 catalog)',
  },
};
