/**
 * ai-sdk-provider-claude-code (AI SDK v7), used as its README shows for structured output:
 * `generateText({ model: claudeCode(...), output: Output.object({ schema }) })`, the answer in
 * `output`. `pathToClaudeCodeExecutable` (a provider setting passed to the Claude Agent SDK) points
 * at the `claude` routecert puts on PATH; the caller's deadline is `abortSignal`.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateText, jsonSchema, Output } from 'ai';
import { claudeCode } from 'ai-sdk-provider-claude-code';
import { errorOutcome, cliPath, inputs, report, versionOf } from '../_kit/adapter-kit.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const consumer = `ai-sdk-provider-claude-code@${versionOf(here, 'ai-sdk-provider-claude-code')}`;
const { schema, prompt, outFile, deadlineMs } = inputs();

try {
  const result = await generateText({
    model: claudeCode('sonnet', { pathToClaudeCodeExecutable: cliPath('claude') }),
    output: Output.object({ schema: jsonSchema(schema) }),
    prompt,
    abortSignal: AbortSignal.timeout(deadlineMs),
    maxRetries: 0,
  });
  const usage = { inputTokens: result.usage?.inputTokens ?? null, outputTokens: result.usage?.outputTokens ?? null };
  if (result.output === undefined || result.output === null) report(outFile, result.text ? { kind: 'text', text: result.text, consumer, usage } : { kind: 'empty', consumer, usage });
  report(outFile, { kind: 'object', value: result.output, consumer, usage });
} catch (error) {
  report(outFile, errorOutcome(consumer, error));
}
