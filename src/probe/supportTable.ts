/**
 * The support table that `npm run probes:matrix` writes (probes/support.md, and README.md between
 * the `probes:matrix` markers): one row per probed CLI release. A run for some CLIs keeps the rows
 * of the CLIs it did not probe (issue 12), so the table is read back, merged and written again.
 */
import { compareVersions } from './versions.ts';

/**
 * One row: the CLI, the version probed, probes passed of those run, the result against the corpus
 * (`same`, `drifted (...)`, `breaks: ...`, `broken`), whether the version was inside the driver's
 * range when probed, a note (faults, first failures), and `probed`: the run's date (`YYYY-MM-DD`)
 * and, when the run was not the whole plan, its plans (`2026-12-01, plans final, stall`).
 */
export interface SupportRow {
  cli: string;
  version: string;
  passed: number;
  probes: number;
  result: string;
  inRange: boolean;
  note: string;
  probed: string;
}

/** The marker around the table in README.md. */
export const SUPPORT_START = '<!-- probes:matrix:start -->';
export const SUPPORT_END = '<!-- probes:matrix:end -->';

const HEADER = '| CLI | supported range | version | probes passed | against the corpus | probed | note |';

/** Rows sorted by CLI name, then version (numerically: 0.9.0 before 0.10.0). */
export function sortRows(rows: readonly SupportRow[]): SupportRow[] {
  return [...rows].sort((a, b) => a.cli.localeCompare(b.cli, 'en') || compareVersions(a.version, b.version));
}

/**
 * The rows of `previous` whose CLI this run did not probe (`probedClis`), plus this run's `rows`,
 * sorted ({@link sortRows}). A CLI this run probed loses all its previous rows (its range may have
 * moved), even a version this run did not repeat.
 */
export function mergeRows(previous: readonly SupportRow[], rows: readonly SupportRow[], probedClis: ReadonlySet<string>): SupportRow[] {
  return sortRows([...previous.filter((r) => !probedClis.has(r.cli)), ...rows]);
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/**
 * The table as Markdown (a line of text, a blank line, the table; ends with a newline).
 * `rangeOf(cli)` gives the supported range column (`1.0.81 to newest`) from the driver as it is now.
 */
export function renderTable(rows: readonly SupportRow[], rangeOf: (cli: string) => string): string {
  const lines = [
    'Support table (`npm run probes:matrix`, the whole plan unless `probed` names plans; result against fixtures/cases):',
    '',
    HEADER,
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of sortRows(rows)) {
    lines.push(`| ${r.cli} | ${rangeOf(r.cli)} | ${r.version}${r.inRange ? '' : ' (outside)'} | ${r.passed}/${r.probes} | ${cell(r.result)} | ${cell(r.probed)} | ${cell(r.note)} |`);
  }
  return `${lines.join('\n')}\n`;
}

/** Split a Markdown table line into cells, honouring `\|` escapes. */
function cells(line: string): string[] {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  const out: string[] = [];
  let current = '';
  for (let i = 0; i < inner.length; i += 1) {
    const c = inner[i];
    if (c === '\\' && inner[i + 1] === '|') {
      current += '|';
      i += 1;
    } else if (c === '|') {
      out.push(current.trim());
      current = '';
    } else current += c;
  }
  out.push(current.trim());
  return out;
}

/**
 * The rows of a support table written by {@link renderTable}, or by the older layout without the
 * `probed` column (its rows get `probed` from the `YYYY-MM-DD` of the line above the table, with
 * `, plans ...` when that line named plans). Lines that are not rows of the table are ignored;
 * a row that does not parse throws, naming `file` and its line number (a hand-edited table is
 * never silently dropped).
 */
export function parseTable(text: string, file: string): SupportRow[] {
  const lines = text.split('\n');
  const headerAt = lines.findIndex((l) => l.startsWith('| CLI | supported range |'));
  if (headerAt < 0) return [];
  const header = cells(lines[headerAt]!);
  const hasProbed = header.includes('probed');
  const intro = lines.slice(0, headerAt).reverse().find((l) => l.startsWith('Support table')) ?? '';
  const introDate = /\d{4}-\d{2}-\d{2}/.exec(intro)?.[0] ?? 'unknown date';
  const introPlans = /, plans ([^;]+);/.exec(intro)?.[1];
  const fallbackProbed = introPlans ? `${introDate}, plans ${introPlans}` : introDate;
  const rows: SupportRow[] = [];
  for (let i = headerAt + 2; i < lines.length; i += 1) {
    const line = lines[i]!;
    if (!line.startsWith('|')) break;
    const c = cells(line);
    const [cli, , versionCell, passedCell, result] = c;
    const probed = hasProbed ? c[5] : fallbackProbed;
    const note = hasProbed ? c[6] : c[5];
    const passed = /^(\d+)\/(\d+)$/.exec(passedCell ?? '');
    const version = /^(\S+)( \(outside\))?$/.exec(versionCell ?? '');
    if (!cli || !version || !passed || result === undefined || probed === undefined || note === undefined) {
      throw new Error(`[routecert] ${file}:${i + 1}: not a row of the support table: ${line}`);
    }
    rows.push({ cli, version: version[1]!, passed: Number(passed[1]), probes: Number(passed[2]), result, inRange: version[2] === undefined, note, probed });
  }
  return rows;
}

/** `readme` with the text between the markers replaced by `table`; unchanged when a marker is missing. */
export function spliceReadme(readme: string, table: string): string {
  const at = readme.indexOf(SUPPORT_START);
  const end = readme.indexOf(SUPPORT_END);
  if (at < 0 || end <= at) return readme;
  return `${readme.slice(0, at + SUPPORT_START.length)}\n${table}${readme.slice(end)}`;
}
