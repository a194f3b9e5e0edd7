/**
 * The reference worker: runs a route's CLI, judges each attempt with the pov contract, retries once
 * when allowed, publishes only an accepted answer, and logs its evidence. Usable as a library
 * (`runWorker`) or a command (`node bin/routecert-worker.js`).
 */
export { runWorker } from './worker.ts';
export { runPeer } from './peer.ts';
export { WORKER_ROUTES } from './routes.ts';
export { windowsFromEnv, WINDOW_ENV } from './windows.ts';

export type { WorkerOptions, WorkerResult } from './worker.ts';
export type { WorkerWindows } from './windows.ts';
