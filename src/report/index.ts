export { REPORT_VERSION } from './types.ts';
export { jsonReporter, readReport, InvalidReportError } from './json.ts';
export { junitReporter, junitXml } from './junit.ts';
export { markdownReporter, markdownSummary } from './markdown.ts';
export { behaviourMatrix, matrixText, BEHAVIOUR_CLASSES } from './matrix.ts';
export { consoleReporter, dotReporter, caseLine, formatUsage, summaryText } from './console.ts';
export { htmlReporter, htmlReport } from './html.ts';
export { githubReporter, githubAnnotations, workflowCommand } from './github.ts';
export { progressReporter, formatElapsed } from './progress.ts';
export { createReporter, createReporters, defaultReporterNames, REPORTER_NAMES, BUILTIN_REPORTERS, isBuiltinReporter } from './registry.ts';
export { diffReports, diffText } from './diff.ts';
export { columnTitle, startupSummaryLine, startupTableMarkdown, startupTableText } from './startupTable.ts';

export type { CaseOutcome, CaseResult, CliStatus, RunFault, RunReport, RunSummary } from './types.ts';
export type { Reporter } from './reporter.ts';
export type { BuiltinReporterName, ReporterContext } from './registry.ts';
export type { OutputOptions } from './output.ts';
export type { ProgressReporter, ProgressOptions } from './progress.ts';
export type { ReportDiff, CaseChange, CaseOnlyIn, DiffSide } from './diff.ts';
