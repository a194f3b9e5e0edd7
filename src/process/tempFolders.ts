/**
 * Temp folders routecert made and has not removed yet (a probe's throwaway HOME, a certification's
 * run folders). Each is removed where it was made, when its work ends; one that is still here when
 * the process exits (a run stopped by SIGINT or SIGTERM ends the process before its probes' own
 * clean-up runs; an internal error) is removed by an `exit` hook, synchronously (issue 23, repeated:
 * SIGTERM during probes left each probe's `routecert-probe-*` folder behind).
 */
import { rmSync } from 'node:fs';

const folders = new Set<string>();
let exitHookInstalled = false;

/**
 * Register `dir` for removal at process exit; returns the function that unregisters it (call it
 * once the folder is removed, or kept on purpose, e.g. `certify --keep`).
 */
export function trackTempFolder(dir: string): () => void {
  folders.add(dir);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const d of folders) {
        try {
          rmSync(d, { recursive: true, force: true });
        } catch {
          // Nothing more can be done in an exit hook; the folder stays.
        }
      }
    });
  }
  return () => {
    folders.delete(dir);
  };
}
