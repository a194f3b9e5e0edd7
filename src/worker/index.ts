/**
 * The reference worker: runs a route's CLI, judges each attempt with the pov contract, retries once
 * when allowed, publishes only an accepted answer, and logs its evidence. Usable as a library
 * (`runWorker`) or a command (`node bin/routecert-worker.js`).
 */
export { runWorker, povContractMaker, WORKER_LOG_PREFIX } from './worker.ts';
export { runPeer } from './peer.ts';
export { WORKER_ROUTES } from './routes.ts';
export { windowsFromEnv, WorkerUsageError, WINDOW_ENV, DEFAULT_WINDOWS } from './windows.ts';
export { workerMain, WORKER_USAGE } from './cli.ts';

export type { ContractMaker, WorkerAttempt, WorkerOptions, WorkerResult } from './worker.ts';
export type { PeerOutcome, PeerRun, PeerRunner } from './peer.ts';
export type { RouteArgvInput, WorkerRoute } from './routes.ts';
export type { WorkerWindows } from './windows.ts';
