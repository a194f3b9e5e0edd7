import { describe, expect, it } from 'vitest';
import { mergeRows, parseTable, renderTable, spliceReadme, SUPPORT_END, SUPPORT_START, type SupportRow } from './supportTable.ts';

const row = (cli: string, version: string, extra: Partial<SupportRow> = {}): SupportRow => ({
  cli, version, passed: 11, probes: 11, result: 'same', inRange: true, note: '', probed: '2026-12-01', ...extra,
});

/** The layout probes/support.md had before the `probed` column (2026-12-01). */
const OLD_LAYOUT = `# CLI support

Support table (\`npm run probes:matrix\`, 2026-12-01, whole plan; result against fixtures/cases):

| CLI | supported range | version | probes passed | against the corpus | note |
| --- | --- | --- | --- | --- | --- |
| claude | 2.1.250 to newest | 2.1.250 | 24/24 | drifted (still conforms) |  |
| copilot | 1.0.81 to newest | 1.0.102 | 11/11 | same |  |
| pi | 0.73.1 to newest | 0.73.1 | 10/11 | breaks: probe-pi-json-stall | probe-pi-json-stall: a \\| b |
`;

describe('support table', () => {
  it('a run for some CLIs keeps the rows of the others, sorted by CLI then version', () => {
    const previous = parseTable(OLD_LAYOUT, 'probes/support.md');
    const merged = mergeRows(previous, [row('codex', '0.171.0'), row('codex', '0.153.0'), row('codex', '0.162.0')], new Set(['codex']));
    expect(merged.map((r) => `${r.cli} ${r.version}`)).toEqual(['claude 2.1.250', 'codex 0.153.0', 'codex 0.162.0', 'codex 0.171.0', 'copilot 1.0.102', 'pi 0.73.1']);
  });

  it('a CLI probed again loses its previous rows, even a version it did not repeat', () => {
    const merged = mergeRows([row('gemini', '0.55.1'), row('pi', '0.73.1')], [row('gemini', '0.61.0')], new Set(['gemini']));
    expect(merged.map((r) => `${r.cli} ${r.version}`)).toEqual(['gemini 0.61.0', 'pi 0.73.1']);
  });

  it('reads the old layout: the date and plans of the line above, escaped pipes, outside versions', () => {
    const rows = parseTable(OLD_LAYOUT.replace(', whole plan;', ', plans final, stall;').replace('| 1.0.102 |', '| 1.0.102 (outside) |'), 'x.md');
    expect(rows[2]).toEqual({ cli: 'pi', version: '0.73.1', passed: 10, probes: 11, result: 'breaks: probe-pi-json-stall', inRange: true, note: 'probe-pi-json-stall: a | b', probed: '2026-12-01, plans final, stall' });
    expect(rows[1]!.inRange).toBe(false);
  });

  it('what it renders it reads back unchanged', () => {
    const rows = [row('qwen', '0.24.4', { note: 'a | b', inRange: false, probed: '2026-12-02, plans final' }), row('claude', '2.1.332', { passed: 23, probes: 24, result: 'breaks: x' })];
    const text = renderTable(rows, (cli) => (cli === 'qwen' ? '0.21.2 to newest' : 'any'));
    expect(text).toContain('| qwen | 0.21.2 to newest | 0.24.4 (outside) | 11/11 | same | 2026-12-02, plans final | a \\| b |');
    expect(parseTable(text, 'x.md')).toEqual([rows[1], rows[0]]);
  });

  it('a row that does not parse fails naming the file and line, instead of being dropped', () => {
    const broken = OLD_LAYOUT.replace('| 24/24 |', '| all |');
    expect(() => parseTable(broken, 'probes/support.md')).toThrow(/probes\/support\.md:7: not a row/);
  });

  it('no table (a missing file) reads as no rows; the README keeps what is outside the markers', () => {
    expect(parseTable('', 'probes/support.md')).toEqual([]);
    const readme = `intro\n${SUPPORT_START}\nold\n${SUPPORT_END}\noutro\n`;
    expect(spliceReadme(readme, 'new\n')).toBe(`intro\n${SUPPORT_START}\nnew\n${SUPPORT_END}\noutro\n`);
    expect(spliceReadme('no markers', 'new\n')).toBe('no markers');
  });
});
