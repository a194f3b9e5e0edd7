import { describe, expect, it } from 'vitest';
import type { StartupCell, StartupTable } from '#src/probe/startup.ts';
import { markdownSummary } from '#src/report/markdown.ts';
import { startupTableMarkdown, startupTableText } from '#src/report/startupTable.ts';
import type { RunReport } from '#src/report/types.ts';

const META_LINE = 'Error: --json-schema is not a valid JSON Schema: strict mode: unknown keyword: "_meta"';

function cell(over: Partial<StartupCell>): StartupCell {
  return {
    cli: 'claude',
    version: '2.1.332',
    route: 'claude-code/json',
    profile: 'claude-code',
    outcome: 'accepted',
    stage: null,
    message: null,
    exitCode: 0,
    requests: 1,
    elapsedMs: 900,
    expected: 'accepted',
    because: [],
    agrees: true,
    ...over,
  };
}

/** A run report with no case, for the writers to print. */
function emptyReport(): RunReport {
  return {
    reportVersion: 1,
    header: { tool: 'routecert', toolVersion: '0.1.0', startedAt: '2026-11-30T00:00:00.000Z', node: 'v20', platform: 'linux-x64', command: 'routecert run', corpus: 'fixtures/cases', clis: [] },
    cases: [],
    faults: [],
    summary: { total: 0, pass: 0, fail: 0, error: 0, skip: 0, byVerdict: {}, faults: 0 },
    footer: { finishedAt: '2026-11-30T00:00:01.000Z', durationMs: 1000, exitCode: 0 },
  };
}

const rejected = { outcome: 'rejected' as const, stage: 'startup' as const, message: META_LINE, exitCode: 1, requests: 0, expected: 'rejected' as const, because: ['claude-code/unknown-keyword at /_meta'] };

const table: StartupTable = {
  columns: [
    { cli: 'claude', version: '2.1.332', installed: true, profile: 'claude-code', routes: ['claude-code/json'], note: 'probed' },
    { cli: 'qwen', version: null, installed: false, profile: 'qwen-code', routes: ['qwen-code/json'], note: 'not installed; its startup probes are skipped. Install with: npm run probes:install' },
  ],
  rows: [
    { id: 'production:pov.schema.json', kind: 'production', label: 'pov.schema.json', keyword: '', pointer: '', format: null, cells: [cell({ listed: true })] },
    { id: 'canary:_meta@root', kind: 'custom-keyword', label: '_meta@root', keyword: '_meta', pointer: '', format: null, cells: [cell(rejected)] },
    { id: 'canary:x|y', kind: 'standard-annotation', label: 'x|y', keyword: 'x|y', pointer: '', format: null, cells: [cell({ expected: 'rejected', because: ['claude-code/some-rule at /x|y'], agrees: false })] },
    { id: 'format:text:_meta@root', kind: 'output-format', label: '_meta@root as text', keyword: '_meta', pointer: '', format: 'text', cells: [cell({ ...rejected, route: 'claude-code/text' })] },
  ],
  summary: { cells: 4, accepted: 2, rejected: 2, faults: 0, disagreements: 1, listedRejected: 0 },
  durationMs: 4000,
};

describe('startupTableMarkdown', () => {
  it('is a table of rows x CLI versions with the CLI message in each rejected cell', () => {
    const md = startupTableMarkdown(table);
    expect(md).toContain('## Startup probes');
    expect(md).toContain('| schema or keyword | row | claude 2.1.332 (claude-code) |');
    expect(md).toContain('| `pov.schema.json` | production | accepted (sent here) |');
    expect(md).toContain(`| \`_meta@root\` | custom-keyword | rejected: \`${META_LINE}\` |`);
    expect(md).toContain(`| \`_meta@root as text\` | output-format | rejected: \`${META_LINE}\` |`);
  });

  it('marks a disagreement with the lint profile, escapes pipes, and lists CLIs not installed', () => {
    const md = startupTableMarkdown(table);
    expect(md).toContain('| `x\\|y` | standard-annotation | accepted (DISAGREES with claude-code: expected rejected (claude-code/some-rule at /x\\|y)) |');
    expect(md).toContain('- qwen: not installed; its startup probes are skipped. Install with: npm run probes:install');
    expect(md).toContain('4 probes: 2 accepted, 2 rejected, 0 faults; 1 disagree with the lint profile');
  });

  it('is part of summary.md when the report has the section, and absent otherwise', () => {
    const report = emptyReport();
    expect(markdownSummary(report)).not.toContain('Startup probes');
    expect(markdownSummary({ ...report, startupProbes: table })).toContain(`| \`_meta@root\` | custom-keyword | rejected: \`${META_LINE}\` |`);
  });
});

describe('startupTableText', () => {
  it('prints short states with numbered messages, each distinct message once', () => {
    const text = startupTableText(table);
    const lines = text.split('\n');
    expect(lines.find((l) => l.startsWith('pov.schema.json'))).toMatch(/production\s+accepted \*$/);
    expect(lines.find((l) => l.startsWith('_meta@root '))).toMatch(/custom-keyword\s+rejected \[1\]$/);
    expect(lines.find((l) => l.startsWith('_meta@root as text'))).toMatch(/output-format\s+rejected \[1\]$/);
    expect(lines.filter((l) => l.startsWith('[1] '))).toEqual([`[1] claude 2.1.332: ${META_LINE}`]);
    expect(text).not.toContain('[2]');
  });

  it('spells out each disagreement with the profile, the rule and the CLI version', () => {
    const text = startupTableText(table);
    expect(text).toMatch(/x\|y\s+standard-annotation\s+accepted !/);
    expect(text).toContain('! x|y on claude 2.1.332: accepted, but claude-code expects rejected (claude-code/some-rule at /x|y)');
  });

  it('says so when no schema-flag CLI was probed', () => {
    const none: StartupTable = { ...table, columns: [table.columns[1]!], rows: [] };
    expect(startupTableText(none)).toContain('No schema-flag CLI was probed.');
    expect(startupTableMarkdown(none)).toContain('No schema-flag CLI was probed.');
  });
});

describe('the console summary of a run', () => {
  it('names each CLI whose startup probes were skipped (not installed), so a schema never sent reads as skipped', async () => {
    const { summaryText } = await import('./console.ts');
    const report: RunReport = { ...emptyReport(), startupProbes: { ...table, columns: [table.columns[1]!], rows: [], summary: { ...table.summary, cells: 0 } } };
    expect(summaryText(report)).toContain('startup probes of qwen: not installed; its startup probes are skipped.');
    expect(summaryText({ ...report, startupProbes: table })).not.toContain('startup probes of claude');
  });
});
