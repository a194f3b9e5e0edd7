/**
 * Issue 10 part 2: contracts judge what the decoder found, never the raw envelope. With a decoder
 * that finds nothing (no candidate, no reply, status ok) but hands over stdout and stderr verbatim
 * for evidence, no case of any contract may still be accepted (nor dropped non-final, which needs an
 * answer): a contract that re-read stdout would still find its answer there and fail this suite.
 * A team's own contract is held to the same.
 */
import { describe, expect, it } from 'vitest';
import { defineContract } from '#src/contract/define.ts';
import { judgeCase } from '#src/contract/judgeCase.ts';
import { loadContract } from '#src/contract/registry.ts';
import type { Contract } from '#src/contract/types.ts';
import { envelopeFacts } from '#src/envelope/decodeParts.ts';
import { decoderFor } from '#src/routes/registry.ts';
import type { RouteDecoder } from '#src/envelope/types.ts';
import { corpus } from './_helpers/corpus.ts';

/** A decoder that finds nothing: the run facts and raw text only (as a broken decoder would leave them). */
const blind: RouteDecoder = {
  route: 'blind',
  header: 'finds nothing',
  detect: () => true,
  decode: (envelope) => {
    const { run, raw } = envelopeFacts(envelope);
    return { route: 'blind', candidates: [], status: { kind: 'ok' }, human: [], ancillary: [], keys: [], notes: [], reply: {}, run, raw, freeText: [] };
  },
};

const team = defineContract({
  name: 'team-answer',
  schema: { type: 'object', required: ['position'], properties: { position: { type: 'string' }, final: { type: 'boolean' } } },
  anchor: 'position',
  finality: { key: 'final' },
  selection: 'last-shaped',
  textFallback: 'any',
  corrections: { budget: 1 },
});

describe('contracts judge only the decoded value', () => {
  const contracts = [...new Set(corpus.cases.map((c) => c.case.contract))];

  it('the corpus has accepted cases of every contract with the real decoders (so the blind run below can fail)', async () => {
    for (const name of contracts) {
      const contract = await loadContract(name);
      const accepted = corpus.cases.filter((c) => c.case.contract === name && judgeCase(c.case, contract, decoderFor(c.case.route)).verdict.verdict === 'accepted');
      expect(accepted.length, name).toBeGreaterThan(0);
    }
  });

  it.each(contracts)('no %s case is accepted when the decoder finds nothing', async (name) => {
    const contract = await loadContract(name);
    const cases = corpus.cases.filter((c) => c.case.contract === name);
    for (const c of cases) {
      const { verdict } = judgeCase(c.case, contract, blind);
      expect(['accepted', 'dropped-nonfinal'], `${c.case.id} ${c.case.description}`).not.toContain(verdict.verdict);
    }
  });

  it('a team contract accepts answers with the real decoders and none with the blind one, over every case of the corpus', () => {
    let acceptedReal = 0;
    for (const c of corpus.cases) {
      const judged = (contract: Contract, decoder: RouteDecoder) => judgeCase({ attempts: c.case.attempts }, contract, decoder).verdict.verdict;
      if (judged(team, decoderFor(c.case.route)) === 'accepted') acceptedReal += 1;
      expect(['accepted', 'dropped-nonfinal'], c.case.id).not.toContain(judged(team, blind));
    }
    expect(acceptedReal).toBeGreaterThan(0);
  });
});
