/**
 * The routecert config of one consumer adapter: `node adapter.mjs <schema> <prompt> <outcome>`
 * in the consumer's folder, the outcome file as the artifact, the caller's deadline in
 * CONSUMER_DEADLINE_S, judged by the consumer contract (no finality, no retry).
 */
import { defineConfig, type CertifyConfig } from '../../../src/index.ts';
import { CONSUMER_CONTRACT } from '../../../src/harness/certify/consumer.ts';

/** A consumer's config: `name` for the certificate, `routes` the CLI routes it spawns. */
export function consumerConfig(name: string, routes: string[]): CertifyConfig {
  return defineConfig({
    worker: {
      name,
      command: ['node', 'adapter.mjs', '{schema}', '{prompt}', '{out}'],
      prompt: 'file',
      artifact: '{outDir}/outcome.json',
      // Consumers have no retry; CONSUMER_RETRY_MIN_S is set and ignored.
      windowEnv: { hardWindowS: 'CONSUMER_DEADLINE_S', retryMinS: 'CONSUMER_RETRY_MIN_S' },
    },
    routes,
    contract: CONSUMER_CONTRACT,
    concurrency: 2,
  });
}
