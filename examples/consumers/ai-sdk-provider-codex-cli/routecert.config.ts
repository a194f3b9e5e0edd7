/**
 * Certifying ai-sdk-provider-codex-cli unchanged: `npx routecert certify --config examples/consumers/ai-sdk-provider-codex-cli/routecert.config.ts`
 * (after `npm run consumers:install`), or all consumers with `npm run consumers:certify`.
 * adapter.mjs calls the package's public API with its CLI path pointed at routecert's fake CLI.
 */
import { consumerConfig } from '../_kit/consumerConfig.ts';

export default consumerConfig('ai-sdk-provider-codex-cli (examples/consumers/ai-sdk-provider-codex-cli/adapter.mjs)', ['codex/jsonl']);
