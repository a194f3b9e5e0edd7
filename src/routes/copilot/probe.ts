/**
 * GitHub Copilot CLI route: how to run `copilot` headless in BYOK mode, and the hermetic environment
 * that points it at the Chat Completions mock. Facts from Copilot CLI 1.0.102 run against the
 * loopback mock (research/cli-envelopes.md section 7, `copilot help environment`, and the probes in
 * probes/copilot.test.ts).
 *
 * No schema flag: the schema goes into the prompt ({@link promptWithSchema}) and the answer is JSON
 * text in the `assistant.message` event.
 */
import type { VersionTable } from '#src/routes/driver.ts';
import { flagsFor } from '#src/routes/versions.ts';
import type { ProbeHooks } from '#src/routes/define.ts';
import { promptWithSchema } from '#src/routes/schemaPrompt.ts';

/** The Copilot CLI routes. */
export const COPILOT_ROUTES = ['copilot/json'] as const;

/** The model every probe pins (`COPILOT_MODEL`, sent as the wire model). */
export const COPILOT_PINNED_MODEL = 'routecert-mock-1';

/** The test API key the probes hand the CLI (never a real credential; `sk-` so redaction catches it). */
export const COPILOT_TEST_API_KEY = 'sk-routecert-test-0000';

/**
 * The argv every supported version takes: `--output-format json --no-auto-update`, then the
 * version's flags from {@link COPILOT_VERSIONS} (1.0.102: `--disable-client-telemetry`). The prompt
 * is on stdin (Copilot CLI 1.0.102 runs a piped stdin prompt non-interactively, like `-p`); no
 * `--allow-all-tools`: the mock never asks for a tool, and nothing should be pre-approved.
 */
export const COPILOT_ARGV: readonly string[] = ['--output-format', 'json', '--no-auto-update'];

/**
 * Supported Copilot CLI versions and the flags that differ. `--disable-client-telemetry` is absent
 * from `copilot --help` of 1.0.81 and 1.0.92 (they exit 1 on it: every probe crashed, issue 12) and
 * present in 1.0.102; there is no release between 1.0.92 and 1.0.102 on npm.
 */
export const COPILOT_VERSIONS: VersionTable = {
  min: '1.0.81',
  source: 'probed green by `npm run probes:matrix` (1.0.81, 1.0.86, 1.0.102), 2026-12-01',
  flags: [{ argv: ['--disable-client-telemetry'], since: '1.0.102', source: '`copilot --help` of 1.0.81, 1.0.92 (absent) and 1.0.102 (present)' }],
};

/**
 * The whole environment of a hermetic Copilot CLI run (nothing inherited): PATH, HOME, TMPDIR, LANG,
 * `NO_COLOR=1`, and
 * - `COPILOT_PROVIDER_BASE_URL=<mock>/v1`, `COPILOT_PROVIDER_API_KEY`, `COPILOT_MODEL`: BYOK with
 *   the default provider type `openai` and wire API `completions` (no GitHub authentication needed);
 * - `COPILOT_OFFLINE=true`: no GitHub authentication, telemetry, web tools, GitHub MCP server or
 *   auto-update (without it the CLI resolves `api.github.com` on every run, seen with strace);
 * - `COPILOT_AUTO_UPDATE=false`.
 */
export function copilotEnv(options: { baseUrl: string; home: string; tmpDir: string; model?: string; path?: string }): Record<string, string> {
  return {
    PATH: options.path ?? process.env.PATH ?? '/usr/bin:/bin',
    HOME: options.home,
    TMPDIR: options.tmpDir,
    LANG: 'C.UTF-8',
    NO_COLOR: '1',
    COPILOT_PROVIDER_BASE_URL: `${options.baseUrl}/v1`,
    COPILOT_PROVIDER_API_KEY: COPILOT_TEST_API_KEY,
    COPILOT_MODEL: options.model ?? COPILOT_PINNED_MODEL,
    COPILOT_OFFLINE: 'true',
    COPILOT_AUTO_UPDATE: 'false',
  };
}

/**
 * The Copilot CLI probe hooks (route.ts adds the facts and builds the driver): Chat Completions mock (SSE), overloads with `retry-after-ms: 1`
 * (Copilot retries a 5xx 5 times and honours `retry-after`, read in whole seconds: about 5 s);
 * argv {@link COPILOT_ARGV}; the prompt, with the schema appended, on stdin.
 */
export const copilotProbe: ProbeHooks = {
  handlers: async (scenario, payloads) => (await import('#src/mock/openaiChat.ts')).openaiChatHandlers({ scenario, payloads, retryAfterMs: 1 }),
  async prepare(input) {
    if (input.route !== 'copilot/json') throw new Error(`[routecert] copilot has no route ${input.route}; routes: ${COPILOT_ROUTES.join(', ')}`);
    const argv = [...COPILOT_ARGV, ...flagsFor(COPILOT_VERSIONS, input.version)];
    return {
      argv,
      display: argv,
      env: copilotEnv({ baseUrl: input.mockUrl, home: input.workspace.home, tmpDir: input.workspace.tmpDir, ...(input.model === undefined ? {} : { model: input.model }) }),
      stdin: promptWithSchema(input.prompt, input.schema),
    };
  },
  rejectionLine: () => null,
  versions: COPILOT_VERSIONS,
  live: {
    // BYOK against OpenAI's Chat Completions: no GitHub account involved.
    credential: { from: ['COPILOT_PROVIDER_API_KEY', 'OPENAI_API_KEY'], as: 'COPILOT_PROVIDER_API_KEY' },
    endpoint: { env: 'COPILOT_PROVIDER_BASE_URL', default: 'https://api.openai.com', path: '/v1' },
    model: 'gpt-4.1-nano',
    source:
      '`copilot help environment` (1.0.102): COPILOT_PROVIDER_BASE_URL ("API endpoint URL for a custom model provider (BYOK)"), COPILOT_PROVIDER_API_KEY, COPILOT_MODEL, wire API completions by default; ' +
      'gpt-4.1-nano: no reasoning tokens, $0.10/$0.40 per Mtok (opencode 1.18.33 models.dev snapshot, pi 0.73.1 catalog)',
  },
};
