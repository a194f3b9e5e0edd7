/**
 * `github`: GitHub Actions workflow commands. One `::error file=<case file>,title=<case id>::<problem>`
 * per case that failed or errored (expected, got, evidence and the replay command on the lines
 * after the problem), one `::error` per run fault, one `::warning` per envelope drift line; and the
 * run's Markdown summary appended to `$GITHUB_STEP_SUMMARY` when that names a file. `routecert run`
 * adds it to the default reporters when `GITHUB_ACTIONS=true`, as vitest adds its
 * `github-actions` reporter.
 *
 * Escaping follows the runner's rules (actions/toolkit packages/core/src/command.ts): in the
 * message `%`, CR and LF become `%25`, `%0D`, `%0A`; in properties `:` and `,` also become `%3A`, `%2C`.
 */
import { appendFile } from 'node:fs/promises';
import { redactOutput } from '#src/diagnostics/redact.ts';
import type { Reporter } from './reporter.ts';
import { markdownSummary } from './markdown.ts';
import type { CaseResult, RunFault, RunReport } from './types.ts';

function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** One workflow command: `::<command> k=v,...::<message>`. Properties with an empty value are left out. */
export function workflowCommand(command: 'error' | 'warning' | 'notice', properties: Record<string, string | number | undefined>, message: string): string {
  const props = Object.entries(properties)
    .filter((e): e is [string, string | number] => e[1] !== undefined && e[1] !== '')
    .map(([k, v]) => `${k}=${escapeProperty(String(v))}`)
    .join(',');
  return `::${command}${props ? ` ${props}` : ''}::${escapeData(message)}`;
}

/** The case file as an annotation wants it (a path in the repository), or undefined for a live result. */
function annotationFile(c: Pick<CaseResult, 'file'>): string | undefined {
  return c.file && !c.file.startsWith('(') ? c.file : undefined;
}

function caseMessage(c: CaseResult): string {
  const lines = [
    c.problems[0] ?? `${c.outcome}`,
    `expected ${c.expected?.verdict ?? '(none)'}${c.expected?.origin ? ` from ${c.expected.origin}` : ''}, got ${c.verdict?.verdict ?? '(none)'}${c.verdict?.verdict === 'accepted' ? ` from ${c.verdict.origin}` : ''} (${c.route}, contract ${c.contract})`,
    ...c.problems.slice(1),
    ...(c.verdict?.evidence ?? []).map((e) => `evidence: ${e}`),
    `replay: ${c.replay}`,
  ];
  return lines.join('\n');
}

function faultLine(f: RunFault): string {
  const line = f.where ? /line (\d+)/.exec(f.where)?.[1] : undefined;
  return workflowCommand('error', { file: f.file, line, title: `routecert ${f.kind}` }, f.message);
}

/** The workflow commands for a report, one per line. */
export function githubAnnotations(report: RunReport): string[] {
  const out: string[] = [];
  for (const c of report.cases) {
    if (c.outcome === 'fail' || c.outcome === 'error') out.push(workflowCommand('error', { file: annotationFile(c), title: c.id }, caseMessage(c)));
    for (const d of c.drift ?? []) out.push(workflowCommand('warning', { file: annotationFile(c), title: `${c.id} envelope drift` }, d));
  }
  for (const f of report.faults) out.push(faultLine(f));
  return out;
}

/**
 * Options: `write` (default stdout), `stepSummary` (default `$GITHUB_STEP_SUMMARY`; the file the
 * Markdown summary is appended to).
 */
export function githubReporter(options: { write?: (text: string) => void; stepSummary?: string | undefined } = {}): Reporter {
  const write = options.write ?? ((t: string) => process.stdout.write(t));
  const stepSummary = 'stepSummary' in options ? options.stepSummary : process.env.GITHUB_STEP_SUMMARY;
  return {
    name: 'github',
    async onRunEnd(report) {
      const lines = githubAnnotations(report);
      if (lines.length > 0) write(`${lines.join('\n')}\n`);
      if (stepSummary) await appendFile(stepSummary, redactOutput(markdownSummary(report)), 'utf8');
    },
  };
}
