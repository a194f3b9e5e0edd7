/**
 * A probe driver: everything routecert must know to run one real CLI hermetically. One driver per
 * CLI (src/probe/drivers/<cli>.ts); `runProbe` is the same for all of them.
 */
import type { RequestHandler } from 'msw';
import type { ScenarioName, ScenarioPayloads } from '#src/mock/scenarios.ts';

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
 * - `handlers(scenario, payloads)`: the provider mock playing `scenario` (msw handlers; no server started);
 * - `prepare(input)`: write any config into the workspace and say how to spawn;
 * - `rejectionLine(stderr)`: the CLI's own startup-rejection line, if it refused the schema.
 */
export interface ProbeDriver {
  cli: string;
  bin: string;
  npmPackage: string;
  routes: readonly string[];
  schemaFlag: boolean;
  handlers(scenario: ScenarioName, payloads: ScenarioPayloads): RequestHandler[];
  prepare(input: PrepareInput): Promise<PreparedRun>;
  rejectionLine?(stderr: string): string | null;
}
