/**
 * Report writers are plug-ins with optional async hooks (after vitest's Reporter,
 * packages/vitest/src/node/types/reporter.ts). They read results; they never make verdicts.
 */
import type { CaseResult, RunReport } from './types.ts';

/** A report writer. Every hook is optional. */
export interface Reporter {
  /** Name under which it is registered (`json`, `junit`, `markdown`, `console`). */
  name: string;
  onRunStart?(header: RunReport['header']): void | Promise<void>;
  onCaseResult?(result: CaseResult): void | Promise<void>;
  onRunEnd?(report: RunReport): void | Promise<void>;
}
