/**
 * Gemini CLI routes: how to run `gemini` headless, and the hermetic environment that points it at
 * the Gemini API mock. Facts from Gemini CLI 0.61.0 run against the loopback mock (research/
 * cli-envelopes.md section 4, and the probes in probes/gemini.test.ts):
 *
 * - no schema flag: the schema goes into the prompt, and the answer is the `response` string (json)
 *   or the assistant `message` deltas (stream-json);
 * - `GOOGLE_GEMINI_BASE_URL` alone makes the CLI pick auth type `gateway`, which non-interactive
 *   mode rejects (`Invalid auth method selected.`, exit 41); settings `security.auth.selectedType:
 *   "gemini-api-key"` plus `GEMINI_API_KEY` work;
 * - an untrusted folder exits 55 even in json mode: `GEMINI_CLI_TRUST_WORKSPACE=true`;
 * - usage statistics are on by default and post to `play.googleapis.com` (seen as DNS lookups under
 *   strace); `privacy.usageStatisticsEnabled: false` stops them, after which the only connection is to
 *   the mock on 127.0.0.1;
 * - a 5xx or 429 is retried up to 10 times with 5-30 s backoff; `general.maxAttempts: 1` makes one
 *   request the whole run (529 then exits 17 = 529 & 0xFF after about 5 s);
 * - the prompt is read from stdin when no `-p` is given and stdin is not a TTY.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProbeHooks } from '#src/routes/define.ts';
import type { VersionTable } from '#src/routes/driver.ts';
import { promptWithSchema } from '#src/routes/schemaPrompt.ts';

/** The Gemini CLI routes, in the order reports list them. */
export const GEMINI_ROUTES = ['gemini-cli/json', 'gemini-cli/stream-json'] as const;

/** One of {@link GEMINI_ROUTES}. */
export type GeminiRoute = (typeof GEMINI_ROUTES)[number];

/** The model every probe pins with `-m`, so the CLI's router (an extra classifier request) never runs. */
export const GEMINI_PINNED_MODEL = 'gemini-2.5-flash';

/** The test API key the probes hand the CLI (never a real credential; shaped so redaction catches it). */
export const GEMINI_TEST_API_KEY = 'AIzaRoutecertTestKey0000000000000000000';

/**
 * The user settings a hermetic run writes to `<home>/.gemini/settings.json` (Gemini CLI 0.61.0
 * setting names):
 * - `security.auth.selectedType: "gemini-api-key"`: API-key auth against `GOOGLE_GEMINI_BASE_URL`;
 * - `privacy.usageStatisticsEnabled: false`, `telemetry.enabled: false`: no traffic but the model calls;
 * - `general.enableAutoUpdate` / `enableAutoUpdateNotification: false`: no update check;
 * - `general.maxAttempts: 1`: no HTTP retries (one request per model call).
 */
export const GEMINI_HERMETIC_SETTINGS = Object.freeze({
  security: { auth: { selectedType: 'gemini-api-key' } },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false, maxAttempts: 1 },
});

/** Type guard: is `route` one of {@link GEMINI_ROUTES}? */
export function isGeminiRoute(route: string): route is GeminiRoute {
  return (GEMINI_ROUTES as readonly string[]).includes(route);
}

/**
 * The argv of one Gemini CLI run: `-m <model> -o json|stream-json`. The prompt (with the schema in
 * it) goes to stdin, so argv holds nothing secret or long and is displayed as is.
 */
export function geminiArgv(route: GeminiRoute, model: string = GEMINI_PINNED_MODEL): string[] {
  return ['-m', model, '-o', route === 'gemini-cli/stream-json' ? 'stream-json' : 'json'];
}

/**
 * The whole environment of a hermetic Gemini CLI run (nothing inherited): PATH, HOME, TMPDIR, LANG,
 * `GEMINI_API_KEY` ({@link GEMINI_TEST_API_KEY}), `GOOGLE_GEMINI_BASE_URL` (the mock's origin; the
 * CLI appends `/v1beta/models/...`), `GEMINI_CLI_TRUST_WORKSPACE=true`, `NO_COLOR=1`.
 */
