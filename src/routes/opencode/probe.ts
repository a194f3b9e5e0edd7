/**
 * opencode route: how to run `opencode run` headless, and the hermetic environment that points it
 * at the Chat Completions mock. Facts from opencode 1.18.33 run against the loopback mock
 * (research/cli-envelopes.md section 6, and the probes in probes/opencode.test.ts).
 *
 * `opencode run` has no schema flag (a schema is only reachable through the server API's `format`),
 * so the schema goes into the prompt ({@link promptWithSchema}) and the answer is JSON text.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProbeHooks } from '#src/routes/define.ts';
import type { VersionTable } from '#src/routes/driver.ts';
import { promptWithSchema } from '#src/routes/schemaPrompt.ts';
import { isTitleRequest } from '#src/mock/chatRequest.ts';

/** The opencode routes. */
export const OPENCODE_ROUTES = ['opencode/jsonl'] as const;

/** The provider id and model id of the mock in the injected config (`routecert/routecert-mock-1`). */
export const OPENCODE_PROVIDER_ID = 'routecert';
export const OPENCODE_PINNED_MODEL = 'routecert-mock-1';

/** The test API key the probes hand the CLI (never a real credential; `sk-` so redaction catches it). */
export const OPENCODE_TEST_API_KEY = 'sk-routecert-test-0000';

/**
 * The `OPENCODE_CONFIG_CONTENT` of a hermetic run: one `@ai-sdk/openai-compatible` provider (bundled in
 * the binary, nothing downloaded) whose `baseURL` is the mock, and the model pinned to it.
 * `keyEnv` (a `--live` run): the provider's `apiKey` is `{env:<keyEnv>}`, which opencode 1.18.33
 * substitutes from the environment when it loads the config, so the config never holds the credential.
 */
export function opencodeConfig(baseUrl: string, model: string = OPENCODE_PINNED_MODEL, keyEnv?: string): Record<string, unknown> {
  return {
    $schema: 'https://opencode.ai/config.json',
    model: `${OPENCODE_PROVIDER_ID}/${model}`,
    autoupdate: false,
    share: 'disabled',
    provider: {
      [OPENCODE_PROVIDER_ID]: {
        npm: '@ai-sdk/openai-compatible',
        name: keyEnv === undefined ? 'routecert mock' : 'routecert live',
        options: { baseURL: `${baseUrl}/v1`, apiKey: keyEnv === undefined ? OPENCODE_TEST_API_KEY : `{env:${keyEnv}}` },
        models: { [model]: { name: model } },
      },
    },
  };
}

/**
 * The whole environment of a hermetic opencode run (nothing inherited): PATH, HOME, TMPDIR, LANG,
 * `NO_COLOR=1`, `OPENCODE_CONFIG_CONTENT` ({@link opencodeConfig}) and the knobs that keep it off the
 * network: `OPENCODE_DISABLE_MODELS_FETCH`, `OPENCODE_DISABLE_AUTOUPDATE`,
 * `OPENCODE_DISABLE_LSP_DOWNLOAD`, `OPENCODE_DISABLE_DEFAULT_PLUGINS`, `OPENCODE_DISABLE_SHARE`,
 * `OPENCODE_DISABLE_CLAUDE_CODE` (do not read `~/.claude`).
 */
export function opencodeEnv(options: { baseUrl: string; home: string; tmpDir: string; model?: string; path?: string; keyEnv?: string }): Record<string, string> {
  return {
    PATH: options.path ?? process.env.PATH ?? '/usr/bin:/bin',
    HOME: options.home,
    TMPDIR: options.tmpDir,
    LANG: 'C.UTF-8',
    NO_COLOR: '1',
    OPENCODE_CONFIG_CONTENT: JSON.stringify(opencodeConfig(options.baseUrl, options.model, options.keyEnv)),
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    OPENCODE_DISABLE_SHARE: '1',
    OPENCODE_DISABLE_CLAUDE_CODE: '1',
  };
}

/**
 * Prepare `~/.config/opencode` so that opencode 1.18.33 does not install `@opencode-ai/plugin` from
 * the npm registry at startup. It installs it into every config dir in the background unless the dir
 * already has `node_modules/` and a `package-lock.json` whose root lists the package (seen with
 * `strace -e trace=connect`: a TLS connection to the public npm registry on every run otherwise).
 */
