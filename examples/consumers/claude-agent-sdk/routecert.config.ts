/**
 * Certifying @anthropic-ai/claude-agent-sdk unchanged: `npx routecert certify --config examples/consumers/claude-agent-sdk/routecert.config.ts`
 * (after `npm run consumers:install`), or all consumers with `npm run consumers:certify`.
 * adapter.mjs calls the package's public API with its CLI path pointed at routecert's fake CLI.
 */
import { consumerConfig } from '../_kit/consumerConfig.ts';

export default consumerConfig('@anthropic-ai/claude-agent-sdk (examples/consumers/claude-agent-sdk/adapter.mjs)', ['claude-code/stream-json']);
