export { jsonReporter } from './json.ts';
export { junitReporter, junitXml } from './junit.ts';
export { markdownReporter, markdownSummary } from './markdown.ts';
export { consoleReporter, dotReporter } from './console.ts';
export { htmlReporter, htmlReport } from './html.ts';
export { githubReporter, githubAnnotations } from './github.ts';
export { progressReporter } from './progress.ts';
export { createReporter, createReporters, defaultReporterNames } from './registry.ts';
export { REPORTER_NAMES } from './names.ts';

export type { Reporter } from './reporter.ts';
export type { BuiltinReporterName, ReporterContext } from './registry.ts';
export type { OutputOptions } from './output.ts';
export type { ProgressReporter } from './progress.ts';
export type { ReportDiff, CaseChange } from './diff.ts';
