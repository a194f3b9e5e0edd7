/**
 * Issue 10 part 3: every evidence line of every contract is bounded. One source of the failure
 * verdicts (src/contract/outcome.ts) clips stdout, stderr and the CLI's startup message; every line
 * a contract writes is then held to `evidenceLineLimit(clip)`. Before, a 5,000-character stderr gave
 * a 5,067-character startup line on four contracts. Proven for every preset and for a team contract
 * with its own clip, over every corpus case made hostile (stderr, prose and a startup message six
 * times the longest line allowed, a timeout; each distinct input once) and generated replies.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineContract, type DefinedContract } from '#src/contract/define.ts';
import { judgeCase } from '#src/contract/judgeCase.ts';
import { PRESET_NAMES, presetContract } from '#src/contract/presets.ts';
import { evidenceLineLimit } from '#src/diagnostics/evidence.ts';
import { decoderFor } from '#src/routes/registry.ts';
import type { Envelope } from '#src/envelope/types.ts';
import { corpus } from './_helpers/corpus.ts';

/** Over six times the longest line the default clip allows (147 + 147 + 203): long enough to need clipping everywhere. */
const HUGE = 'E'.repeat(1_200) + ' middle ' + 'z'.repeat(2_000);
const team = defineContract({
  name: 'team-short-clip',
  schema: { type: 'object', required: ['answer'], properties: { answer: { type: 'string' }, done: { type: 'boolean' } } },
  anchor: 'answer',
  finality: { key: 'done' },
  selection: 'score',
  retry: { hardWindowMs: 60_000, retryMinMs: 1_000, paragraph: 'Say done: true.' },
  clip: { head: 40, tail: 20 },
});
const contracts: DefinedContract[] = [...PRESET_NAMES.map((n) => presetContract(n)), team];

/** Hostile variants of one recorded envelope. */
function variants(e: Envelope): Envelope[] {
  return [
    { ...e, stderr: HUGE },
    { ...e, stdout: '', stderr: `Error: --json-schema is not a valid JSON Schema: ${HUGE}`, exitCode: 1 },
    { ...e, timedOut: true, stderr: HUGE },
    { ...e, stdout: JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: `${HUGE}\n## Result: PASS\n## Verdict: FAIL\n`.repeat(3) }), stderr: HUGE },
    { ...e, stdout: JSON.stringify({ type: 'result', subtype: 'success', is_error: true, api_error_status: 529, result: HUGE }), exitCode: 1 },
    { ...e, stdout: HUGE, exitCode: 137, signal: 'SIGKILL' },
  ];
}

function longest(contract: DefinedContract, route: string, attempts: Envelope[]): { length: number; line: string } {
  let worst = { length: 0, line: '' };
  const judged = judgeCase({ attempts }, contract, decoderFor(route));
  for (const a of judged.attempts) for (const line of a.verdict.evidence) if (line.length > worst.length) worst = { length: line.length, line };
  return worst;
}

/**
 * Every hostile variant of every corpus case, each distinct one once: a variant that replaces stdout
 * is the same input for many cases of a route (same exit code, signal and elapsed time), and judging
 * it again proves nothing more.
 */
const hostile: { id: string; route: string; envelope: Envelope }[] = (() => {
  const seen = new Set<string>();
  const out: { id: string; route: string; envelope: Envelope }[] = [];
  for (const c of corpus.cases) {
    for (const v of variants(c.case.attempts[0]!)) {
      const key = `${c.case.route} ${JSON.stringify(v)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ id: c.case.id, route: c.case.route, envelope: v });
    }
  }
  return out;
})();

describe('every evidence line of every contract is bounded', () => {
  it('the hostile inputs cover every route of the corpus', () => {
    expect(new Set(hostile.map((h) => h.route))).toEqual(new Set(corpus.cases.map((c) => c.case.route)));
    expect(hostile.length).toBeGreaterThan(2 * corpus.cases.length);
  });

  it.each(contracts.map((c) => [c.name, c] as const))('%s: corpus cases made hostile', (_name, contract) => {
    const limit = evidenceLineLimit(contract.definition.clip);
    for (const h of hostile) {
      const worst = longest(contract, h.route, [h.envelope, h.envelope, h.envelope]);
      expect(worst.length, `${h.id} ${h.route}: ${worst.line.slice(0, 120)}`).toBeLessThanOrEqual(limit);
    }
  });

  it.each(contracts.map((c) => [c.name, c] as const))('%s: the startup message is clipped by the contract clip', (_name, contract) => {
    const { head, tail } = contract.definition.clip;
    const e: Envelope = { stdout: '', stderr: `Error: --json-schema is not a valid JSON Schema: ${HUGE}`, exitCode: 1, elapsedMs: 10 };
    const v = judgeCase({ attempts: [e] }, contract, decoderFor('claude-code/json')).verdict;
    expect(v.verdict).toBe('startup-rejected');
    const line = v.evidence.find((l) => l.startsWith('startup rejected: '))!;
    expect(line.length).toBeLessThanOrEqual('startup rejected: '.length + head + tail + 5);
    if (v.verdict === 'startup-rejected') expect(v.message.length).toBeGreaterThan(HUGE.length); // the message itself stays verbatim
  });

  it.each(contracts.map((c) => [c.name, c] as const))('%s: generated replies of any length', (_name, contract) => {
    const limit = evidenceLineLimit(contract.definition.clip);
    fc.assert(
      fc.property(fc.string({ maxLength: 3_000 }), fc.string({ maxLength: 3_000 }), fc.boolean(), (text, stderr, fail) => {
        const e: Envelope = { stdout: JSON.stringify({ type: 'result', subtype: 'success', is_error: fail, result: text }), stderr, exitCode: fail ? 1 : 0, elapsedMs: 5 };
        expect(longest(contract, 'claude-code/json', [e, e, e]).length).toBeLessThanOrEqual(limit);
      }),
      { numRuns: 40 },
    );
  });
});
