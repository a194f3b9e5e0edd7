export { REPORT_VERSION } from './types.ts';
export { jsonReporter, readReport, InvalidReportError } from './json.ts';
export { junitReporter, junitXml } from './junit.ts';
export { markdownReporter, markdownSummary } from './markdown.ts';
export { behaviourMatrix, matrixText, BEHAVIOUR_CLASSES } from './matrix.ts';
export { consoleReporter, caseLine, formatUsage } from './console.ts';
export { columnTitle, startupSummaryLine, startupTableMarkdown, startupTableText } from './startupTable.ts';

export type { CaseOutcome, CaseResult, CliStatus, RunFault, RunReport, RunSummary } from './types.ts';
export type { Reporter } from './reporter.ts';
