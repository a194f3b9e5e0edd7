/**
 * Certifying the example bash worker unchanged: `npx routecert certify --config examples/bash-worker/routecert.config.ts`.
 * The worker takes its target, schema file, prompt file and output folder as arguments, publishes
 * `<out-dir>/pov-<target>.json`, logs to stderr, and reads its windows from PEER_HARD_SECS,
 * PEER_RETRY_MIN_SECS and PEER_IDLE_SECS. The miniature broken workers (examples/miniatures/)
 * use this adapter with their own script (see examples/miniatures/config.ts).
 */
import { defineConfig } from '../../src/index.ts';

export default defineConfig({
  worker: {
    name: 'example bash peer worker (examples/bash-worker/peer-worker.sh)',
    command: ['bash', 'peer-worker.sh', '{routeArg}', '{schema}', '{prompt}', '{outDir}'],
    prompt: 'file',
    artifact: '{outDir}/pov-{routeArg}.json',
    windowEnv: { hardWindowS: 'PEER_HARD_SECS', retryMinS: 'PEER_RETRY_MIN_SECS', idleWindowS: 'PEER_IDLE_SECS' },
    routeNames: { 'claude-code/stream-json': 'claude', 'claude-code/json': 'claude-json', 'grok/json': 'grok' },
  },
  routes: ['claude-code/stream-json', 'grok/json'],
  contract: 'pov',
});
