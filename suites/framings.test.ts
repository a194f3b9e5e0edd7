/**
 * Every framing a decoder declares (RouteDecoder.framings) has a bundled case that its decoder
 * reads: decoded in that framing, with at least one candidate (issue 11, "Every framing listed in
 * a route definition has a case that its decoder reads").
 */
import { describe, expect, it } from 'vitest';
import { defaultDecoders } from '#src/envelope/registry.ts';
import { corpus } from './_helpers/corpus.ts';

const declaring = defaultDecoders().filter((d) => d.framings !== undefined && d.framings.length > 0);

describe('framings', () => {
  it('every CLI decoder declares its framings', () => {
    expect(declaring.map((d) => d.route).sort()).toEqual(
      [
        'claude-code/json',
        'claude-code/stream-json',
        'codex/jsonl',
        'copilot/json',
        'gemini-cli/json',
        'gemini-cli/stream-json',
        'grok-cli/jsonl',
        'opencode/jsonl',
        'pi/json',
        'qwen-code/json',
        'qwen-code/stream-json',
      ].sort(),
    );
  });

  it.each(declaring.flatMap((d) => d.framings!.map((f) => [d.route, f, d] as const)))('%s reads %s in a bundled case', (route, framing, decoder) => {
    const read = corpus.cases
      .filter((c) => c.case.route === route)
      .flatMap((c) => c.case.attempts.map((a) => decoder.decode(a, { anchor: 'position' })))
      .filter((d) => d.framing === framing && d.candidates.length > 0);
    expect(read.length, `no case of ${route} is read in framing ${framing}`).toBeGreaterThan(0);
  });
});
