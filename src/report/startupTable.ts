/**
 * The startup table for people: rows (production schemas, canaries, output formats) x CLI versions,
 * each cell `accepted` or `rejected` with the CLI's message, marked where it is a production route
 * (`profiles.json` sends the schema there) and where it contradicts the CLI's lint profile.
 * Markdown for summary.md, plain text for the console (`routecert probe --startup-table`).
 * Readers only: the verdicts were made by src/probe/startup.ts.
 */
import type { StartupCell, StartupColumn, StartupTable } from '#src/probe/startupTypes.ts';
import { pushAll } from '#src/arrays.ts';

/** A column's heading: `claude 2.1.332`. */
export function columnTitle(column: Pick<StartupColumn, 'cli' | 'version'>): string {
  return `${column.cli} ${column.version ?? '(version unknown)'}`;
}

/** One sentence with the counts. */
export function startupSummaryLine(table: StartupTable): string {
  const s = table.summary;
  return (
    `${s.cells} probes: ${s.accepted} accepted, ${s.rejected} rejected, ${s.faults} faults; ` +
    `${s.disagreements} disagree with the lint profile; ${s.listedRejected} production schemas rejected by a CLI they are sent to (profiles.json, or a config contract's clis).`
  );
}

function mdCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function code(text: string): string {
  return `\`${text.replace(/`/g, "'")}\``;
}

/** The marks after a cell's state: `sent here` for a listed production schema, the lint disagreement. */
function marks(cell: StartupCell): string[] {
  const out: string[] = [];
  if (cell.listed === true) out.push('sent here');
  if (cell.agrees === false) out.push(`DISAGREES with ${cell.profile ?? 'lint'}: expected ${cell.expected}${cell.because.length > 0 ? ` (${cell.because.join(', ')})` : ''}`);
  return out;
}

function installedColumns(table: StartupTable): StartupColumn[] {
  return table.columns.filter((c) => c.installed);
}

function cellOf(table: StartupTable, rowIndex: number, column: StartupColumn): StartupCell | undefined {
  return table.rows[rowIndex]!.cells.find((c) => c.cli === column.cli);
}

/**
 * The Markdown section (`## Startup probes`): the counts, one line per CLI not installed, then the
 * table with the CLI's message inline in each rejected cell.
 */
export function startupTableMarkdown(table: StartupTable): string {
  const lines: string[] = ['## Startup probes', ''];
  lines.push(`Does each installed CLI take the schema at startup? ${startupSummaryLine(table)}`, '');
  for (const c of table.columns.filter((col) => !col.installed)) lines.push(`- ${c.cli}: ${c.note}`);
  const columns = installedColumns(table);
  if (columns.length === 0 || table.rows.length === 0) {
    lines.push('No schema-flag CLI was probed.', '');
    return `${lines.join('\n')}\n`;
  }
  if (columns.length < table.columns.length) lines.push('');
  lines.push(`| schema or keyword | row | ${columns.map((c) => `${mdCell(columnTitle(c))}${c.profile ? ` (${c.profile})` : ''}`).join(' | ')} |`);
  lines.push(`|---|---|${columns.map(() => '---').join('|')}|`);
  table.rows.forEach((row, i) => {
    const cells = columns.map((col) => {
      const cell = cellOf(table, i, col);
      if (cell === undefined) return '';
      const state = cell.outcome === 'accepted' ? 'accepted' : `${cell.outcome}${cell.stage === 'provider' ? ' by the provider' : ''}: ${code(cell.message ?? '')}`;
      const extra = marks(cell);
      return mdCell(extra.length > 0 ? `${state} (${extra.join('; ')})` : state);
    });
    lines.push(`| ${mdCell(code(row.label))} | ${row.kind} | ${cells.join(' | ')} |`);
  });
  lines.push('', '"sent here": this production schema is sent to this CLI (profiles.json, or a config contract\'s clis). Canaries add one keyword to a baseline that every profile accepts.', '');
  return `${lines.join('\n')}\n`;
}

/**
 * The plain-text table: one line per row with a short state per CLI (`accepted`, `rejected [n]`,
 * `fault [n]`, `*` = sent here by profiles.json, `!` = disagrees with the lint profile), then the
 * numbered messages (each distinct message once) and the disagreements in full.
 */
export function startupTableText(table: StartupTable): string {
  const columns = installedColumns(table);
  const out: string[] = [];
  for (const c of table.columns.filter((col) => !col.installed)) out.push(`${c.cli}: ${c.note}`);
  if (columns.length === 0 || table.rows.length === 0) {
    out.push('No schema-flag CLI was probed.');
    return `${out.join('\n')}\n`;
  }
  const messages: string[] = [];
  const footnote = (cell: StartupCell): number => {
    const text = `${columnTitle(cell)}${cell.stage === 'provider' ? ' (provider)' : ''}: ${cell.message ?? ''}`;
    let n = messages.indexOf(text);
    if (n === -1) n = messages.push(text) - 1;
    return n + 1;
  };
  const header = ['schema or keyword', 'row', ...columns.map((c) => columnTitle(c))];
  const body = table.rows.map((row, i) => [
    row.label,
    row.kind,
    ...columns.map((col) => {
      const cell = cellOf(table, i, col);
      if (cell === undefined) return '-';
      const state = cell.outcome === 'accepted' ? 'accepted' : `${cell.outcome} [${footnote(cell)}]`;
      return `${state}${cell.listed === true ? ' *' : ''}${cell.agrees === false ? ' !' : ''}`;
    }),
  ]);
  const widths = header.map((h, k) => body.reduce((w, r) => Math.max(w, r[k]!.length), h.length));
  const line = (r: string[]) => r.map((v, k) => (k === r.length - 1 ? v : v.padEnd(widths[k]!))).join('  ');
  pushAll(out, [line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line), '']);
  messages.forEach((m, k) => out.push(`[${k + 1}] ${m}`));
  const disagreeing = table.rows.flatMap((row) => row.cells.filter((c) => c.agrees === false).map((c) => ({ row, c })));
  if (disagreeing.length > 0) {
    out.push('', 'Disagreements with the lint profiles:');
    for (const { row, c } of disagreeing) out.push(`! ${row.label} on ${columnTitle(c)}: ${c.outcome}, but ${c.profile ?? 'lint'} expects ${c.expected}${c.because.length > 0 ? ` (${c.because.join(', ')})` : ''}`);
  }
  out.push('', `* this production schema is sent to this CLI (profiles.json, or a config contract's clis); ! disagrees with the CLI's lint profile.`, startupSummaryLine(table));
  return `${out.join('\n')}\n`;
}
