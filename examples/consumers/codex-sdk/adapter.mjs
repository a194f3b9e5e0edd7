/**
 * @openai/codex-sdk, used as its README shows: `new Codex({ codexPathOverride })`, `startThread()`,
 * `thread.run(prompt, { outputSchema, signal })`; the answer is `turn.finalResponse`, the JSON text
 * of the last agent message, which the caller parses. `codexPathOverride` points at the `codex`
 * routecert puts on PATH; the caller's deadline is `signal`.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Codex } from '@openai/codex-sdk';
import { errorOutcome, cliPath, inputs, report, versionOf } from '../_kit/adapter-kit.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const consumer = `@openai/codex-sdk@${versionOf(here, '@openai/codex-sdk')}`;
const { schema, prompt, outFile, deadlineMs } = inputs();

let turn;
try {
  const thread = new Codex({ codexPathOverride: cliPath('codex') }).startThread({ skipGitRepoCheck: true });
  turn = await thread.run(prompt, { outputSchema: schema, signal: AbortSignal.timeout(deadlineMs) });
} catch (error) {
  report(outFile, errorOutcome(consumer, error));
}
const usage = turn.usage ? { inputTokens: turn.usage.input_tokens ?? null, outputTokens: turn.usage.output_tokens ?? null } : undefined;
if (turn.finalResponse === '') report(outFile, { kind: 'empty', consumer, ...(usage ? { usage } : {}) });
let value;
try {
  value = JSON.parse(turn.finalResponse);
} catch {
  report(outFile, { kind: 'text', text: turn.finalResponse, consumer, ...(usage ? { usage } : {}) });
}
report(outFile, { kind: 'object', value, consumer, ...(usage ? { usage } : {}) });
