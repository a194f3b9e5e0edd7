/**
 * The bundled certification: routecert's reference worker (src/worker/, run as its command),
 * certified on the routes it runs. `npx routecert certify --config routecert.config.ts`; `npm start`
 * (`routecert run`) certifies it too, unless `--no-certify`.
 */
import { defineConfig } from './src/index.ts';

export default defineConfig({
  worker: {
    name: 'routecert reference worker',
    command: ['node', 'bin/routecert-worker.js', '--route', '{route}', '--schema', '{schema}', '--prompt-file', '{prompt}', '--out', '{out}', '--log', '{log}'],
    prompt: 'file',
    artifact: '{outDir}/pov.json',
    log: '{runDir}/log/worker.log',
    windowEnv: { hardWindowS: 'ROUTECERT_HARD_S', idleWindowS: 'ROUTECERT_IDLE_S', retryMinS: 'ROUTECERT_RETRY_MIN_S' },
  },
  routes: ['claude-code/stream-json', 'claude-code/json', 'grok/json'],
  contract: 'pov',
});
