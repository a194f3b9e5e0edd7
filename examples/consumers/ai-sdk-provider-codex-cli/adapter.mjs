/**
 * ai-sdk-provider-codex-cli (AI SDK v7), used as its README shows: `generateText({ model:
 * codexExec(...), output: Output.object({ schema }) })`, the answer in `output`. `codexPath` points
 * at the `codex` routecert puts on PATH (`allowNpx: false`: never fetch another one); the caller's
 * deadline is `abortSignal`.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateText, jsonSchema, Output } from 'ai';
import { codexExec } from 'ai-sdk-provider-codex-cli';
import { errorOutcome, cliPath, inputs, report, versionOf } from '../_kit/adapter-kit.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const consumer = `ai-sdk-provider-codex-cli@${versionOf(here, 'ai-sdk-provider-codex-cli')}`;
const { schema, prompt, outFile, deadlineMs } = inputs();

try {
  const result = await generateText({
    model: codexExec('gpt-5', { codexPath: cliPath('codex'), allowNpx: false, skipGitRepoCheck: true }),
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
