/**
 * Certifying ai-sdk-provider-claude-code unchanged: `npx routecert certify --config examples/consumers/ai-sdk-provider-claude-code/routecert.config.ts`
 * (after `npm run consumers:install`), or all consumers with `npm run consumers:certify`.
 * adapter.mjs calls the package's public API with its CLI path pointed at routecert's fake CLI.
 */
import { consumerConfig } from '../_kit/consumerConfig.ts';

export default consumerConfig('ai-sdk-provider-claude-code (examples/consumers/ai-sdk-provider-claude-code/adapter.mjs)', ['claude-code/stream-json']);
