import { describe, expect, it } from 'vitest';
import { judgeCase } from './judgeCase.ts';
import { presetContract } from './presets.ts';
import { decoderFor } from '#src/routes/registry.ts';

describe('failure evidence keeps the CLI\'s own error words (issue 21.6)', () => {
  it('a Gemini stream-json error frame in the middle of a long stream reaches the verdict evidence', () => {
    const message = 'Invalid stream: The model returned an empty response or malformed tool call.';
    const events = [
      { type: 'init', timestamp: 't', session_id: 's', model: 'gemini-2.5-pro' },
      { type: 'message', timestamp: 't', role: 'user', content: 'question' },
      ...Array.from({ length: 30 }, (_, i) => ({ type: 'message', timestamp: 't', role: 'assistant', content: `Thinking aloud, part ${i}, with no JSON at all. `.repeat(3), delta: true })),
      { type: 'error', timestamp: 't', severity: 'error', message },
      { type: 'result', timestamp: 't', status: 'success', stats: { total_tokens: 10, input_tokens: 5, output_tokens: 5, duration_ms: 1, tool_calls: 0 } },
    ];
    const stdout = `${events.map((e) => JSON.stringify(e)).join('\n')}\n`;
    const verdict = judgeCase({ attempts: [{ stdout, stderr: '', exitCode: 0, elapsedMs: 1000 }] }, presetContract('pov', {}), decoderFor('gemini-cli/stream-json')).verdict;
    expect(verdict.verdict).toBe('dropped-unusable');
    expect(verdict.evidence).toContain(`peer error: ${message}`);
  });
});
