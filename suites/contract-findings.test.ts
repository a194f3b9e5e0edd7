/**
 * The findings contracts (`findings-code`, `findings-doc`; DESIGN.md "Contracts in the mission" item 2):
 * the corpus cases reach their verdicts and every accepted review is schema-valid; a populated review
 * beats an empty stub wherever the two sit; an empty review alone is "found nothing"; in a sequence of
 * top-level objects the last shaped one wins (shared/research/ce-plugin.md 1.5, tests in 3.4 and 3.5).
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadContract } from '#src/contract/registry.ts';
import { judgeCase } from '#src/contract/judgeCase.ts';
import { compileValidator } from '#src/contract/validator.ts';
import { decoderFor } from '#src/routes/registry.ts';
import type { Envelope } from '#src/envelope/types.ts';
import { projectPath } from '#src/paths.ts';
import { corpus, judge } from './_helpers/corpus.ts';

const SCHEMAS = { 'findings-code': 'code-review-findings.schema.json', 'findings-doc': 'doc-review-findings.schema.json' } as const;
const readSchema = (file: string) => JSON.parse(readFileSync(projectPath('schemas/contracts', file), 'utf8')) as Record<string, unknown>;

describe.each(Object.entries(SCHEMAS))('%s: corpus', (name, schemaFile) => {
  const rows = corpus.cases.filter((c) => c.case.contract === name);
  const validate = compileValidator(readSchema(schemaFile));

  it('has at least eight cases, accepted and rejected, populated and empty', () => {
    expect(rows.length).toBeGreaterThanOrEqual(8);
    const verdicts = new Set(rows.map((c) => c.case.expect.verdict));
    expect(verdicts.has('accepted')).toBe(true);
    expect(verdicts.has('dropped-unusable')).toBe(true);
    expect(rows.some((c) => c.case.tags.includes('found-nothing'))).toBe(true);
    expect(rows.some((c) => c.case.tags.includes('populated-beats-stub'))).toBe(true);
  });

  it.each(rows.map((c) => [`${c.case.id} ${c.case.route}: ${c.case.description}`, c] as const))('%s', async (_label, c) => {
    const verdict = await judge(c);
    expect(verdict.verdict).toBe(c.case.expect.verdict);
    if (verdict.verdict === 'accepted') {
      expect(validate(verdict.value)).toEqual([]);
      expect(verdict.value).toEqual(c.case.expect.value);
    }
  });
});

// Reviews built from a small pool of schema-valid findings.
const FINDING = (n: number) => ({
  title: `Finding ${n}`,
  severity: (['P0', 'P1', 'P2', 'P3'] as const)[n % 4],
  file: `src/f${n}.ts`,
  line: n + 1,
  why_it_matters: 'It breaks a caller.',
  autofix_class: 'manual',
  owner: 'human',
  requires_verification: n % 2 === 0,
  confidence: 75,
  evidence: [`src/f${n}.ts:${n + 1}`],
  pre_existing: false,
});
const review = (findings: number[]) => ({ reviewer: 'r', findings: findings.map(FINDING), residual_risks: [], testing_gaps: [] });
const populatedReview = fc.array(fc.nat({ max: 20 }), { minLength: 1, maxLength: 3 }).map(review);
const emptyShape = fc.constantFrom({ findings: [] }, review([]));

const envelope = (stdout: string): Envelope => ({ stdout, stderr: '', exitCode: 0, elapsedMs: 10 });

describe('findings-code: a populated review beats an empty stub wherever they sit (grok/json)', async () => {
  const contract = await loadContract('findings-code');
  const grok = decoderFor('grok/json');
  /** Where the stub and the review go in a grok envelope. */
  const placements = ['stub-structured', 'stub-text-before', 'stub-text-after', 'stub-outer', 'review-structured'] as const;

  it('holds for every placement and order', () => {
    fc.assert(
      fc.property(populatedReview, emptyShape, fc.constantFrom(...placements), (full, stub, where) => {
        const t = (...objects: unknown[]) => objects.map((o) => JSON.stringify(o)).join('\n');
        const fields: Record<string, unknown> = {
          'stub-structured': { text: t(full), structuredOutput: stub },
          'stub-text-before': { text: t(stub, full) },
          'stub-text-after': { text: t(full, stub) },
          'stub-outer': { findings: [], text: t(full) },
          'review-structured': { text: t(stub), structuredOutput: full },
        }[where];
        const verdict = judgeCase({ attempts: [envelope(JSON.stringify(fields))] }, contract, grok).verdict;
        expect(verdict.verdict).toBe('accepted');
        if (verdict.verdict === 'accepted') expect(verdict.value).toEqual(full);
      }),
      { numRuns: 150 },
    );
  });

  it('an empty stub alone is accepted as zero findings', () => {
    fc.assert(
      fc.property(emptyShape, fc.boolean(), (stub, inText) => {
        const fields = inText ? { text: JSON.stringify(stub) } : { text: 'Nothing found.', structuredOutput: stub };
        const verdict = judgeCase({ attempts: [envelope(JSON.stringify(fields))] }, contract, grok).verdict;
        expect(verdict.verdict).toBe('accepted');
        if (verdict.verdict === 'accepted') expect((verdict.value as { findings: unknown[] }).findings).toEqual([]);
      }),
    );
  });
});

