/**
 * ai-sdk-provider-gemini-cli (AI SDK v6), used as its README shows: `createGeminiProvider({
 * authType: 'api-key', apiKey })` and `generateText({ model, output: Output.object({ schema }) })`,
 * the answer in `output`. It spawns no CLI: Gemini CLI's core runs in this process and calls the
 * Gemini API through @google/genai, which reads GOOGLE_GEMINI_BASE_URL; routecert sets it to its
 * Gemini mock on 127.0.0.1. The caller's deadline is `abortSignal`.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateText, jsonSchema, Output } from 'ai';
import { createGeminiProvider } from 'ai-sdk-provider-gemini-cli';
import { errorOutcome, inputs, report, versionOf } from '../_kit/adapter-kit.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const consumer = `ai-sdk-provider-gemini-cli@${versionOf(here, 'ai-sdk-provider-gemini-cli')}`;
const { schema, prompt, outFile, deadlineMs } = inputs();

try {
  const gemini = createGeminiProvider({ authType: 'api-key', apiKey: process.env.GEMINI_API_KEY });
  const result = await generateText({
    model: gemini('gemini-2.5-flash'),
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
