/**
 * pi route: how to run `pi` headless in json mode, and the hermetic environment that points it at
 * the Chat Completions mock. Facts from pi (`@mariozechner/pi-coding-agent`) 0.73.1 run against the
 * loopback mock (research/cli-envelopes.md section 8, and the probes in probes/pi.test.ts).
 *
 * No schema flag: the schema goes into the prompt ({@link promptWithSchema}) and the answer is the
 * text of the last assistant `message_end`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProbeHooks } from '#src/routes/define.ts';
import type { VersionTable } from '#src/routes/driver.ts';
import { promptWithSchema } from '#src/routes/schemaPrompt.ts';

/** The pi routes. */
export const PI_ROUTES = ['pi/json'] as const;

/** The provider id (in `models.json`) and model id every probe pins. */
export const PI_PROVIDER_ID = 'routecert';
export const PI_PINNED_MODEL = 'routecert-mock-1';

/** The test API key the probes hand the CLI (never a real credential; `sk-` so redaction catches it). */
export const PI_TEST_API_KEY = 'sk-routecert-test-0000';

/**
 * `~/.pi/agent/models.json`: one `openai-completions` provider at the mock, without the developer
 * role and reasoning effort (a plain OpenAI-compatible server). `keyEnv` (a `--live` run): `apiKey`
 * is that variable's NAME, which pi 0.73.1 resolves from the environment (docs/models.md "Value
 * Resolution"), so the file never holds the credential.
 */
export function piModelsJson(baseUrl: string, model: string = PI_PINNED_MODEL, keyEnv?: string): Record<string, unknown> {
  return {
    providers: {
      [PI_PROVIDER_ID]: {
        baseUrl: `${baseUrl}/v1`,
        api: 'openai-completions',
        apiKey: keyEnv ?? PI_TEST_API_KEY,
        compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
        models: [{ id: model }],
      },
    },
  };
}

/**
 * `~/.pi/agent/settings.json`: `retry.baseDelayMs: 1`. pi 0.73.1 retries a provider error 3 times
 * (`auto_retry_start` events) 2, 4 and 8 s apart and ignores `retry-after`; the shape of the
 * envelope is kept, only the waits shrink.
 */
export const PI_HERMETIC_SETTINGS = Object.freeze({ retry: { baseDelayMs: 1 } });

/** The argv: `-p --mode json --provider routecert --model routecert-mock-1 --offline`; the prompt is on stdin. */
export function piArgv(model: string = PI_PINNED_MODEL): string[] {
  return ['-p', '--mode', 'json', '--provider', PI_PROVIDER_ID, '--model', model, '--offline'];
}

/**
 * The whole environment of a hermetic pi run (nothing inherited): PATH, HOME, TMPDIR, LANG,
 * `NO_COLOR=1`, `PI_OFFLINE=1` (no startup network operations, no version check; also `--offline`),
 * `PI_SKIP_VERSION_CHECK=1`, `PI_TELEMETRY=0`.
 */
export function piEnv(options: { home: string; tmpDir: string; path?: string }): Record<string, string> {
  return {
    PATH: options.path ?? process.env.PATH ?? '/usr/bin:/bin',
    HOME: options.home,
    TMPDIR: options.tmpDir,
    LANG: 'C.UTF-8',
    NO_COLOR: '1',
    PI_OFFLINE: '1',
    PI_SKIP_VERSION_CHECK: '1',
    PI_TELEMETRY: '0',
  };
}

/**
 * Supported pi versions. `-p`, `--mode json`, `--provider`, `--model` and `--offline` are in
 * `pi --help` of 0.70.5 and 0.73.1, and 0.70.5 and 0.72.1 pass the whole plan with
 * {@link PI_HERMETIC_SETTINGS}, so nothing differs inside the range; older releases were not tried.
 */
export const PI_VERSIONS: VersionTable = {
  min: '0.70.5',
  source: 'probed green by `npm run probes:matrix` (0.70.5, 0.71.1, 0.72.1, 0.73.1), 2026-12-01',
  flags: [],
};

/**
 * The pi probe hooks (route.ts adds the facts and builds the driver): Chat Completions mock (SSE), overloads with `retry-after-ms: 1` (honoured by
 * the OpenAI SDK's own 2 retries under pi's); `~/.pi/agent/models.json` ({@link piModelsJson}) and
 * `settings.json` ({@link PI_HERMETIC_SETTINGS}); the prompt, with the schema appended, on stdin.
 */
export const piProbe: ProbeHooks = {
  handlers: async (scenario, payloads) => (await import('#src/mock/openaiChat.ts')).openaiChatHandlers({ scenario, payloads, retryAfterMs: 1 }),
  async prepare(input) {
    if (input.route !== 'pi/json') throw new Error(`[routecert] pi has no route ${input.route}; routes: ${PI_ROUTES.join(', ')}`);
    const agentDir = join(input.workspace.home, '.pi', 'agent');
    await mkdir(agentDir, { recursive: true });
    const model = input.model ?? PI_PINNED_MODEL;
    await writeFile(join(agentDir, 'models.json'), `${JSON.stringify(piModelsJson(input.mockUrl, model, input.live?.credentialVar), null, 2)}\n`, 'utf8');
    await writeFile(join(agentDir, 'settings.json'), `${JSON.stringify(PI_HERMETIC_SETTINGS, null, 2)}\n`, 'utf8');
    const argv = piArgv(model);
    return {
      argv,
      display: argv,
      env: piEnv({ home: input.workspace.home, tmpDir: input.workspace.tmpDir }),
      stdin: promptWithSchema(input.prompt, input.schema),
    };
  },
  rejectionLine: () => null,
  versions: PI_VERSIONS,
  live: {
    // The mock's own mechanism: the openai-completions provider of ~/.pi/agent/models.json, baseUrl <origin>/v1.
    credential: { from: ['OPENAI_API_KEY'], as: 'OPENAI_API_KEY' },
    endpoint: { env: 'ROUTECERT_LIVE_PI_ORIGIN', default: 'https://api.openai.com' },
    model: 'gpt-4.1-nano',
    source:
      'pi 0.73.1 docs/providers.md (OpenAI: OPENAI_API_KEY), docs/models.md (a provider\'s baseUrl is set in models.json, apiKey may name an env var; no endpoint variable, so ROUTECERT_LIVE_PI_ORIGIN); ' +
      'pi-ai models.generated.js: openai gpt-4.1-nano at https://api.openai.com/v1, reasoning false, $0.10/$0.40 per Mtok',
  },
};
