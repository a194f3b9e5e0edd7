/**
 * `junit.xml`: one `<testsuite>` per route, one `<testcase>` per case. A conformance failure is a
 * `<failure>`; a case that could not be judged (bad case file, probe fault, crash) is an `<error>`;
 * a known bug is `<skipped>`. XML is built with fast-xml-parser's XMLBuilder (escaping included).
 */
import { XMLBuilder } from 'fast-xml-parser';
import type { Reporter } from './reporter.ts';
import { writeOutput, type OutputOptions } from './output.ts';
import type { CaseResult, RunReport } from './types.ts';

/** The JUnit XML text for a report. */
export function junitXml(report: RunReport): string {
  const byRoute = new Map<string, CaseResult[]>();
  for (const c of report.cases) {
    const list = byRoute.get(c.route) ?? [];
    list.push(c);
    byRoute.set(c.route, list);
  }
  const suites = [...byRoute.entries()].map(([route, cases]) => ({
    '@_name': route,
    '@_tests': cases.length,
    '@_failures': cases.filter((c) => c.outcome === 'fail').length,
    '@_errors': cases.filter((c) => c.outcome === 'error').length,
    '@_skipped': cases.filter((c) => c.outcome === 'skip').length,
    '@_time': seconds(cases.reduce((s, c) => s + c.durationMs, 0)),
    testcase: cases.map((c) => testcase(c)),
  }));
  if (report.faults.length > 0) {
    suites.push({
      '@_name': 'routecert',
      '@_tests': report.faults.length,
      '@_failures': 0,
      '@_errors': report.faults.length,
      '@_skipped': 0,
      '@_time': seconds(0),
      testcase: report.faults.map((f, i) => ({
        '@_name': `${f.kind} ${f.file ?? i}${f.where ? ` ${f.where}` : ''}`,
        '@_classname': `routecert.${f.kind}`,
        '@_time': seconds(0),
        error: { '@_message': f.message, '@_type': f.kind, '#text': f.message },
      })),
    } as never);
  }
  const builder = new XMLBuilder({ ignoreAttributes: false, format: true, suppressEmptyNode: true });
  const body = builder.build({
    testsuites: {
      '@_name': 'routecert',
      '@_tests': report.summary.total + report.faults.length,
      '@_failures': report.summary.fail,
      '@_errors': report.summary.error + report.faults.length,
      '@_skipped': report.summary.skip,
      '@_time': seconds(report.footer.durationMs),
      testsuite: suites,
    },
  }) as string;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
}

function testcase(c: CaseResult): Record<string, unknown> {
  const base: Record<string, unknown> = {
    '@_name': `${c.id} ${c.description}`,
    '@_classname': `${c.route}.${c.contract}`,
    '@_time': seconds(c.durationMs),
  };
  const details = [
    `expected: ${c.expected?.verdict ?? '(none)'}${c.expected?.origin ? ` from ${c.expected.origin}` : ''}`,
    `actual: ${c.verdict?.verdict ?? '(none)'}`,
    ...c.problems,
    ...(c.verdict?.evidence ?? []).map((e) => `evidence: ${e}`),
    `replay: ${c.replay}`,
  ].join('\n');
  if (c.outcome === 'fail') base.failure = { '@_message': c.problems[0] ?? 'verdict mismatch', '@_type': 'conformance', '#text': details };
  if (c.outcome === 'error') base.error = { '@_message': c.problems[0] ?? 'error', '@_type': c.caught ?? 'routecert', '#text': details };
  if (c.outcome === 'skip') base.skipped = { '@_message': c.problems[0] ?? 'skipped' };
  return base;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** Writes `<dir>/junit.xml` (or `file`) at the end of the run. */
export function junitReporter(options: OutputOptions): Reporter {
  return {
    name: 'junit',
    async onRunEnd(report) {
      await writeOutput(options, 'junit.xml', junitXml(report));
    },
  };
}
