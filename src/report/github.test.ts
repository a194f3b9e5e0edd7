import { describe, expect, it } from 'vitest';
import { githubAnnotations, workflowCommand } from './github.ts';
import type { CaseResult, RunReport } from './types.ts';

const base: CaseResult = {
  id: 'abc123',
  file: 'fixtures/cases/a,b:c.json',
  description: 'd',
  route: 'claude-code/json',
  contract: 'pov',
  cli: { name: 'claude', version: '1' },
  source: 'recorded',
  tags: [],
  outcome: 'fail',
  expected: { verdict: 'retry' },
  verdict: { verdict: 'dropped-unusable', attempt: 0, evidence: ['100% sure\r\nnot'] } as never,
  attempts: [],
  problems: ['expected verdict retry, got dropped-unusable'],
  caught: null,
  replay: 'npx routecert run --case abc123',
  durationMs: 1,
};

describe('github annotations', () => {
  it('escape % CR LF in the message and also : , in properties (actions/toolkit rules)', () => {
    expect(workflowCommand('error', { file: 'a,b:c', title: 't', line: undefined }, '50%\r\nx')).toBe('::error file=a%2Cb%3Ac,title=t::50%25%0D%0Ax');
  });

  it('one ::error per failing case, a ::warning per drift line, an ::error per run fault; nothing for passing cases', () => {
    const report = {
      cases: [base, { ...base, id: 'ok', outcome: 'pass', drift: ['stdout gained key x'] }, { ...base, id: 'live', file: '(live probe of claude)', outcome: 'error' }],
      faults: [{ kind: 'case-file', file: 'broken.json', where: 'line 3, column 1', message: 'not valid JSON' }],
    } as unknown as RunReport;
    expect(githubAnnotations(report)).toEqual([
      '::error file=fixtures/cases/a%2Cb%3Ac.json,title=abc123::expected verdict retry, got dropped-unusable%0Aexpected retry, got dropped-unusable (claude-code/json, contract pov)%0Aevidence: 100%25 sure%0D%0Anot%0Areplay: npx routecert run --case abc123',
      '::warning file=fixtures/cases/a%2Cb%3Ac.json,title=ok envelope drift::stdout gained key x',
      '::error title=live::expected verdict retry, got dropped-unusable%0Aexpected retry, got dropped-unusable (claude-code/json, contract pov)%0Aevidence: 100%25 sure%0D%0Anot%0Areplay: npx routecert run --case abc123',
      '::error file=broken.json,line=3,title=routecert case-file::not valid JSON',
    ]);
  });
});
