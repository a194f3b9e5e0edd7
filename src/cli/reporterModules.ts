/**
 * `--reporter <name or module path>`, as vitest has it: a value that is not a built-in reporter name
 * and looks like a path (`./slack-reporter.mjs`, `/abs/reporter.ts`, `reporters/x.js`) is a module
 * whose default export is a {@link Reporter} object, a class of one, or a function returning one.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { InvalidArgumentError } from 'commander';
import { importConfigFile } from '#src/harness/certify/configFile.ts';
import { isPlainObject } from '#src/envelope/keys.ts';
import { describeThrown } from '#src/diagnostics/thrown.ts';
import { isBuiltinReporter, REPORTER_NAMES, type BuiltinReporterName } from '#src/report/names.ts';
import type { Reporter } from '#src/report/reporter.ts';
import { didYouMean } from '#src/diagnostics/didYouMean.ts';
import { UsageError } from './options.ts';

/** Does `value` name a module rather than a built-in reporter? */
export function isReporterPath(value: string): boolean {
  return /[/\\]/.test(value) || /\.(?:[cm]?[jt]s)$/.test(value);
}

/** A commander argument parser for a repeatable `--reporter <name|path>` (comma-separated lists allowed). */
export function reporterOrPathOption(value: string, previous: string[] = []): string[] {
  const names = value.split(',').map((v) => v.trim()).filter(Boolean);
  for (const n of names) {
    if (!isBuiltinReporter(n) && !isReporterPath(n)) {
      const close = didYouMean(n, REPORTER_NAMES);
      throw new InvalidArgumentError(`Unknown reporter "${n}"${close.length ? `; did you mean ${close.map((c) => `"${c}"`).join(' or ')}?` : '.'} Reporters: ${REPORTER_NAMES.join(', ')}, or a module path (./my-reporter.mjs) whose default export is a reporter.`);
    }
  }
  return [...previous, ...names];
}

/**
 * The reporters `values` name: built-in names as they are, module paths imported (relative to the
 * working folder) and turned into reporter objects.
 *
 * @throws {UsageError} naming the file when it does not exist (with the built-in reporters), does not
 *   load, or its default export is no reporter.
 */
export async function resolveReporters(values: readonly string[]): Promise<(BuiltinReporterName | Reporter)[]> {
  const out: (BuiltinReporterName | Reporter)[] = [];
  for (const value of values) {
    if (isBuiltinReporter(value)) {
      out.push(value);
      continue;
    }
    const file = path.resolve(value);
    if (!existsSync(file)) {
      throw new UsageError(`--reporter ${value}: no such file (${file}). Reporters: ${REPORTER_NAMES.join(', ')}, or the path of a module whose default export is a reporter (README "Reporters").`);
    }
    let module: Record<string, unknown>;
    try {
      module = await importConfigFile(file);
    } catch (error) {
      // Node's module errors append a "Require stack" of file paths: the first lines say what is wrong.
      const reason = (error as Error).message.split(/\r?\nRequire stack:/)[0]!.trim();
      throw new UsageError(`--reporter ${value}: the module does not load (${file}): ${reason}`);
    }
    const exported = module.default ?? module.reporter;
    let reporter: unknown = exported;
    if (typeof exported === 'function') {
      try {
        reporter = makeReporter(exported as (...args: unknown[]) => unknown);
      } catch (error) {
        throw new UsageError(`--reporter ${value}: its default export threw when making the reporter (${file}): ${describeThrown(error)}`);
      }
    }
    if (!isPlainObject(reporter) && !(typeof reporter === 'object' && reporter !== null)) {
      throw new UsageError(`--reporter ${value}: its default export must be a reporter (an object with hooks onRunStart, onCaseResult, onRunEnd), a class of one or a function returning one`);
    }
    const r = reporter as Reporter;
    if (typeof r.name !== 'string' || r.name === '') (r as { name: string }).name = path.basename(value);
    out.push(r);
  }
  return out;
}

/**
 * The reporter a default export that is a function makes: a class is constructed, a plain function
 * called (an arrow function cannot be constructed). What either throws is thrown.
 */
function makeReporter(exported: (...args: unknown[]) => unknown): unknown {
  const isClass = /^class[\s{]/.test(Function.prototype.toString.call(exported));
  if (isClass || exported.prototype === undefined) return isClass ? new (exported as unknown as new () => unknown)() : exported();
  try {
    return new (exported as unknown as new () => unknown)();
  } catch {
    return exported();
  }
}
