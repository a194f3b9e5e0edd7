/**
 * The reference worker's time windows, read from the environment so a caller (or a test) can set
 * them without changing the command line. Units are in the names (seconds, fractions allowed).
 *
 * Defaults are ce-pov's (research/ce-plugin.md section 1.7): hard 600 s, idle 180 s, retry-min 60 s.
 */

/**
 * - `hardWindowS`: the whole route (all attempts) must end within it; at the deadline the peer's
 *   process group is killed and its output discarded.
 * - `idleWindowS`: on routes whose output grows while the model works (stream-json), a peer whose
 *   stdout does not grow for this long is killed; `null` = no idle detection.
 * - `retryMinS`: the one retry after a non-final answer happens only when at least this much of the
 *   hard window remains.
 */
export interface WorkerWindows {
  hardWindowS: number;
  idleWindowS: number | null;
  retryMinS: number;
}

/** The environment variables the reference worker reads its windows from. */
export const WINDOW_ENV = {
  hardWindowS: 'ROUTECERT_HARD_S',
  idleWindowS: 'ROUTECERT_IDLE_S',
  retryMinS: 'ROUTECERT_RETRY_MIN_S',
} as const;

/** Windows used when the environment sets none (ce-pov's `CROSS_MODEL_*` defaults). */
export const DEFAULT_WINDOWS: WorkerWindows = { hardWindowS: 600, idleWindowS: 180, retryMinS: 60 };

/** A bad argument or environment value; `code` is stable. The worker exits 2 for it. */
export class WorkerUsageError extends Error {
  readonly code = 'ROUTECERT_WORKER_USAGE';
  constructor(message: string) {
    super(`[routecert-worker] ${message}`);
    this.name = 'WorkerUsageError';
  }
}

function seconds(env: NodeJS.ProcessEnv, name: string, fallback: number, allowZero: boolean): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new WorkerUsageError(`${name}=${JSON.stringify(raw)} is not a ${allowZero ? 'non-negative' : 'positive'} number of seconds`);
  }
  return value;
}

/**
 * Read {@link WorkerWindows} from `env` ({@link WINDOW_ENV}); unset variables take
 * {@link DEFAULT_WINDOWS}. `ROUTECERT_IDLE_S=0` turns idle detection off.
 *
 * @throws {WorkerUsageError} for a value that is not a number of seconds.
 * @example
 * windowsFromEnv({ ROUTECERT_HARD_S: '10', ROUTECERT_RETRY_MIN_S: '1' }) // { hardWindowS: 10, idleWindowS: 180, retryMinS: 1 }
 */
export function windowsFromEnv(env: NodeJS.ProcessEnv): WorkerWindows {
  const idle = seconds(env, WINDOW_ENV.idleWindowS, DEFAULT_WINDOWS.idleWindowS ?? 0, true);
  return {
    hardWindowS: seconds(env, WINDOW_ENV.hardWindowS, DEFAULT_WINDOWS.hardWindowS, false),
    idleWindowS: idle === 0 ? null : idle,
    retryMinS: seconds(env, WINDOW_ENV.retryMinS, DEFAULT_WINDOWS.retryMinS, true),
  };
}
