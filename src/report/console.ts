/**
 * The console reporter: one line per case (outcome, verdict, expected, origin, route, id,
 * description), the summed token usage beneath when the verdict carries one, its problems indented
 * beneath, then a summary. Colours via picocolors (off when
 * the stream is not a TTY or NO_COLOR is set).
 */
import pc from 'picocolors';
import type { Reporter } from './reporter.ts';
import { startupSummaryLine } from './startupTable.ts';
import { behaviourMatrix, matrixText } from './matrix.ts';
import type { CaseResult, RunReport } from './types.ts';

const MARK: Record<CaseResult['outcome'], string> = {
  pass: pc.green('PASS '),
  fail: pc.red('FAIL '),
  error: pc.magenta('ERROR'),
  skip: pc.yellow('SKIP '),
};

/** One line (plus indented problem lines) for a case. */
export function caseLine(r: CaseResult): string {
  const verdict = r.verdict?.verdict ?? '(none)';
  const origin = r.verdict?.verdict === 'accepted' ? ` from ${r.verdict.origin}` : '';
  const expected = r.expected ? `expected ${r.expected.verdict}${r.expected.origin ? ` from ${r.expected.origin}` : ''}` : 'no expectation';
  const head = `${MARK[r.outcome]} ${verdict.padEnd(16)} ${pc.dim(`(${expected})`)}${origin ? pc.dim(origin) : ''}  ${r.route}  ${pc.dim(r.id)} ${r.description}`;
  const lines = [head];
  const usage = r.verdict?.usage;
  if (usage && Object.keys(usage).length > 0) lines.push(pc.dim(`        usage (all turns): ${formatUsage(usage)}`));
  // Envelope drift of a live probe (src/harness/drift.ts): shown whatever the outcome, never a failure.
  for (const d of r.drift ?? []) lines.push(pc.yellow(`        ${d}`));
  if (r.outcome !== 'pass') {
    for (const p of r.problems) lines.push(`        ${p}`);
    if (r.outcome === 'fail' || r.outcome === 'error') {
      for (const e of r.verdict?.evidence ?? []) lines.push(pc.dim(`        evidence: ${e}`));
      lines.push(pc.dim(`        replay: ${r.replay}`));
    }
  }
  return lines.join('\n');
}

/** Summed usage as `key value` pairs, non-zero ones only (all of them when every one is zero). */
export function formatUsage(usage: Record<string, number>): string {
  const entries = Object.entries(usage);
  const nonZero = entries.filter(([, v]) => v !== 0);
  return (nonZero.length > 0 ? nonZero : entries).map(([k, v]) => `${k} ${v}`).join(', ');
}

/** Prints to `write` (default: stdout) as results arrive, then the summary. */
export function consoleReporter(options: { write?: (text: string) => void; quiet?: boolean } = {}): Reporter {
  const write = options.write ?? ((t: string) => process.stdout.write(t));
  return {
    name: 'console',
    onRunStart(header) {
      for (const cli of header.clis) write(`${pc.dim('cli')} ${cli.name}: ${cli.installed ? `${cli.version ?? '?'} (${cli.bin})` : pc.yellow('not installed')}. ${cli.note}\n`);
    },
    onCaseResult(r) {
      if (options.quiet && r.outcome === 'pass' && !r.drift?.length) return;
      write(`${caseLine(r)}\n`);
    },
    onRunEnd(report: RunReport) {
      for (const f of report.faults) write(`${pc.magenta('FAULT')} ${f.kind}${f.file ? ` ${f.file}` : ''}${f.where ? ` (${f.where})` : ''}: ${f.message}\n`);
      const matrix = matrixText(behaviourMatrix(report.cases));
      if (matrix !== '') write(`\nroute x behaviour class (passed/cases):\n${matrix}\n`);
      const s = report.summary;
      const verdicts = Object.entries(s.byVerdict).map(([v, n]) => `${v} ${n}`).join(', ');
      write(`\n${s.total} cases: ${pc.green(`${s.pass} passed`)}, ${s.fail ? pc.red(`${s.fail} failed`) : '0 failed'}, ${s.error ? pc.magenta(`${s.error} errored`) : '0 errored'}, ${s.skip} skipped; ${s.faults} run faults\n`);
      if (verdicts) write(`verdicts: ${verdicts}\n`);
      if (report.startupProbes && report.startupProbes.summary.cells > 0) write(`startup probes: ${startupSummaryLine(report.startupProbes)} Table: summary.md or \`routecert probe --startup-table\`\n`);
    },
  };
}
