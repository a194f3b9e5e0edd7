/**
 * Many candidates (issue 24 point 5): a `result` holding thousands of schema-shaped objects gives
 * lazy candidates (values built from their spans when read), and the verdict, its evidence and the
 * attempt summary are those of the same candidates held as plain objects, and of the rule itself
 * (the last final valid candidate wins; ties to the later; the structured field wins early).
 */
import { describe, expect, it } from 'vitest';
import { candidatesFromText, canonicalJson, dedupeCandidates } from '#src/envelope/candidates.ts';
import type { Candidate, Decoded } from '#src/envelope/types.ts';
import { decoderFor } from '#src/routes/registry.ts';
import { judgeCase, MAX_ORIGINS_LISTED } from './judgeCase.ts';
import { loadContract } from './registry.ts';

const COUNT = 3_000;

/** The pov candidate `k`: `final` as given, `reasoning` left out (schema-invalid) when `broken`. */
function pov(k: number, final: boolean, broken = false): Record<string, unknown> {
  const o: Record<string, unknown> = { voice: 'peer', position: `Option ${k}`, reasoning: `Step ${k}`, evidence: [`src/a.ts:${k}`], external_check: 'ran', mode: 'independent', movement: 'initial', final };
  if (broken) delete o.reasoning;
  return o;
}

/** A claude-code/json stdout whose `result` holds `objects` in prose, one a line. */
function stdoutOf(objects: readonly Record<string, unknown>[], structured?: Record<string, unknown>): string {
  const result = objects.map((o, k) => `Draft ${k}: ${JSON.stringify(o)}`).join('\n');
  return JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result, ...(structured ? { structured_output: structured } : {}), session_id: '<uuid>' });
}

/** The same decoding with every candidate a plain object holding its value (what decoders gave before). */
function eager(decoded: Decoded): Decoded {
  const plain = (c: Candidate): Candidate => JSON.parse(JSON.stringify(c)) as Candidate;
  const candidates = decoded.candidates.map((c) => (c === decoded.structured ? c : plain(c)));
  return { ...decoded, candidates };
}

/** The old deduplication: canonical texts side by side in maps (the rule of dedupeCandidates' doc). */
function dedupeByText(candidates: Candidate[]): Candidate[] {
  const keys = candidates.map((c) => canonicalJson(c.value));
  const first = new Map<string, Candidate>();
  const last = new Map<string, number>();
  keys.forEach((k, i) => {
    if (!first.has(k)) first.set(k, candidates[i]!);
    last.set(k, i);
  });
  return keys.flatMap((k, i) => (last.get(k) === i ? [first.get(k)!] : []));
}