export async function prepareOpencodeConfigDir(home: string): Promise<string> {
  const dir = join(home, '.config', 'opencode');
  await mkdir(join(dir, 'node_modules'), { recursive: true });
  const lock = { name: 'opencode-config', lockfileVersion: 3, requires: true, packages: { '': { dependencies: { '@opencode-ai/plugin': '*' } } } };
  await writeFile(join(dir, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`, 'utf8');
  return dir;
}

/**
 * Supported opencode versions: from 1.18.17, the first release whose session retry policy stops
 * after `RETRY_MAX_RETRIES` (5) attempts. 1.18.3, 1.18.14, 1.18.15 and 1.18.16 retry a retryable
 * error forever (the policy has no attempt cap; anomalyco/opencode issues #21960, #25733): on the
 * `api-529` scenario they never exit, and the probe ends at its deadline as a timeout where the
 * plan expects a provider error (`npm run probes:matrix`, 1.18.3 and 1.18.14: 10/11). The cap was
 * located in the binaries' bundled `SessionRetry` module (absent in 1.18.14-1.18.16, present in
 * 1.18.17, 1.18.18, 1.18.22 and 1.18.33). No flag differs inside the range (`run --format json`).
 */
export const OPENCODE_VERSIONS: VersionTable = {
  min: '1.18.17',
  source: 'probed green by `npm run probes:matrix` (1.18.17, 1.18.25, 1.18.33), 2026-12-01; 1.18.16 and older retry an overload forever',
  flags: [],
};

/**
 * The opencode probe hooks (route.ts adds the facts and builds the driver): Chat Completions mock (SSE; the title-generation request is answered
 * by content, not counted as a turn), overloads with `retry-after-ms: 1` (opencode retries a 5xx 5
 * times, 2-30 s apart without the header); argv `run --format json`; the prompt, with the schema
 * appended, on stdin.
 */
export const opencodeProbe: ProbeHooks = {
  handlers: async (scenario, payloads) => (await import('#src/mock/openaiChat.ts')).openaiChatHandlers({ scenario, payloads, retryAfterMs: 1 }),
  // The session-title request is opencode's own, not a turn: a stall probe's deadline waits for the turn.
  isModelTurn: (body) => !isTitleRequest(body),
  async prepare(input) {
    if (input.route !== 'opencode/jsonl') throw new Error(`[routecert] opencode has no route ${input.route}; routes: ${OPENCODE_ROUTES.join(', ')}`);
    await prepareOpencodeConfigDir(input.workspace.home);
    const argv = ['run', '--format', 'json'];
    return {
      argv,
      display: argv,
      env: opencodeEnv({
        baseUrl: input.mockUrl,
        home: input.workspace.home,
        tmpDir: input.workspace.tmpDir,
        ...(input.model === undefined ? {} : { model: input.model }),
        ...(input.live ? { keyEnv: input.live.credentialVar } : {}),
      }),
      stdin: promptWithSchema(input.prompt, input.schema),
    };
  },
  // No schema flag, so nothing to reject at startup.
  rejectionLine: () => null,
  versions: OPENCODE_VERSIONS,
  live: {
    // The mock's own mechanism: the openai-compatible provider of OPENCODE_CONFIG_CONTENT, baseURL <origin>/v1.
    credential: { from: ['OPENAI_API_KEY'], as: 'OPENAI_API_KEY' },
    endpoint: { env: 'ROUTECERT_LIVE_OPENCODE_ORIGIN', default: 'https://api.openai.com' },
    model: 'gpt-4.1-nano',
    source:
      'opencode 1.18.33: no endpoint variable for a provider, its baseURL is in the config routecert passes as OPENCODE_CONFIG_CONTENT (so ROUTECERT_LIVE_OPENCODE_ORIGIN); ' +
      '{env:VAR} substitution in config text (binary); OPENAI_API_KEY is the openai provider\'s key; gpt-4.1-nano: reasoning false, $0.10/$0.40 per Mtok in its bundled models.dev snapshot (gpt-5-nano is cheaper per token but reasons)',
  },
};
