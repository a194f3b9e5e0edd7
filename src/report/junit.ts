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
  const body = builder.build(clean({
    testsuites: {
      '@_name': 'routecert',
      '@_tests': report.summary.total + report.faults.length,
      '@_failures': report.summary.fail,
      '@_errors': report.summary.error + report.faults.length,
      // No `skipped` here: the Jenkins JUnit XSD (schemas/junit.xsd) allows it on <testsuite> only.
      '@_time': seconds(report.footer.durationMs),
      testsuite: suites,
    },
  })) as string;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
}

/** Every string in `value`, deep, through {@link xmlText}. */
function clean<T>(value: T): T {
  if (typeof value === 'string') return xmlText(value) as T;
  if (Array.isArray(value)) return value.map(clean) as T;
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clean(v)])) as T;
  return value;
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

/**
 * Text as XML 1.0 allows it: control characters other than tab, LF and CR, lone surrogates and
 * U+FFFE/U+FFFF (XML 1.0 section 2.2 `Char`) become U+FFFD; an envelope may hold any of them.
 */
function xmlText(text: string): string {
  // eslint-disable-next-line no-control-regex -- XML 1.0 forbids exactly these characters
  return text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** Writes `<dir>/junit.xml` (or `file`) at the end of the run. */
export function junitReporter(options: OutputOptions): Reporter {
  return {
    name: 'junit',
    rewrites: true,
    async onRunEnd(report) {
      await writeOutput(options, 'junit.xml', junitXml(report));
    },
  };
}