describe('many schema-shaped candidates in a result string', () => {
  const decoder = decoderFor('claude-code/json');

  const judgeBoth = async (stdout: string) => {
    const contract = await loadContract('pov');
    const decoded = decoder.decode({ stdout, stderr: '', exitCode: 0, elapsedMs: 1_000 }, contract.decodeOptions);
    const lazy = contract.judge(decoded, { attempt: 0, elapsedMs: 1_000 });
    const plain = (await loadContract('pov')).judge(eager(decoded), { attempt: 0, elapsedMs: 1_000 });
    return { decoded, lazy, plain };
  };

  it('holds the candidates from the text as spans, each value built again equal when read', () => {
    const objects = Array.from({ length: COUNT }, (_, k) => pov(k, true));
    const decoded = decoder.decode({ stdout: stdoutOf(objects), stderr: '', exitCode: 0, elapsedMs: 1 }, { anchor: 'position' });
    expect(decoded.candidates).toHaveLength(COUNT);
    const c = decoded.candidates[1_234]!;
    expect(Object.getOwnPropertyDescriptor(c, 'value')?.get).toBeTypeOf('function');
    expect(c.value).toEqual(objects[1_234]);
    expect(c.value).not.toBe(c.value);
    expect({ ...c }).toEqual({ origin: 'result', pointer: '/result', offset: 0, value: objects[1_234], fenced: false, nested: 1 });
  });

  it('accepts the last final valid candidate, as the same candidates held as objects do', async () => {
    const objects = Array.from({ length: COUNT }, (_, k) => pov(k, k % 4 !== 1, k % 10 === 3));
    const { lazy, plain } = await judgeBoth(stdoutOf(objects));
    expect(lazy).toEqual(plain);
    expect(lazy).toMatchObject({ verdict: 'accepted', origin: 'result', value: { position: `Option ${COUNT - 1}` }, evidence: ['accepted final position from result'] });
    // The last final one, not the last one, when the last is a placeholder.
    const tail = [...objects.slice(0, -1), pov(COUNT - 1, false)];
    const later = await judgeBoth(stdoutOf(tail));
    expect(later.lazy).toEqual(later.plain);
    expect(later.lazy).toMatchObject({ verdict: 'accepted', value: { position: `Option ${COUNT - 2}` } });
  });

  it('retries on the last non-final candidate, and names the last invalid one, as before', async () => {
    const placeholders = await judgeBoth(stdoutOf(Array.from({ length: COUNT }, (_, k) => pov(k, false))));
    expect(placeholders.lazy).toEqual(placeholders.plain);
    expect(placeholders.lazy.verdict).toBe('retry');
    expect(placeholders.lazy.evidence[0]).toContain(`"Option ${COUNT - 1}"`);
    const invalid = await judgeBoth(stdoutOf(Array.from({ length: COUNT }, (_, k) => pov(k, true, true))));
    expect(invalid.lazy).toEqual(invalid.plain);
    expect(invalid.lazy.verdict).toBe('dropped-unusable');
    expect(invalid.lazy.evidence.join('\n')).toContain('best candidate (result) is not shaped');
  });

  it('lets a valid final structured field win early over every text candidate', async () => {
    const objects = Array.from({ length: COUNT }, (_, k) => pov(k, true));
    const { lazy, plain } = await judgeBoth(stdoutOf(objects, pov(-1, true)));
    expect(lazy).toEqual(plain);
    expect(lazy).toMatchObject({ verdict: 'accepted', origin: 'structured_output', value: { position: 'Option -1' } });
  });

  it('deduplicates as the canonical texts side by side did: the first copy at the place of the last', () => {
    // Each of 500 values six times: the first copies in one order, the last ones in the reverse.
    const objects = Array.from({ length: COUNT }, (_, k) => pov((k < COUNT / 2 ? k : COUNT - 1 - k) % 500, true));
    const raw = candidatesFromText(objects.map((o) => JSON.stringify(o)).join('\n'), { origin: 'result', pointer: '/result', offset: 0 }, 'position');
    expect(raw).toHaveLength(COUNT);
    const kept = dedupeCandidates(raw);
    expect(kept).toHaveLength(500);
    expect(kept).toEqual(dedupeByText(raw));
    expect(kept.map((c) => (c.value as { position: string }).position)).toEqual(dedupeByText(raw).map((c) => (c.value as { position: string }).position));
  });

  it('lists the origins of the first and last 50 candidates and counts the rest', async () => {
    const contract = await loadContract('pov');
    const objects = Array.from({ length: COUNT }, (_, k) => pov(k, true));
    const judged = judgeCase({ attempts: [{ stdout: stdoutOf(objects, pov(-1, true)), stderr: '', exitCode: 0, elapsedMs: 1 }] }, contract, decoder);
    const attempt = judged.attempts[0]!;
    expect(attempt.candidates).toBe(COUNT + 1);
    expect(attempt.origins).toHaveLength(MAX_ORIGINS_LISTED);
    expect(attempt.origins[0]).toBe('structured_output');
    expect(attempt.originsOmitted).toBe(COUNT + 1 - MAX_ORIGINS_LISTED);
  });
});

describe('many candidates in a text that also says "properties" or "$schema"', () => {
  const decoder = decoderFor('claude-code/json');
  const PROSE = 'Each option below lists the properties the contract asks for ($schema aside).';

  it('still holds them as spans, and judges them as the same candidates held as objects', async () => {
    const contract = await loadContract('pov');
    const objects = Array.from({ length: COUNT }, (_, k) => pov(k, k % 4 !== 1, k % 10 === 3));
    const stdout = stdoutOf(objects).replace('"result":"', `"result":"${PROSE}\\n`);
    const decoded = decoder.decode({ stdout, stderr: '', exitCode: 0, elapsedMs: 1 }, contract.decodeOptions);
    expect(decoded.candidates).toHaveLength(COUNT);
    for (const c of [decoded.candidates[0]!, decoded.candidates[1_234]!, decoded.candidates[COUNT - 1]!]) {
      expect(Object.getOwnPropertyDescriptor(c, 'value')?.get).toBeTypeOf('function');
    }
    expect(decoded.candidates[1_234]!.value).toEqual(objects[1_234]);
    const lazy = contract.judge(decoded, { attempt: 0, elapsedMs: 1_000 });
    expect(lazy).toEqual(contract.judge(eager(decoded), { attempt: 0, elapsedMs: 1_000 }));
    // The verdict and evidence of the same text without the word.
    const without = contract.judge(decoder.decode({ stdout: stdoutOf(objects), stderr: '', exitCode: 0, elapsedMs: 1 }, contract.decodeOptions), { attempt: 0, elapsedMs: 1_000 });
    expect(lazy).toEqual(without);
    expect(lazy).toMatchObject({ verdict: 'accepted', value: { position: `Option ${COUNT - 1}` }, evidence: ['accepted final position from result'] });
  });
});
