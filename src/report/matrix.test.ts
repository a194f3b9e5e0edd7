import { describe, expect, it } from 'vitest';
import { behaviourMatrix, matrixText } from './matrix.ts';
import type { CaseResult } from './types.ts';

function result(route: string, tags: string[], outcome: CaseResult['outcome']): CaseResult {
  return { id: 'x', file: 'f', description: 'd', route, contract: 'pov', cli: { name: 'c', version: '1' }, source: 'recorded', tags, outcome, expected: null, verdict: null, attempts: [], problems: [], caught: null, replay: '', durationMs: 0 };
}

describe('behaviourMatrix', () => {
  it('counts passes per route and behaviour class, a case in every class its tags name', () => {
    const m = behaviourMatrix([
      result('claude-code/json', ['final', 'key-case'], 'pass'),
      result('claude-code/json', ['nonfinal', 'fail-closed'], 'fail'),
      result('claude-code/json', ['nonfinal', 'retry'], 'pass'),
      result('grok/json', ['key-case'], 'pass'),
      result('grok/json', ['unclassified'], 'pass'),
    ]);
    expect(m.routes).toEqual(['claude-code/json', 'grok/json']);
    expect(m.classes).toEqual(['final', 'key-case', 'nonfinal']);
    expect(m.cell('claude-code/json', 'nonfinal')).toEqual({ total: 2, pass: 1 });
    expect(m.cell('grok/json', 'final')).toEqual({ total: 0, pass: 0 });
    expect(matrixText(m).split('\n')).toEqual([
      'route             final  key-case  nonfinal',
      'claude-code/json    1/1       1/1       1/2',
      'grok/json             -       1/1         -',
    ]);
  });
});

describe('the columns of the cases record --config writes', () => {
  it('a missing required field and a JSON scalar each have a column of their own', () => {
    const m = behaviourMatrix([result('codex/jsonl', ['missing-required', 'recorded'], 'pass'), result('codex/jsonl', ['scalar', 'recorded'], 'fail'), result('codex/jsonl', ['final'], 'pass')]);
    expect(m.classes).toEqual(['final', 'missing-field', 'scalar']);
    expect(m.cell('codex/jsonl', 'missing-field')).toEqual({ total: 1, pass: 1 });
    expect(m.cell('codex/jsonl', 'scalar')).toEqual({ total: 1, pass: 0 });
  });
});

describe('certificates beside the matrix', () => {
  it('certification results stay out of the behaviour matrix and get a status per worker route', async () => {
    const { certificateCounts, certificates } = await import('./certificates.ts');
    const cases = [
      result('claude-code/json', ['final'], 'pass'),
      { ...result('certify:claude-code/json', ['certify', 'check', 'retry'], 'pass'), id: 'certify:claude-code/json:retry-paragraph' },
      { ...result('certify:claude-code/json', ['certify', 'check', 'deadline'], 'fail'), id: 'certify:claude-code/json:process-group' },
      { ...result('certify:codex/jsonl', ['certify', 'smoke'], 'pass'), id: 'certify:codex/jsonl:smoke' },
      { ...result('certify:codex/jsonl', ['certify', 'check'], 'pass'), id: 'certify:codex/jsonl:retry-once' },
      { ...result('certify:gemini-cli/json', ['certify', 'smoke'], 'skip'), id: 'certify:gemini-cli/json:smoke' },
    ];
    const m = behaviourMatrix(cases);
    expect(m.routes).toEqual(['claude-code/json']);
    expect(m.classes).toEqual(['final']);
    // The smoke is counted apart from the checks, as `routecert certify` counts it (a run printed "0 of 29" where certify said 27).
    expect(certificates(cases).map((c) => [c.route, c.status, certificateCounts(c), c.failing.map((f) => f.id)])).toEqual([
      ['claude-code/json', 'not certified', '1 of 2 checks passed', ['certify:claude-code/json:process-group']],
      ['codex/jsonl', 'certified', 'smoke 1 of 1 passed; 1 of 1 checks passed', []],
      ['gemini-cli/json', 'nothing checked', 'smoke 0 of 1 passed; 0 of 0 checks passed', []],
    ]);
  });
});
