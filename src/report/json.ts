/**
 * `report.json`: the run, versioned (schemas/report.schema.json). src/harness/readReport.ts reads
 * one back.
 */
import type { Reporter } from './reporter.ts';
import { writeJsonOutput, type OutputOptions } from './output.ts';

/**
 * Writes `<dir>/report.json` (or `file`) at the end of the run: iteratively and redacted
 * (src/report/bound.ts), so no answer's depth or size can stop it.
 */
export function jsonReporter(options: OutputOptions): Reporter {
  return {
    name: 'json',
    rewrites: true,
    async onRunEnd(report) {
      await writeJsonOutput(options, 'report.json', report);
    },
  };
}
