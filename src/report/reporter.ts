/**
 * Report writers are plug-ins with optional async hooks (after vitest's Reporter,
 * packages/vitest/src/node/types/reporter.ts). They read results; they never make verdicts.
 */
import type { CaseResult, RunReport } from './types.ts';

/**
 * A report writer. Every hook is optional; hooks are awaited in the order the reporters were given.
 *
 * - `onRunStart(header)`: once, before any case;
 * - `onPlanned(source, count)`: a source (`corpus`, or `live-<n>` for the hermetic probes, the
 *   startup table, the certification) says how many results it is about to emit (for progress);
 * - `onCaseResult(result)`: each result as it arrives (corpus cases first, then live results);
 * - `onRunEnd(report)`: once, with the whole report (what report.json holds).
 *
 * @example
 * // routecert.config.ts: a reporter of one's own beside the built-in ones
 * export default defineConfig({ ..., reporters: ['default', { name: 'count', onRunEnd: (r) => console.log(r.summary.total) }] });
 */
/**
 * What a long phase is doing: `phase` (e.g. `startup probes`, `certification`), `done` of `total`
 * steps (`total` null when unknown), and `running`: what runs now (e.g. `claude 2.1.332 pov.schema.json`).
 */
export interface Activity {
  phase: string;
  done: number;
  total: number | null;
  running?: string;
}

export interface Reporter {
  /** Name under which it is registered (`default`, `json`, `junit`, `markdown`, `html`, `github`, ...). */
  name: string;
  onRunStart?(header: RunReport['header']): void | Promise<void>;
  onPlanned?(source: string, count: number): void | Promise<void>;
  /** A long phase that emits few results (startup probes, certification) says what runs and how far it is (for progress). */
  onActivity?(activity: Activity): void;
  onCaseResult?(result: CaseResult): void | Promise<void>;
  onRunEnd?(report: RunReport): void | Promise<void>;
  /**
   * Its `onRunEnd` writes whole files from the report it is handed, replacing what it wrote before
   * (json, junit, markdown, html): it is called after the reporters without this flag, so their
   * faults are in its files, and called again when a reporter after it fails.
   */
  rewrites?: boolean;
}
