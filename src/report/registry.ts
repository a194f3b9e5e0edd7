/**
 * The built-in reporters by name (`--reporter <name>`, or a name in a config's `reporters`), as
 * vitest's ReportersMap (packages/vitest/src/node/reporters/index.ts). A config may also list
 * {@link Reporter} objects of its own.
 */
import { consoleReporter, dotReporter } from './console.ts';
import { githubReporter } from './github.ts';
import { htmlReporter } from './html.ts';
import { jsonReporter } from './json.ts';
import { junitReporter } from './junit.ts';
import { markdownReporter } from './markdown.ts';
import type { Reporter } from './reporter.ts';

import { FILE_REPORTERS, type BuiltinReporterName } from './names.ts';

export { FILE_REPORTERS, type BuiltinReporterName };

/** The reporters a plain `routecert run` uses: the console, report.json, junit.xml, summary.md, report.html, and `github` on GitHub Actions. */
export function defaultReporterNames(env: NodeJS.ProcessEnv = process.env): BuiltinReporterName[] {
  return ['default', 'json', 'junit', 'markdown', 'html', ...(env.GITHUB_ACTIONS === 'true' ? (['github'] as const) : [])];
}

/**
 * What the built-in reporters write to: `dir` the run folder; `files` a file per reporter name
 * (`--output-file junit=ci/junit.xml`); `write` the console; `quiet` for `default`.
 */
export interface ReporterContext {
  dir: string;
  files?: Partial<Record<BuiltinReporterName, string>>;
  write?: (text: string) => void;
  quiet?: boolean;
}

/** Make the built-in reporter `name`. */
export function createReporter(name: BuiltinReporterName, context: ReporterContext): Reporter {
  const file = context.files?.[name];
  const output = file ? { file } : { dir: context.dir };
  const write = context.write ? { write: context.write } : {};
  switch (name) {
    case 'default':
      return consoleReporter({ ...write, quiet: context.quiet ?? false });
    case 'verbose':
      return consoleReporter({ ...write, verbose: true });
    case 'dot':
      return dotReporter(write);
    case 'json':
      return jsonReporter(output);
    case 'junit':
      return junitReporter(output);
    case 'markdown':
      return markdownReporter(output);
    case 'html':
      return htmlReporter(output);
    case 'github':
      return githubReporter(write);
  }
}

/** Make every reporter of a list that mixes built-in names and reporter objects. */
export function createReporters(list: readonly (BuiltinReporterName | Reporter)[], context: ReporterContext): Reporter[] {
  return list.map((r) => (typeof r === 'string' ? createReporter(r, context) : r));
}
