/**
 * The bundled subject of certification: routecert's reference worker (src/worker/), either as its
 * command (`node bin/routecert-worker.js ...`, what routecert.config.ts certifies) or in-process
 * (the same `runWorker`, without a process start per run: what `routecert run` certifies, to stay fast).
 */
import { readFile } from 'node:fs/promises';
import { PROJECT_ROOT } from '#src/paths.ts';
import { runWorker, type WorkerOptions } from '#src/worker/worker.ts';
import { WINDOW_ENV } from '#src/worker/windows.ts';
import type { CertifyConfig, InProcessInvocation, LoadedConfig, WorkerAdapter } from './config.ts';

/** The routes the reference worker is certified on. */
export const REFERENCE_ROUTES: readonly string[] = ['claude-code/stream-json', 'claude-code/json', 'grok/json'];

/** The reference worker's command, with placeholders (run from the project root). */
export const REFERENCE_COMMAND: readonly string[] = ['node', 'bin/routecert-worker.js', '--route', '{route}', '--schema', '{schema}', '--prompt-file', '{prompt}', '--out', '{out}', '--log', '{log}'];

/**
 * An in-process run of `runWorker` for one certification run: reads the schema and prompt files,
 * spawns the CLI with the invocation's environment (so the fake CLIs stand in), logs to the run.
 * `extra` lets a miniature swap the contract or the peer runner.
 */
export function inProcessRunner(extra: Pick<WorkerOptions, 'contract' | 'runPeer'> = {}): (inv: InProcessInvocation) => Promise<void> {
  return async (inv) => {
    const schema = JSON.parse(await readFile(inv.schemaFile, 'utf8')) as Record<string, unknown>;
    const prompt = await readFile(inv.promptFile, 'utf8');
    await runWorker({ route: inv.route, schema, prompt, out: inv.out, env: inv.env, cwd: inv.cwd, log: inv.log, signal: inv.signal, ...extra });
  };
}

const WINDOW_VARIABLES: WorkerAdapter['windowEnv'] = { hardWindowS: WINDOW_ENV.hardWindowS, idleWindowS: WINDOW_ENV.idleWindowS, retryMinS: WINDOW_ENV.retryMinS };

/**
 * The reference worker's certification config: as a command (default) or in-process.
 *
 * @example
 * const { certificate } = await certify(referenceWorkerConfig({ inProcess: true }));
 */
export function referenceWorkerConfig(options: { inProcess?: boolean; routes?: string[] } = {}): LoadedConfig {
  const worker: WorkerAdapter = options.inProcess
    ? { name: 'routecert reference worker (in-process)', run: inProcessRunner(), artifact: '{outDir}/pov.json', windowEnv: WINDOW_VARIABLES }
    : {
        name: 'routecert reference worker',
        command: [...REFERENCE_COMMAND],
        prompt: 'file',
        artifact: '{outDir}/pov.json',
        log: '{runDir}/log/worker.log',
        windowEnv: WINDOW_VARIABLES,
      };
  const config: CertifyConfig = { worker, routes: [...(options.routes ?? REFERENCE_ROUTES)], contract: 'pov' };
  return { config, file: null, dir: PROJECT_ROOT };
}
