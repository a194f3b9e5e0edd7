/**
 * `routecert lint`: schema portability across model CLIs and providers (src/schema). With
 * `--config`, the production schema of every contract of the config is linted against the profiles
 * of the CLIs the contract sends it to (its `clis`, src/config/project.ts), and the paths given
 * beside it against the named or default profiles.
 */
import { existsSync } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { configFor, clisOf, profilesOf } from '#src/config/project.ts';
import { lintFiles, lintSchema, type FileLintResult } from '#src/schema/lint.ts';
import { formatText, lintExitCode, maxWarningsLine, runLint } from '#src/schema/lintCommand.ts';

/**
 * Lint; returns the exit code (0 no error: warnings print and pass unless more than `--max-warnings`;
 * 1 an error finding, or too many warnings; 2 usage error: also a path that does not exist).
 * Without paths or `--config`: the working folder's routecert.config.* (as `run` finds it) when it
 * defines contracts, else `schemas/contracts`; neither is a usage error naming both ways.
 */
export async function lintCommand(paths: string[], opts: { profile?: string[]; format: 'text' | 'json'; config?: string; maxWarnings?: number }): Promise<number> {
  const io = { stdout: (s: string) => process.stdout.write(s), stderr: (s: string) => process.stderr.write(s) };
  const missing: string[] = [];
  for (const p of paths) await access(p).catch(() => missing.push(p));
  if (missing.length > 0) {
    io.stderr(`[routecert] lint: no such file or folder: ${missing.join(', ')} (give *.schema.json files or folders holding them; without a path, lint takes the working folder's routecert.config.*)\n`);
    return 2;
  }
  // No paths: the config of the working folder (as `run` finds it) when it has contracts, else the
  // bundled layout's schemas/contracts.
  let project: Awaited<ReturnType<typeof configFor>> = null;
  if (opts.config !== undefined || paths.length === 0) {
    try {
      project = await configFor(opts.config);
    } catch (error) {
      io.stderr(`${(error as Error).message}\n`);
      return 2;
    }
  }
  if (opts.config === undefined && (paths.length > 0 || !project || project.contracts.length === 0)) {
    if (paths.length === 0 && !existsSync('schemas/contracts')) {
      io.stderr('[routecert] lint: no paths given, no routecert.config.* with contracts here, and no schemas/contracts folder: name schema files or folders (`routecert lint schemas/`), or a config (`--config routecert.config.ts`).\n');
      return 2;
    }
    return runLint({ paths: paths.length > 0 ? paths : ['schemas/contracts'], ...(opts.profile ? { profiles: opts.profile } : {}), format: opts.format, ...(opts.maxWarnings !== undefined ? { maxWarnings: opts.maxWarnings } : {}) }, io);
  }
  let results: FileLintResult[];
  try {
    if (!project || project.contracts.length === 0) {
      io.stderr('[routecert] the config defines no contracts whose schemas could be linted\n');
      return 2;
    }
    results = [];
    for (const contract of project.contracts) {
      const profiles = opts.profile?.length ? opts.profile : profilesOf(contract);
      const file = contract.definition.schemaFile ? path.relative(process.cwd(), contract.definition.schemaFile) || contract.definition.schemaFile : `(inline schema of ${contract.name})`;
      if (profiles.length === 0) {
        io.stdout(`${file}  skipped: contract ${contract.name} is sent to ${clisOf(contract).join(', ')}, whose schema goes in the prompt (no CLI validates it)\n`);
        continue;
      }
      results.push({ file, profiles: [...profiles], manifest: `contract ${contract.name} (clis: ${clisOf(contract).join(', ')})`, findings: lintSchema(contract.definition.schema, { profiles, file }) });
    }
    // Paths beside --config are linted too (they were once dropped: `lint --config c.ts new/` passed
    // on a schema with errors); a path with no schema file lints nothing, a usage error.
    if (paths.length > 0) {
      const named = await lintFiles(paths, opts.profile?.length ? { profiles: opts.profile } : {});
      const empty = named.filter((r) => r.findings.some((f) => f.rule === 'no-schema-files'));
      if (empty.length > 0) {
        io.stderr(`[routecert] lint: nothing to lint: no *.schema.json file under ${empty.map((r) => r.file).join(', ')}. Name schema files *.schema.json, or pass the files themselves.\n`);
        return 2;
      }
      // A named schema that is a contract's is linted once, for the CLIs its contract sends it to
      // (it was listed twice: once by its contract's profiles, once by the default ones).
      const contractSchemas = new Set(project.contracts.flatMap((c) => (c.definition.schemaFile ? [path.resolve(c.definition.schemaFile)] : [])));
      for (const r of named) if (!contractSchemas.has(path.resolve(r.file))) results.push(r);
    }
  } catch (error) {
    io.stderr(`${(error as Error).message}\n`);
    return 2;
  }
  const findings = results.flatMap((r) => r.findings);
  io.stdout(opts.format === 'json' ? `${JSON.stringify(findings, null, 2)}\n` : formatText(results));
  io.stderr(maxWarningsLine(findings, opts.maxWarnings));
  return lintExitCode(findings, opts.maxWarnings);
}