describe('findings-code: in a sequence of top-level objects the last shaped one wins (codex stdout)', async () => {
  const contract = await loadContract('findings-code');
  const generic = decoderFor('generic');
  const item = fc.oneof(
    populatedReview.map((v) => ({ shaped: true, value: v as unknown })),
    emptyShape.map((v) => ({ shaped: true, value: v as unknown })),
    fc.constantFrom({ type: 'turn.started' }, { note: 'done' }).map((v) => ({ shaped: false, value: v as unknown })),
    fc.constantFrom('Reviewing the diff...', 'Done.').map((v) => ({ shaped: false, value: v as unknown })),
  );

  it('holds for any sequence with at least one shaped object', () => {
    fc.assert(
      fc.property(fc.array(item, { minLength: 1, maxLength: 6 }).filter((xs) => xs.some((x) => x.shaped)), (items) => {
        const stdout = items.map((x) => (typeof x.value === 'string' ? x.value : JSON.stringify(x.value))).join('\n');
        const last = items.filter((x) => x.shaped).at(-1)!.value as Record<string, unknown>;
        const verdict = judgeCase({ attempts: [envelope(stdout)] }, contract, generic).verdict;
        expect(verdict.verdict).toBe('accepted');
        if (verdict.verdict === 'accepted') expect((verdict.value as { findings: unknown }).findings).toEqual(last.findings);
      }),
      { numRuns: 150 },
    );
  });
});

describe('findings-code: across codex/jsonl agent messages the last shaped message wins', async () => {
  const contract = await loadContract('findings-code');
  const codex = decoderFor('codex/jsonl');
  const message = fc.oneof(
    populatedReview.map((v) => ({ shaped: true, text: JSON.stringify(v), value: v as Record<string, unknown> })),
    emptyShape.map((v) => ({ shaped: true, text: JSON.stringify(v), value: v as Record<string, unknown> })),
    fc.constantFrom('Reading the diff.', 'Almost done.').map((t) => ({ shaped: false, text: t, value: {} as Record<string, unknown> })),
  );

  it('holds for any sequence of messages with at least one shaped one, the -o file holding the last message', () => {
    fc.assert(
      fc.property(fc.array(message, { minLength: 1, maxLength: 5 }).filter((ms) => ms.some((m) => m.shaped)), (messages) => {
        const events = [
          { type: 'thread.started', thread_id: 't' },
          { type: 'turn.started' },
          ...messages.map((m, i) => ({ type: 'item.completed', item: { id: `item_${i}`, type: 'agent_message', text: m.text } })),
          { type: 'turn.completed', usage: { input_tokens: 1, output_tokens: 1 } },
        ];
        const env: Envelope = { ...envelope(events.map((e) => `${JSON.stringify(e)}\n`).join('')), files: { 'last-message': messages.at(-1)!.text } };
        const last = messages.filter((m) => m.shaped).at(-1)!.value;
        const verdict = judgeCase({ attempts: [env] }, contract, codex).verdict;
        expect(verdict.verdict).toBe('accepted');
        if (verdict.verdict === 'accepted') expect((verdict.value as { findings: unknown }).findings).toEqual(last.findings);
      }),
      { numRuns: 150 },
    );
  });
});
