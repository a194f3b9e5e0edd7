/**
 * grok-cli (`@vibe-kit/grok-cli` 0.0.34, binary `grok`, routecert name `grok-cli`): how to run it
 * headless and the hermetic environment that points it at the non-streaming Chat Completions mock.
 * Facts from grok-cli 0.0.34 run against the loopback mock (research/cli-envelopes.md section 9a,
 * and the probes in probes/grokCli.test.ts):
 *
 * - `grok -p <prompt>` always prints JSONL chat messages (`{"role":"user"|"assistant"|"tool",...}`);
 *   no schema flag (the schema goes into the prompt), no stdin prompt;
 * - `grok --version` prints `1.0.1` (hard-coded in the 0.0.34 package), so discovery reports 1.0.1;
 * - `GROK_API_KEY`, `GROK_BASE_URL` (the OpenAI SDK base, e.g. `<mock>/v1`), `GROK_MODEL`; the `-k`
 *   and `-u` flags are avoided because they save themselves into `~/.grok/user-settings.json`;
 * - the CLI loads `.env` from its cwd (dotenv) and writes `<cwd>/.grok/settings.json`: cwd is throwaway;
 * - headless mode auto-approves every tool (bash included); the mock never answers a tool call;
 * - API errors become an assistant message `Sorry, I encountered an error: Grok API error: <status>
 *   <message>` with exit 0; 408/409/429/5xx are retried twice by the OpenAI SDK (3 requests).
 */
import type { ProbeHooks } from '#src/routes/define.ts';
import type { VersionTable } from '#src/routes/driver.ts';
import { promptWithSchema } from '#src/routes/schemaPrompt.ts';

/** The grok-cli routes. */
export const GROK_CLI_ROUTES = ['grok-cli/jsonl'] as const;

/** The model every probe pins (`GROK_MODEL`). */
export const GROK_CLI_PINNED_MODEL = 'grok-code-fast-1';

/** The test API key the probes hand the CLI (never a real credential; shaped so redaction catches it). */
export const GROK_CLI_TEST_API_KEY = 'xai-routecertTestKey0000000000';

/** The placeholder that stands for the prompt (schema included) in a displayed argv. */
export const PROMPT_PLACEHOLDER = '<prompt>';

/** The argv of one run, as spawned (`-p <prompt>`) and as displayed (`-p <prompt>` placeholder). */
export function grokCliArgv(prompt: string): { argv: string[]; display: string[] } {
  return { argv: ['-p', prompt], display: ['-p', PROMPT_PLACEHOLDER] };
}

/**
 * The whole environment of a hermetic grok-cli run (nothing inherited): PATH, HOME, TMPDIR, LANG,
 * `GROK_API_KEY` ({@link GROK_CLI_TEST_API_KEY}), `GROK_BASE_URL` (`<mock>/v1`), `GROK_MODEL`.
 */
export function grokCliEnv(options: { baseUrl: string; home: string; tmpDir: string; model?: string; path?: string }): Record<string, string> {
  return {
    PATH: options.path ?? process.env.PATH ?? '/usr/bin:/bin',
    HOME: options.home,
    TMPDIR: options.tmpDir,
    LANG: 'C.UTF-8',
    GROK_API_KEY: GROK_CLI_TEST_API_KEY,
    GROK_BASE_URL: `${options.baseUrl}/v1`,
    GROK_MODEL: options.model ?? GROK_CLI_PINNED_MODEL,
  };
}

/**
 * Supported grok-cli versions: 0.0.34 is the only release of `@vibe-kit/grok-cli` on the registry
 * (`npm view @vibe-kit/grok-cli versions`, 2026-12-01), so the range cannot reach further back. Its
 * `grok --version` prints 1.0.1, which is inside the range too.
 */
export const GROK_CLI_VERSIONS: VersionTable = {
  min: '0.0.34',
  source: 'probed green by `npm run probes:matrix` (0.0.34, the only release on npm), 2026-12-01',
  flags: [],
};

/**
 * The grok-cli probe hooks (route.ts adds the facts and builds the driver): non-streaming Chat Completions mock, `GROK_BASE_URL`, prompt (schema
 * appended) as the `-p` argument.
 */
export const grokCliProbe: ProbeHooks = {
  handlers: async (scenario, payloads) => (await import('#src/mock/openaiChatJson.ts')).openaiChatJsonHandlers({ scenario, payloads }),
  async prepare(input) {
    if (input.route !== 'grok-cli/jsonl') throw new Error(`[routecert] grok-cli has no route ${input.route}; routes: ${GROK_CLI_ROUTES.join(', ')}`);
    const { argv, display } = grokCliArgv(promptWithSchema(input.prompt, input.schema));
    return {
      argv,
      display,
      env: grokCliEnv({ baseUrl: input.mockUrl, home: input.workspace.home, tmpDir: input.workspace.tmpDir, ...(input.model ? { model: input.model } : {}) }),
    };
  },
  // No schema flag, so nothing to reject at startup.
  rejectionLine: () => null,
  versions: GROK_CLI_VERSIONS,
  live: {
    // The mock's own mechanism: GROK_BASE_URL (<origin>/v1), GROK_API_KEY, GROK_MODEL.
    credential: { from: ['GROK_API_KEY'], as: 'GROK_API_KEY' },
    endpoint: { env: 'GROK_BASE_URL', default: 'https://api.x.ai', path: '/v1' },
    model: 'grok-4-1-fast-non-reasoning',
    source:
      'grok-cli 0.0.34 (dist/grok/client.js, dist/utils/settings-manager.js, `grok --help`): GROK_API_KEY, GROK_BASE_URL (default https://api.x.ai/v1), GROK_MODEL; ' +
      'grok-4-1-fast-non-reasoning is in its model list, no reasoning tokens, $0.20/$0.50 per Mtok, the lowest of that list in opencode 1.18.33\'s bundled models.dev snapshot',
  },
};
