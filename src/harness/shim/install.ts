/**
 * Installing fake CLIs: a bin folder holding one copy of the fake CLI script under each model CLI's
 * name plus links to the real tools a worker needs, and a state folder with the plan the fake CLIs
 * replay and the records they leave. Put `binDir` alone on a worker's PATH and run the worker.
 */
import { chmod, copyFile, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileValidator } from '#src/contract/validator.ts';
import { projectPath } from '#src/paths.ts';
import { KNOWN_CLIS } from '#src/probe/known.ts';
import type { ShimPlan } from './plan.ts';
import { DEFAULT_TOOLS, resolveTools } from './tools.ts';

/** The fake CLI script (plain CommonJS, run by `node` through its `#!/usr/bin/env node` line). */
export const FAKE_CLI_SCRIPT = fileURLToPath(new URL('./fakeCli.cjs', import.meta.url));

/** Every model CLI name routecert knows (src/probe/known.ts), each installed as a fake. */
export const FAKE_CLI_NAMES: readonly string[] = [...new Set(KNOWN_CLIS.map((c) => c.bin))];

/**
 * Options of {@link installShims}.
 * - `root`: an empty folder to fill (`bin/`, `shim/`);
 * - `plan`: what the fake CLIs replay (validated against schemas/shim.schema.json);
 * - `clis`: the names to install; @default {@link FAKE_CLI_NAMES} plus the plan's CLIs;
 * - `tools`: real tools to link; @default {@link DEFAULT_TOOLS}; a name that is also a fake CLI is
 *   never linked;
 * - `searchPath`: where to find the tools; @default `process.env.PATH`.
 */
export interface InstallShimsOptions {
  root: string;
  plan: ShimPlan;
  clis?: readonly string[];
  tools?: readonly string[];
  searchPath?: string;
}

/**
 * An installed set of fake CLIs.
 * - `binDir`: the folder to put alone on PATH;
 * - `stateDir`: `plan.json`, `counter-<cli>`, `calls.jsonl` (read it with `readShimRecords`);
 * - `clis`: the fake CLI names; `tools`: the real tools linked (name -> target); `missingTools`: not found.
 */
export interface ShimInstall {
  root: string;
  binDir: string;
  stateDir: string;
  clis: string[];
  tools: { name: string; target: string }[];
  missingTools: string[];
}

/** Raised for a plan that does not match schemas/shim.schema.json; `code` is stable. */
export class ShimPlanError extends Error {
  readonly code = 'ROUTECERT_SHIM_PLAN';
  constructor(problems: string[]) {
    super(`[routecert] the fake CLI plan does not match schemas/shim.schema.json: ${problems.slice(0, 5).join('; ')}`);
    this.name = 'ShimPlanError';
  }
}

let validatePlan: ((value: unknown) => string[]) | undefined;

async function planValidator(): Promise<(value: unknown) => string[]> {
  if (!validatePlan) {
    const { anyOf: _either, ...schema } = JSON.parse(await readFile(projectPath('schemas/shim.schema.json'), 'utf8')) as Record<string, unknown>;
    validatePlan = compileValidator({ ...schema, $ref: '#/$defs/plan' });
  }
  return validatePlan;
}

/**
 * Install fake CLIs and tool links under `options.root`.
 *
 * @throws {ShimPlanError} when the plan does not match its schema.
 * @example
 * const shims = await installShims({ root, plan: { version: 1, clis: { claude: { version: '2.1.332', attempts } }, secrets: [] } });
 * await execa('claude', ['-p'], { env: { PATH: shims.binDir }, extendEnv: false, input: 'prompt' });
 * await readShimRecords(shims.stateDir); // [{ kind: 'call', cli: 'claude', attempt: 0, argv: ['-p'], stdin: 'prompt', ... }]
 */
export async function installShims(options: InstallShimsOptions): Promise<ShimInstall> {
  const problems = (await planValidator())(options.plan);
  if (problems.length > 0) throw new ShimPlanError(problems);
  const binDir = path.join(options.root, 'bin');
  const stateDir = path.join(options.root, 'shim');
  await mkdir(binDir, { recursive: true });
  await mkdir(stateDir, { recursive: true });
  await writeFile(path.join(stateDir, 'plan.json'), `${JSON.stringify(options.plan, null, 2)}\n`);
  await writeFile(path.join(stateDir, 'calls.jsonl'), '');

  const clis = [...new Set([...(options.clis ?? FAKE_CLI_NAMES), ...Object.keys(options.plan.clis)])];
  for (const cli of clis) {
    const file = path.join(binDir, cli);
    await copyFile(FAKE_CLI_SCRIPT, file);
    await chmod(file, 0o755);
  }
  const resolved = resolveTools(options.tools ?? DEFAULT_TOOLS, options.searchPath ?? process.env.PATH ?? '');
  const tools = resolved.found.filter((t) => !clis.includes(t.name));
  for (const tool of tools) await symlink(tool.target, path.join(binDir, tool.name));
  return { root: options.root, binDir, stateDir, clis, tools, missingTools: resolved.missing };
}
