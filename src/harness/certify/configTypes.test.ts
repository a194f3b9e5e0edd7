/**
 * The README's recommended set-up type-checks (tsc, NodeNext strict, as a team's routecert.config.ts
 * is checked): one `defineContract({...})` in `contracts` and as the worker's `contract`. A type
 * error here fails `npx tsc --noEmit` (CI), not only this test.
 */
import { describe, expect, it } from 'vitest';
import { defineContract } from '#src/contract/define.ts';
import { configProblems, defineConfig } from './config.ts';

const schema = { type: 'object', properties: { schema_version: { type: 'integer', const: 1 }, blockers: { type: 'array', items: { type: 'string' } } }, required: ['schema_version', 'blockers'] };

describe('defineConfig', () => {
  it('takes what defineContract returns as the certification contract', () => {
    const review = defineContract({ name: 'review', schema, anchor: 'schema_version', finality: 'none', selection: 'score', clis: ['claude'] });
    const config = defineConfig({
      contracts: [review],
      worker: { name: 'w', command: ['python3', 'worker.py', '{schema}', '{prompt}', '{out}'], prompt: 'file', artifact: '{outDir}/review.json', windowEnv: { hardWindowS: 'REVIEW_HARD_SECS' } },
      routes: ['claude-code/json'],
      contract: review,
    });
    expect(config.contract).toBe(review);
    expect(configProblems(config)).toEqual([]);
  });
});