export function geminiEnv(options: { baseUrl: string; home: string; tmpDir: string; path?: string }): Record<string, string> {
  return {
    PATH: options.path ?? process.env.PATH ?? '/usr/bin:/bin',
    HOME: options.home,
    TMPDIR: options.tmpDir,
    LANG: 'C.UTF-8',
    NO_COLOR: '1',
    GEMINI_API_KEY: GEMINI_TEST_API_KEY,
    GOOGLE_GEMINI_BASE_URL: options.baseUrl,
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
  };
}

/**
 * Supported Gemini CLI versions. `-m` and `-o json|stream-json` are in `gemini --help` of 0.55.1
 * and 0.61.0, and 0.55.1 passes the whole plan with {@link GEMINI_HERMETIC_SETTINGS} and no request
 * the mock did not expect, so nothing differs inside the range. 0.55.1 (2026-08-15) is about three
 * and a half months back; older releases were not tried.
 */
export const GEMINI_VERSIONS: VersionTable = {
  min: '0.55.1',
  source: 'probed green by `npm run probes:matrix` (0.55.1, 0.58.0, 0.61.0), 2026-12-01',
  flags: [],
};

/**
 * The Gemini CLI probe hooks (route.ts adds the facts and builds the driver): Gemini API mock (SSE), settings file in the throwaway HOME, prompt
 * (schema appended) on stdin, model pinned with `-m`.
 */
export const geminiProbe: ProbeHooks = {
  handlers: async (scenario, payloads) => (await import('#src/mock/gemini.ts')).geminiHandlers({ scenario, payloads }),
  async prepare(input) {
    if (!isGeminiRoute(input.route)) throw new Error(`[routecert] gemini has no route ${input.route}; routes: ${GEMINI_ROUTES.join(', ')}`);
    const configDir = join(input.workspace.home, '.gemini');
    await mkdir(configDir, { recursive: true });
    await writeFile(join(configDir, 'settings.json'), `${JSON.stringify(GEMINI_HERMETIC_SETTINGS, null, 2)}\n`, 'utf8');
    const argv = geminiArgv(input.route, input.model ?? GEMINI_PINNED_MODEL);
    return {
      argv,
      display: argv,
      env: geminiEnv({ baseUrl: input.mockUrl, home: input.workspace.home, tmpDir: input.workspace.tmpDir }),
      stdin: promptWithSchema(input.prompt, input.schema),
    };
  },
  // No schema flag, so nothing to reject at startup.
  rejectionLine: () => null,
  versions: GEMINI_VERSIONS,
  live: {
    // The mock's own mechanism: GOOGLE_GEMINI_BASE_URL (the origin; the CLI appends /v1beta/models/...).
    credential: { from: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'], as: 'GEMINI_API_KEY' },
    endpoint: { env: 'GOOGLE_GEMINI_BASE_URL', default: 'https://generativelanguage.googleapis.com' },
    model: 'gemini-2.5-flash-lite',
    source:
      'Gemini CLI 0.61.0 bundle: GEMINI_API_KEY / GOOGLE_API_KEY ("GEMINI_API_KEY are set. Using GOOGLE_API_KEY."), getBaseUrl(..., GOOGLE_GEMINI_BASE_URL), ' +
      'the SDK default generativelanguage.googleapis.com; gemini-2.5-flash-lite is in its model configs and sent as is ($0.10/$0.40 per Mtok in opencode 1.18.33\'s models.dev snapshot), ' +
      'whereas its default flash-lite gemini-3.1-flash-lite ($0.25/$1.50) is promoted to gemini-3.5-flash-lite ($0.30/$2.50) under API-key auth (resolveModel, hasLatestFlashLiteGAAccess; seen on the wire)',
  },
};
