/**
 * @anthropic-ai/claude-agent-sdk, used as its docs show for structured output: `query()` with
 * `outputFormat: { type: 'json_schema', schema }`, the answer in the `result` message's
 * `structured_output`; `pathToClaudeCodeExecutable` points at the `claude` routecert puts on PATH,
 * and the caller's deadline aborts `abortController`.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { query } from '@anthropic-ai/claude-agent-sdk';
import { errorOutcome, cliPath, inputs, report, versionOf } from '../_kit/adapter-kit.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const consumer = `@anthropic-ai/claude-agent-sdk@${versionOf(here, '@anthropic-ai/claude-agent-sdk')}`;
const { schema, prompt, outFile, deadlineMs } = inputs();
const abortController = new AbortController();
const timer = setTimeout(() => abortController.abort(), deadlineMs);

let result = null;
let lastText = '';
try {
  for await (const message of query({ prompt, options: { pathToClaudeCodeExecutable: cliPath('claude'), outputFormat: { type: 'json_schema', schema }, abortController } })) {
    if (message.type === 'result') result = message;
    // The text the caller saw last (an API error arrives as a synthetic assistant message).
    if (message.type === 'assistant') lastText = (message.message?.content ?? []).filter((b) => b.type === 'text').map((b) => b.text).join('') || lastText;
  }
} catch (error) {
  report(outFile, errorOutcome(consumer, error));
}
clearTimeout(timer);
if (result === null) report(outFile, { kind: 'empty', consumer });
const usage = result.usage ? { inputTokens: result.usage.input_tokens ?? null, outputTokens: result.usage.output_tokens ?? null } : undefined;
if (result.subtype !== 'success' || result.is_error) {
  const message = typeof result.result === 'string' && result.result !== '' ? result.result : (result.errors ?? []).join('; ') || lastText || result.subtype;
  const status = Number.isInteger(result.api_error_status) ? { status: result.api_error_status } : {};
  report(outFile, { kind: 'error', consumer, error: { name: result.subtype, message, ...status }, ...(usage ? { usage } : {}) });
}
if (result.structured_output !== undefined) report(outFile, { kind: 'object', value: result.structured_output, consumer, ...(usage ? { usage } : {}) });
report(outFile, { kind: 'text', text: result.result ?? '', consumer, ...(usage ? { usage } : {}) });
