import { describe, expect, it } from 'vitest';
import { boundedEvidence, clipEvidence, clipText, errorEvidence, errorFrames } from './evidence.ts';

describe('clipEvidence', () => {
  it('keeps a 14-character stderr verbatim', () => {
    expect(clipEvidence('schema invalid')).toBe('schema invalid');
  });

  it('keeps exactly 300 characters whole', () => {
    const text = 'a'.repeat(300);
    expect(clipEvidence(text)).toBe(text);
  });

  it('clips 301 characters to the first 147, " ... " and the last 147 by default', () => {
    const text = `${'h'.repeat(150)}${'t'.repeat(151)}`;
    const clipped = clipEvidence(text);
    expect(clipped).toBe(`${'h'.repeat(147)} ... ${'t'.repeat(147)}`);
  });

  it('keeps the last 300 characters with the tail policy', () => {
    const text = `start-${'x'.repeat(400)}-end`;
    const clipped = clipEvidence(text, 'tail');
    expect(clipped).toHaveLength(300);
    expect(clipped.endsWith('-end')).toBe(true);
    expect(clipped.includes('start')).toBe(false);
  });

  it('turns CRLF, CR and LF into single spaces', () => {
    expect(clipEvidence('a\r\nb\nc\rd')).toBe('a b c d');
  });
});

describe('boundedEvidence', () => {
  it('prefers the human fields to the raw text and appends the ancillary fields', () => {
    const raw = `{"result":"Not logged in · Please run /login","pad":"${'x'.repeat(1000)}"}`;
    const text = boundedEvidence({ human: ['Not logged in · Please run /login'], ancillary: ['terminal_reason=api_error'], raw });
    expect(text).toBe('Not logged in · Please run /login terminal_reason=api_error');
  });

  it('falls back to the raw text when there is no human field', () => {
    expect(boundedEvidence({ human: [], ancillary: [], raw: '  quota exceeded\n' })).toBe('quota exceeded');
  });

  it('de-duplicates human fields and joins them with " | "', () => {
    expect(boundedEvidence({ human: ['a', 'b', 'a'], ancillary: [], raw: '' })).toBe('a | b');
  });

  it('keeps the start and the end of a long message', () => {
    const human = `Not logged in ${'x'.repeat(1000)} run /login`;
    const text = boundedEvidence({ human: [human], ancillary: ['api_error_status=401'], raw: '' });
    expect(text.startsWith('Not logged in')).toBe(true);
    expect(text.endsWith('api_error_status=401')).toBe(true);
    expect(text.length).toBeLessThanOrEqual(300);
  });
});

describe('clipEvidence: unicode', () => {
  it('never splits a surrogate pair at either cut', () => {
    for (let shift = 0; shift < 4; shift += 1) {
      const text = `${'a'.repeat(shift)}${'😀'.repeat(400)}`;
      for (const policy of ['head-tail', 'tail'] as const) {
        const clipped = clipEvidence(text, policy);
        expect(clipped.length).toBeLessThanOrEqual(300);
        expect(clipped).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
      }
    }
  });
});

describe('clipText', () => {
  it('keeps a text of up to maxChars whole and cuts a longer one to maxChars with the marker', () => {
    expect(clipText('abcdef', 6)).toBe('abcdef');
    expect(clipText('abcdefgh', 6)).toBe('abc...');
    expect(clipText('x'.repeat(1000), 160)).toHaveLength(160);
  });

  it('never keeps half a surrogate pair', () => {
    const cut = clipText('ab😀cdefgh', 6);
    expect(cut).toBe('ab...');
    expect(/\p{Surrogate}/u.test(cut)).toBe(false);
    for (let max = 3; max < 30; max += 1) expect(/\p{Surrogate}/u.test(clipText('😀'.repeat(20), max))).toBe(false);
  });

  it('takes a marker that names what it left out', () => {
    expect(clipText('x'.repeat(100), 40, (n) => ` (+${n})`)).toBe(`${'x'.repeat(34)} (+66)`);
  });
});

describe('errorFrames / errorEvidence (issue 21.6: evidence keeps the CLI\'s own error words)', () => {
  const long = 'word '.repeat(400);
  const frames = (...events: unknown[]) => `${events.map((e) => JSON.stringify(e)).join('\n')}\n`;
  // google-gemini/gemini-cli 0.61.0 nonInteractiveCli (PR #26218): the InvalidStream error frame.
  const invalid = { type: 'error', timestamp: '2026-12-01T00:00:00.000Z', severity: 'error', message: 'Invalid stream: The model returned an empty response or malformed tool call.' };
  const stdout = frames({ type: 'init', session_id: 's' }, { type: 'message', role: 'assistant', content: long, delta: true }, invalid, { type: 'message', role: 'assistant', content: long, delta: true }, { type: 'result', status: 'success' });

  it('finds every error frame and error field, in order, and the message inside a relayed body', () => {
    const more = frames(invalid, { type: 'turn.failed', error: { message: '{"error":{"message":"bad schema","code":"invalid_json_schema"}}' } }, { type: 'session.error', data: { message: '529 Overloaded' } }, { type: 'assistant', error: 'unknown' });
    expect(errorFrames(more)).toEqual([invalid.message, 'bad schema', '529 Overloaded']);
    expect(errorFrames('{"type":"result","error":{"code":400,"message":"x"}}')).toEqual(['x']);
    expect(errorFrames('not json error\n{"type":"message","content":"fail"}')).toEqual([]);
  });

  it('keeps an error frame from the middle of a long stream whole, where the clipped line lost it', () => {
    const clipped = `peer skip evidence: ${boundedEvidence({ human: [], ancillary: [], raw: stdout })}`;
    expect(clipped).not.toContain('Invalid stream');
    expect(errorEvidence({ stdout, stderr: '' }, [clipped])).toEqual([`peer error: ${invalid.message}`]);
  });

  it('does not repeat words already whole in the evidence, and bounds each one', () => {
    expect(errorEvidence({ stdout, stderr: '' }, [`peer skip evidence: ${invalid.message}`])).toEqual([]);
    const huge = frames({ type: 'error', message: `Invalid stream: ${'x'.repeat(2000)}` });
    expect(errorEvidence({ stdout: huge, stderr: '' }, [])[0]!.length).toBeLessThanOrEqual('peer error: '.length + 300);
  });

  it('keeps the error lines of a long stderr, never those of a short one (it stays whole in its own line)', () => {
    const stderr = `Warning: ${'noise '.repeat(80)}\n    at Foo (x.js:1)\nNotFoundError: Session not found: ses_x\n  "error": {\n`;
    expect(errorEvidence({ stdout: '', stderr }, [])).toEqual(['peer error (stderr): NotFoundError: Session not found: ses_x']);
    expect(errorEvidence({ stdout: '', stderr: 'Error: short' }, [])).toEqual([]);
  });
});
