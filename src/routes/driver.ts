/**
 * A probe driver: everything routecert must know to run one real CLI hermetically. One driver per
 * CLI (src/probe/drivers/<cli>.ts); `runProbe` is the same for all of them.
 */
import type { RequestHandler } from 'msw';
import type { ScenarioName, ScenarioPayloads } from '#src/mock/scenarios.ts';
import type { SideRequest } from '#src/mock/server.ts';

/**
 * The throwaway folders of one probe run (all under one temp root, removed afterwards):
 * `home` (HOME), `cwd` (working directory), `tmpDir` (TMPDIR), `root` (their parent; put config
 * files, schema files and side files here or under `home`).
 */
export interface ProbeWorkspace {
  root: string;
  home: string;
  cwd: string;
  tmpDir: string;
}

/** What {@link ProbeDriver.prepare} gets: the route, the schema (`null` = none), the prompt, the mock's origin. */
export interface PrepareInput {
  route: string;
  schema: object | null;
  prompt: string;
  /** The mock's origin, e.g. `http://127.0.0.1:41234` (no trailing slash, no path). */
  mockUrl: string;
  workspace: ProbeWorkspace;
  model?: string;
  /** The CLI's version as discovered (`null`: unknown; a driver then sends the newest version's flags). */
  version?: string | null;
  /**
   * Set for a `--live` run: `mockUrl` is then the real provider's origin (or routecert's loopback
   * tap in front of it, `--live --startup`), and the credential is in the environment variable
   * `live.credentialVar` ({@link LiveSpec}`.credential.as`, set by the runner after `prepare`). A
   * driver that writes a config refers to that variable (an env-var reference the CLI resolves),
   * never writes the credential itself, and lets `live.host` through whatever blocks other traffic.
   */
  live?: { credentialVar: string; host: string };
}

/**
 * How to spawn the CLI for one run.
 * - `argv`: arguments after the executable, exactly as spawned;
 * - `display`: the same with the schema (and any temp path) replaced by placeholders such as `<schema>`;
 * - `env`: the WHOLE environment (nothing is inherited);
 * - `stdin`: written to stdin, which is then closed (`undefined`: stdin is the null device);
 * - `files`: side files to read after exit, by role (e.g. `{ 'last-message': '<abs path>' }`).
 */
export interface PreparedRun {
  argv: string[];
  display: string[];
  env: Record<string, string>;
  stdin?: string;
  files?: Record<string, string>;
}

/**
 * One CLI's driver.
 * - `cli`: the name routecert uses (`claude`, `codex`, ...); `bin`: its executable name;
 * - `npmPackage`: the package probes/package.json pins;
 * - `routes`: the routes it can run; `schemaFlag`: whether it takes a schema on the command line
 *   (otherwise the schema goes into the prompt);
 * - `handlers(scenario, payloads)`: the provider mock playing `scenario` (msw handlers; no server
 *   started), imported when first asked for: a command that starts no mock never loads msw;
 * - `prepare(input)`: write any config into the workspace and say how to spawn;
 * - `rejectionLine(stderr)`: the CLI's own startup-rejection line, if it refused the schema;
 * - `sideRequests`: harmless side requests some versions make, answered as the real API does
 *   (src/mock/server.ts {@link SideRequest}); anything else unknown still gets a 501;
 * - `isModelTurn(body)`: whether a request (its parsed JSON body) is a turn of the conversation the
 *   scenario plays, not a request of the CLI's own beside it (opencode's session-title request);
 *   the deadline of a `stall` probe counts from the first turn. Absent: every request is a turn;
 * - `versions`: the supported version range and the flags each version accepts ({@link VersionTable});
 * - `live`: how to run it against the real provider with the team's own credentials (`--live`,
 *   {@link LiveSpec}); absent: no live probes for this CLI.
 */
export interface ProbeDriver {
  cli: string;
  bin: string;
  npmPackage: string;
  routes: readonly string[];
  schemaFlag: boolean;
  handlers(scenario: ScenarioName, payloads: ScenarioPayloads): Promise<RequestHandler[]>;
  prepare(input: PrepareInput): Promise<PreparedRun>;
  rejectionLine?(stderr: string): string | null;
  sideRequests?: readonly SideRequest[];
  isModelTurn?(body: unknown): boolean;
  versions?: VersionTable;
  live?: LiveSpec;
}

/**
 * A live run (`--live`): the real CLI against the real provider, with the credential already in
 * the environment, still in a throwaway HOME and cwd, at the smallest cost the CLI allows.
 * - `credential.from`: environment variables that may hold the credential (the first set wins);
 *   `credential.as`: the variable the CLI reads it from;
 * - `endpoint.env`: the variable that overrides the provider's URL (also how a test points the
 *   live path at the mock): the CLI's own variable where it has one, else a `ROUTECERT_LIVE_<CLI>_ORIGIN`
 *   variable that routecert writes into the config file the CLI reads its endpoint from;
 *   `endpoint.default`: the real provider's origin (what the driver gets as `mockUrl`);
 *   `endpoint.path`: the path the CLI's variable carries after that origin and the driver appends
 *   itself (`/v1` for `OPENAI_BASE_URL=https://api.openai.com/v1`): stripped from the variable's
 *   value, and a value that does not end with it is refused;
 * - `model`: the cheapest model the CLI can use; `source`: where these facts come from.
 */
export interface LiveSpec {
  credential: { from: readonly string[]; as: string };
  endpoint: { env: string; default: string; path?: string };
  model: string;
  source: string;
}

/**
 * A flag (one or more argv tokens) that only some versions of a CLI accept. `since`: the first
 * version that accepts it (inclusive); `until`: the first that no longer does (exclusive);
 * `source`: how that was established (a `--help` of the named versions, a changelog entry).
 */
export interface VersionedFlag {
  argv: readonly string[];
  since?: string;
  until?: string;
  source: string;
}

/**
 * The versions a driver supports and what differs between them.
 * - `min`: the oldest version probed green (inclusive); `max`: the newest known good (inclusive),
 *   `undefined` for "no known upper bound" (newer versions are probed, drift says what changed);
 * - `source`: how the range was established (`npm run probes:matrix`, the dates and versions run);
 * - `flags`: the optional flags, each sent only to versions that accept it.
 */
export interface VersionTable {
  min: string;
  max?: string;
  source: string;
  flags?: readonly VersionedFlag[];
}
