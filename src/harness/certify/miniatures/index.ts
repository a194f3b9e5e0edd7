/**
 * Miniature broken workers: the reference worker with one behaviour removed, run in-process. Each
 * must fail exactly the checks that cover that behaviour, which shows the checks can fail
 * (bowtie's miniatures, STYLE.md item 13).
 */
import { PROJECT_ROOT } from '#src/paths.ts';
import { WINDOW_ENV } from '#src/worker/windows.ts';
import type { LoadedConfig } from '../config.ts';
import { inProcessRunner, REFERENCE_ROUTES } from '../reference.ts';
import { finalityRemoved } from './alwaysAccept.ts';
import { pidOnlyPeer } from './pidOnlyKill.ts';

/**
 * The miniatures by name, and the behaviour (check `covers` tag) each lacks:
 * - `alwaysAccept`: no finality check (`finality`);
 * - `pidOnlyKill`: reaps its peer's pid, not its process group (`process-group`).
 */
export const MINIATURES = {
  alwaysAccept: { lacks: 'finality', options: { contract: finalityRemoved } },
  pidOnlyKill: { lacks: 'process-group', options: { runPeer: pidOnlyPeer } },
} as const;

/** One of {@link MINIATURES}. */
export type MiniatureName = keyof typeof MINIATURES;

/** The in-process certification config of a miniature worker. */
export function miniatureConfig(name: MiniatureName, routes: string[] = [...REFERENCE_ROUTES]): LoadedConfig {
  return {
    config: {
      worker: {
        name: `miniature ${name} (reference worker without ${MINIATURES[name].lacks})`,
        run: inProcessRunner(MINIATURES[name].options),
        artifact: '{outDir}/pov.json',
        windowEnv: { hardWindowS: WINDOW_ENV.hardWindowS, idleWindowS: WINDOW_ENV.idleWindowS, retryMinS: WINDOW_ENV.retryMinS },
      },
      routes,
      contract: 'pov',
    },
    file: null,
    dir: PROJECT_ROOT,
  };
}
