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
import { certificateCounts, certificates } from './certificates.ts';
import type { CaseResult, RunReport } from './types.ts';

const MARK: Record<CaseResult['outcome'], string> = {
  pass: pc.green('PASS '),
  fail: pc.red('FAIL '),
  error: pc.magenta('ERROR'),
  skip: pc.yellow('SKIP '),
};

/**
 * One line (plus indented problem lines) for a case; a passing case's problems print as
 * `warning:` lines. `verbose` adds the evidence and the replay command of passing cases too.
 */
export function caseLine(r: CaseResult, verbose = false): string {
  const verdict = r.verdict?.verdict ?? '(none)';
  const origin = r.verdict?.verdict === 'accepted' ? ` from ${r.verdict.origin}` : '';
  const expected = r.expected ? `expected ${r.expected.verdict}${r.expected.origin ? ` from ${r.expected.origin}` : ''}` : 'no expectation';
  const head = `${MARK[r.outcome]} ${verdict.padEnd(16)} ${pc.dim(`(${expected})`)}${origin ? pc.dim(origin) : ''}  ${r.route}  ${pc.dim(r.id)} ${r.description}`;
  const lines = [head];
  const usage = r.verdict?.usage;
  if (usage && Object.keys(usage).length > 0) lines.push(pc.dim(`        usage (all turns): ${formatUsage(usage)}`));
  // Envelope drift of a live probe (src/harness/drift.ts): shown whatever the outcome, never a failure.
  for (const d of r.drift ?? []) lines.push(pc.yellow(`        ${d}`));
  // A passing case's problems are warnings (a stale content-hash id, attempts never reached): shown
  // in every console reporter, since nothing else would tell the user before the id drifts further.
  if (r.outcome === 'pass') for (const p of r.problems) lines.push(pc.yellow(`        warning: ${p}`));
  if (r.outcome !== 'pass' || verbose) {
    if (r.outcome !== 'pass') for (const p of r.problems) lines.push(`        ${p}`);
    if (r.outcome === 'fail' || r.outcome === 'error' || verbose) {
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

/** The closing lines of a run: run faults, the behaviour matrix, the counts, the startup-probe line. */
export function summaryText(report: RunReport): string {
  const out: string[] = [];
  for (const f of report.faults) out.push(`${pc.magenta('FAULT')} ${f.kind}${f.file ? ` ${f.file}` : ''}${f.where ? ` (${f.where})` : ''}: ${f.message}\n`);
  const matrix = matrixText(behaviourMatrix(report.cases));
  if (matrix !== '') out.push(`\nroute x behaviour class (passed/cases):\n${matrix}\n`);
  const certified = certificates(report.cases);
  if (certified.length > 0) {
    out.push('\nworker certificates:\n');
    for (const c of certified) {
      const status = c.status === 'certified' ? pc.green(c.status) : c.status === 'not certified' || c.status === 'adapter broken' ? pc.red(c.status) : pc.yellow(c.status);
      out.push(`  ${c.route}: ${status}, ${certificateCounts(c)}${c.failing.length ? `; not passed: ${c.failing.map((f) => f.id).join(', ')}` : ''}\n`);
    }
  }
  const s = report.summary;
  const verdicts = Object.entries(s.byVerdict).map(([v, n]) => `${v} ${n}`).join(', ');
  const shard = report.header.shard ? ` (shard ${report.header.shard.index}/${report.header.shard.count})` : '';
  out.push(`\n${s.total} cases${shard}: ${pc.green(`${s.pass} passed`)}, ${s.fail ? pc.red(`${s.fail} failed`) : '0 failed'}, ${s.error ? pc.magenta(`${s.error} errored`) : '0 errored'}, ${s.skip} skipped; ${s.faults} run faults\n`);
  if (verdicts) out.push(`verdicts: ${verdicts}\n`);
  const warned = report.cases.filter((c) => c.outcome === 'pass' && c.problems.length > 0);
  if (warned.length > 0) out.push(pc.yellow(`${warned.length} passing case${warned.length === 1 ? '' : 's'} with warnings (${warned.slice(0, 3).map((c) => `${c.id} ${c.file}`).join(', ')}${warned.length > 3 ? ', ...' : ''}): ${warned[0]!.problems[0]}\n`));
  for (const v of report.versions ?? []) out.push(`${v.cli} ${v.version ?? '?'} against ${v.corpus} (recorded ${v.recorded.join(', ') || 'none'}): ${v.result}\n`);
  if (report.startupProbes && report.startupProbes.summary.cells > 0) {
    // A team's run probes only its config's schemas: the table again is `probe --startup --config`, not the canary table.
    const configOnly = report.startupProbes.rows.every((r) => r.kind === 'production' && r.format !== null);
    const again = configOnly ? 'routecert probe --startup --config <your config>' : 'routecert probe --startup-table';
    out.push(`startup probes: ${startupSummaryLine(report.startupProbes)} Table: summary.md or \`${again}\`\n`);
  }
  // A schema that was never sent to a CLI must not read as one that passed its startup probe.
  for (const c of report.startupProbes?.columns.filter((x) => !x.installed) ?? []) out.push(pc.yellow(`startup probes of ${c.cli}: ${c.note}\n`));
  return out.join('');
}

/**
 * Options of the console reporters: `write` (default: stdout), `quiet` (only cases that do not
 * pass, and those with drift or warnings), `verbose` (evidence of every case).
 */
export interface ConsoleReporterOptions {
  write?: (text: string) => void;
  quiet?: boolean;
  verbose?: boolean;
}

/** `default` (and `verbose`): prints to `write` as results arrive, then the summary. */
export function consoleReporter(options: ConsoleReporterOptions = {}): Reporter {
  const write = options.write ?? ((t: string) => process.stdout.write(t));
  return {
    name: options.verbose ? 'verbose' : 'default',
    onRunStart(header) {
      for (const cli of header.clis) write(`${pc.dim('cli')} ${cli.name}: ${cli.installed ? `${cli.version ?? '?'} (${cli.bin})` : pc.yellow('not installed')}. ${cli.note}\n`);
    },
    onCaseResult(r) {
      if (options.quiet && r.outcome === 'pass' && !r.drift?.length && r.problems.length === 0) return;
      write(`${caseLine(r, options.verbose ?? false)}\n`);
    },
    onRunEnd(report: RunReport) {
      write(summaryText(report));
    },
  };
}

const DOT: Record<CaseResult['outcome'], string> = { pass: pc.green('.'), fail: pc.red('F'), error: pc.magenta('E'), skip: pc.yellow('s') };

/** `dot`: one character per result (`.` pass, `F` fail, `E` error, `s` skip), 80 a line; then the cases that did not pass, and the summary. */
export function dotReporter(options: { write?: (text: string) => void } = {}): Reporter {
  const write = options.write ?? ((t: string) => process.stdout.write(t));
  let column = 0;
  return {
    name: 'dot',
    onCaseResult(r) {
      write(DOT[r.outcome]);
      column += 1;
      if (column === 80) {
        write('\n');
        column = 0;
      }
    },
    onRunEnd(report) {
      if (column > 0) write('\n');
      const bad = report.cases.filter((c) => c.outcome === 'fail' || c.outcome === 'error');
      if (bad.length > 0) write(`\n${bad.map((c) => caseLine(c)).join('\n')}\n`);
      write(summaryText(report));
    },
  };
}
