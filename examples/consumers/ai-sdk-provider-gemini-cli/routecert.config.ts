/**
 * Certifying ai-sdk-provider-gemini-cli unchanged with `npm run consumers:certify` (after
 * `npm run consumers:install`). It spawns no CLI: Gemini CLI core runs in the adapter's process,
 * so routecert answers it with its Gemini mock on 127.0.0.1 (GOOGLE_GEMINI_BASE_URL) instead of a
 * fake CLI (src/harness/certify/consumerMock.ts). `routecert certify --config` on this file would
 * replay fake `gemini` CLIs the consumer never calls: use `npm run consumers:certify`.
 */
import { consumerConfig } from '../_kit/consumerConfig.ts';

export default consumerConfig('ai-sdk-provider-gemini-cli (examples/consumers/ai-sdk-provider-gemini-cli/adapter.mjs)', ['gemini-cli/json']);
