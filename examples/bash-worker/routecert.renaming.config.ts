/**
 * Certifying renaming-worker.sh, the example worker with its own output names, unchanged:
 * `npx routecert certify --config examples/bash-worker/routecert.renaming.config.ts`. The publish
 * mapping declares what it does to the answer (JSON Pointers into the answer): `position` is
 * published as `stance`, `movement` as `meta.movement`, and `mode` is left out.
 */
import { defineConfig } from '../../src/index.ts';
import example from './routecert.config.ts';

export default defineConfig({
  ...example,
  worker: {
    ...example.worker,
    name: 'example bash peer worker publishing its own names (examples/bash-worker/renaming-worker.sh)',
    command: ['bash', 'renaming-worker.sh', '{routeArg}', '{schema}', '{prompt}', '{outDir}'],
    publish: { rename: { '/position': '/stance', '/movement': '/meta/movement' }, exclude: ['/mode'] },
  },
});
