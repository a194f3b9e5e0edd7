/**
 * Certifying @openai/codex-sdk unchanged: `npx routecert certify --config examples/consumers/codex-sdk/routecert.config.ts`
 * (after `npm run consumers:install`), or all consumers with `npm run consumers:certify`.
 * adapter.mjs calls the package's public API with its CLI path pointed at routecert's fake CLI.
 */
import { consumerConfig } from '../_kit/consumerConfig.ts';

export default consumerConfig('@openai/codex-sdk (examples/consumers/codex-sdk/adapter.mjs)', ['codex/jsonl']);
