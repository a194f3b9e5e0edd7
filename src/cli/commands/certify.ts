/**
 * `routecert certify --config routecert.config.ts [--route R]`: certify the config's worker on each
 * route, print progress, write reports/<run>/certificate.{json,md}.
 *
 * Exit codes: 0 every check passed (also a `partial` route: `--check` left checks out, and the
 * ones that ran passed; never read as certified); 1 a check failed; 2 configuration error; 3 a smoke failed (the
 * adapter is broken) or a route could not run.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_FILE_NAMES } from '#src/config/fileNames.ts';
import pc from 'picocolors';
import { certify, checkCertifyOptions, schemaMisfit, type CertifyProgress } from '#src/harness/certify/certify.ts';
import { blockingLines, countsText, notSelectedLine, writeCertificate } from '#src/harness/certify/certificate.ts';
import { CertifyConfigError } from '#src/harness/certify/config.ts';
import { loadProjectConfig } from '#src/config/project.ts';
import { UsageError } from '../options.ts';
import { checkReportsFolder, createRunFolder } from './run.ts';

/** Options of `routecert certify` as commander parses them. */
export interface CertifyCommandOptions {
  /** The config file; @default the first ./routecert.config.* (src/config/project.ts CONFIG_FILE_NAMES). */
  config?: string;
  route?: string[];
  check?: string[];
  reports: string;
  concurrency?: number;
  keep?: boolean;
}

const MARK = { pass: pc.green('PASS'), fail: pc.red('FAIL'), skipped: pc.yellow('SKIP') } as const;

function progress(write: (s: string) => void) {
  return (e: CertifyProgress) => {
    if (e.kind === 'route-start') write(`${pc.bold(e.route)} (fake \`${e.cli}\` replaying the corpus)\n`);
    else if (e.kind === 'run') return;
    else if (e.kind === 'check') {
      const r = e.result;
      const detail = r.status === 'skipped' ? pc.dim(r.reason ?? '') : r.status === 'fail' ? '' : pc.dim(r.evidence[0] ?? '');
      write(`  ${MARK[r.status]} ${e.stage === 'smoke' ? 'smoke ' : ''}${r.id.padEnd(22)} ${detail}\n`);
      if (r.status === 'fail') for (const line of r.evidence) write(`         ${line}\n`);
    } else {
      const c = e.certificate;
      const status = c.status === 'certified' ? pc.green(c.status) : c.status === 'not-certified' ? pc.red(c.status) : c.status === 'partial' ? pc.yellow(c.status) : pc.magenta(c.status);
      const leftOut = c.notSelected?.ids.length ? `, ${c.notSelected.ids.length} not run` : '';
      write(`  => ${status}: ${countsText(c)}${leftOut} (CLI ${c.cli.name} ${c.cli.version})\n`);
      const notRun = notSelectedLine(c);
      if (notRun !== null) write(`     ${notRun}\n`);
      for (const line of blockingLines(c)) write(`     ${line}\n`);
      if (c.status === 'adapter-broken') write(`     the smoke failed: the adapter (command, paths, route names, environment) is broken; no check ran\n`);
    }
  };
}

/** Certify and write the certificate; returns the exit code. */
export async function certifyCommand(opts: CertifyCommandOptions): Promise<number> {
  const write = (s: string) => process.stdout.write(s);
  let loaded;
  const file = opts.config ?? CONFIG_FILE_NAMES.find((n) => existsSync(n));
  if (file === undefined) {
    process.stderr.write(`[routecert] certify: no routecert config here (looked for ${CONFIG_FILE_NAMES.join(', ')}); give --config <file>, or write one with \`npx routecert init\`\n`);
    return 2;
  }
  try {
    // The project loader: a `contract` may then name one of the config's own `contracts`.
    const project = await loadProjectConfig(file);
    loaded = project.certify;
    if (loaded === null) {
      process.stderr.write(`[routecert] certify: ${file} has no worker to certify: add \`worker\` and \`routes\` (README "Certifying a worker")\n`);
      return 2;
    }
  } catch (error) {
    if (error instanceof CertifyConfigError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
  try {
    // A --check or --route the config cannot honour fails here, before any work and before the first line.
    checkCertifyOptions(loaded.config, { ...(opts.route ? { routes: opts.route } : {}), ...(opts.check ? { checks: opts.check } : {}) });
    const misfit = schemaMisfit(loaded);
    if (misfit !== null) {
      process.stderr.write(`[routecert] config file ${file}: ${misfit}\n`);
      return 2;
    }
    // A --reports that cannot hold the certificate stops here too, not after the certification.
    await checkReportsFolder(opts.reports);
  } catch (error) {
    if (error instanceof CertifyConfigError || error instanceof UsageError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
  write(`certifying ${pc.bold(loaded.config.worker.name)}: ${loaded.config.worker.command?.join(' ') ?? '(in-process)'}\n`);
  let outcome;
  try {
    outcome = await certify(loaded, {
      ...(opts.route ? { routes: opts.route } : {}),
      ...(opts.check ? { checks: opts.check } : {}),
      ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
      ...(opts.keep ? { keep: true } : {}),
      onProgress: progress(write),
    });
  } catch (error) {
    if (error instanceof CertifyConfigError) {
      // An option the user typed (`--check nosuch`, `--route nosuch`) is named as such, not as the config's fault.
      const optionError = /^(\[routecert\] )?--(check|route) /.test(error.message);
      process.stderr.write(`${optionError ? error.message : error.message.replace(/^\[routecert\] /, `[routecert] config file ${file}: `)}\n`);
      return 2;
    }
    throw error;
  }
  const dir = await createRunFolder(opts.reports);
  const files = await writeCertificate(dir, outcome.certificate);
  write(`certificate: ${path.relative(process.cwd(), files.json) || files.json}, ${path.relative(process.cwd(), files.markdown) || files.markdown}\n`);
  if (outcome.keptAt !== undefined) write(`kept (--keep): ${outcome.keptAt} (each run's folder: the worker's output, its log, the fake CLIs' call records)\n`);
  const stoppedBy = outcome.certificate.footer.interrupted;
  if (stoppedBy) process.stderr.write(`[routecert] interrupted by ${stoppedBy}: the certificate is partial (a route not finished before the signal is could-not-run); exit ${outcome.exitCode}\n`);
  if (outcome.exitCode === 2) {
    const routes = outcome.certificate.routes.map((r) => r.route).join(', ');
    process.stderr.write(`[routecert] certify: --check ${(opts.check ?? []).join(', ')} applies on none of the routes certified (${routes}; each SKIP line above says why): only the smoke ran. Pick a check that applies on these routes, or add a route where it applies (\`--route\`)\n`);
  }
  return outcome.exitCode;
}
