/**
 * `summary.md`: the run for people: counts, the route x verdict matrix (one row per route and contract), and every case that did not
 * pass with its evidence and replay command. The `github` reporter appends it to `$GITHUB_STEP_SUMMARY`.
 */
import { VERDICTS } from '#src/verdicts.ts';
import type { Reporter } from './reporter.ts';
import { writeOutput, type OutputOptions } from './output.ts';
import { behaviourMatrix } from './matrix.ts';
import { certificateCounts, certificates } from './certificates.ts';
import { startupTableMarkdown } from './startupTable.ts';
import type { RunReport } from './types.ts';
import { pushAll } from '#src/arrays.ts';

/** Escape a table cell: pipes and newlines. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** The Markdown text for a report. */
export function markdownSummary(report: RunReport): string {
  const s = report.summary;
  const lines: string[] = [];
  lines.push(`# routecert run`, '');
  lines.push(`${s.total} cases: **${s.pass} passed**, ${s.fail} failed, ${s.error} errored, ${s.skip} skipped; ${s.faults} run faults. Exit code ${report.footer.exitCode}.`, '');
  for (const cli of report.header.clis) lines.push(`- ${cli.name}: ${cli.installed ? `installed, ${cli.version ?? 'version unknown'}` : 'not installed'}. ${cli.note}`);
  if (report.header.clis.length > 0) lines.push('');
  // One row per route and contract: a route judged by several contracts gets one row for each.
  const rows = [...new Set(report.cases.map((c) => `${c.route}\u0000${c.contract}`))].sort().map((k) => k.split('\u0000') as [string, string]);
  const used = VERDICTS.filter((v) => report.cases.some((c) => c.verdict?.verdict === v));
  if (rows.length > 0) {
    lines.push('## Route x verdict', '');
    lines.push(`| route | contract | ${used.join(' | ')} | pass / total |`);
    lines.push(`|---|---|${used.map(() => '---:').join('|')}|---:|`);
    for (const [route, contract] of rows) {
      const cases = report.cases.filter((c) => c.route === route && c.contract === contract);
      const counts = used.map((v) => String(cases.filter((c) => c.verdict?.verdict === v).length));
      lines.push(`| ${cell(route)} | ${cell(contract)} | ${counts.join(' | ')} | ${cases.filter((c) => c.outcome === 'pass').length} / ${cases.length} |`);
    }
    lines.push('');
  }
  if (report.startupProbes) lines.push(startupTableMarkdown(report.startupProbes));
  if (report.versions?.length) {
    // Each probed CLI version against the recorded corpus (src/harness/drift.ts versionResult).
    lines.push('## CLI versions against the corpus', '', '| CLI | version | recorded | result |', '| --- | --- | --- | --- |');
    for (const v of report.versions) lines.push(`| ${v.cli} | ${v.version ?? '?'} | ${v.recorded.join(', ') || 'none'} | ${cell(v.result)} |`);
    lines.push('');
  }
  const certified = certificates(report.cases);
  if (certified.length > 0) {
    lines.push('## Worker certificates', '', '| worker route | status | counts | not passed |', '| --- | --- | --- | --- |');
    for (const c of certified) lines.push(`| ${cell(c.route)} | ${c.status} | ${cell(certificateCounts(c))} | ${cell(c.failing.map((f) => f.id).join(', '))} |`);
    lines.push('');
  }
  const matrix = behaviourMatrix(report.cases);
  if (matrix.routes.length > 0) {
    lines.push('## Route x behaviour class (passed / cases)', '');
    lines.push(`| route | ${matrix.classes.join(' | ')} |`);
    lines.push(`|---|${matrix.classes.map(() => '---:').join('|')}|`);
    for (const route of matrix.routes) {
      const cells = matrix.classes.map((b) => {
        const c = matrix.cell(route, b);
        return c.total === 0 ? '' : `${c.pass}/${c.total}`;
      });
      lines.push(`| ${cell(route)} | ${cells.join(' | ')} |`);
    }
    lines.push('');
  }
  const bad = report.cases.filter((c) => c.outcome === 'fail' || c.outcome === 'error');
  if (bad.length > 0) {
    lines.push('## Not passing', '');
    for (const c of bad) {
      lines.push(`### ${c.outcome.toUpperCase()} ${c.id} ${cell(c.description)}`, '');
      lines.push(`- route \`${c.route}\`, contract \`${c.contract}\`, file \`${c.file}\``);
      lines.push(`- expected \`${c.expected?.verdict ?? '(none)'}\`${c.expected?.origin ? ` from \`${c.expected.origin}\`` : ''}, got \`${c.verdict?.verdict ?? '(none)'}\``);
      for (const p of c.problems) lines.push(`- ${cell(p)}`);
      for (const e of c.verdict?.evidence ?? []) lines.push(`- evidence: \`${cell(e)}\``);
      lines.push(`- replay: \`${c.replay}\``, '');
    }
  }
  const drift = report.cases.flatMap((c) => (c.drift ?? []).map((d) => `- ${cell(d)} (\`${c.id}\`)`));
  if (drift.length > 0) {
    // Envelope drift of live probes (src/harness/drift.ts): the CLI changed shape since recording; not a failure.
    pushAll(lines, ['## Envelope drift', '', ...drift, '']);
  }
  if (report.faults.length > 0) {
    lines.push('## Run faults', '');
    for (const f of report.faults) lines.push(`- ${f.kind}${f.file ? ` \`${f.file}\`` : ''}${f.where ? ` at ${f.where}` : ''}: ${cell(f.message)}`);
    lines.push('');
  }
  return markdownSafe(`${lines.join('\n')}\n`);
}

/**
 * `text` with every control character but newline and tab shown as `\xHH` (C0 including a lone
 * `\r`, DEL, C1), as the console shows them (src/diagnostics/terminal.ts): a case description or
 * evidence holding `\r`, an OSC or a CSI sequence is quoted, never sent raw to whoever `cat`s
 * summary.md or renders the GitHub step summary (issue 23).
 */
function markdownSafe(text: string): string {
  // eslint-disable-next-line no-control-regex -- exactly the control characters are replaced
  return text.replace(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** Writes `<dir>/summary.md` (or `file`). The GitHub step summary is the `github` reporter's (src/report/github.ts). */
export function markdownReporter(options: OutputOptions): Reporter {
  return {
    name: 'markdown',
    rewrites: true,
    async onRunEnd(report) {
      await writeOutput(options, 'summary.md', markdownSummary(report));
    },
  };
}
